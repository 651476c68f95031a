// start.js: the start page (what this is, signing in, the games, starting
// a match, my matches), the games page and the my-matches page.
import { h, fill, field, announce, when, wide } from '../dom.js';
import { call, ApiError } from '../api.js';
import * as keys from '../keys.js';
import { gameModule } from '../../games/index.js';

// Match ids this browser created or joined, newest first: a list that
// works even where the server cannot list a player's matches.
export function rememberMatch(id) {
  const ids = knownMatches().filter((m) => m !== id);
  ids.unshift(id);
  localStorage.setItem('pbem.matches', JSON.stringify(ids.slice(0, 50)));
}
export function knownMatches() {
  try {
    const ids = JSON.parse(localStorage.getItem('pbem.matches') ?? '[]');
    return Array.isArray(ids) ? ids.filter((m) => typeof m === 'string') : [];
  } catch (e) {
    return [];
  }
}

function errorBox() {
  return h('p', { class: 'error', role: 'alert', hidden: true });
}
function showError(box, e) {
  box.hidden = false;
  box.textContent = e instanceof ApiError || e instanceof Error ? e.message : String(e);
}

function registerForm(app) {
  const name = h('input', { name: 'name', required: true, maxlength: 40, autocomplete: 'nickname' });
  const email = h('input', { name: 'email', type: 'email', autocomplete: 'email' });
  const err = errorBox();
  const form = h('form', { 'aria-labelledby': 'register-title' },
    h('h3', { id: 'register-title' }, 'New here: make a key and register'),
    h('p', null, 'No password: this browser makes a signing key that cannot leave it, and every move you make is signed with it.'),
    field('Your name (others see it)', name, 'Up to 40 characters.'),
    field('Email (optional)', email, 'For "your turn" mails and to sign in on another device.'),
    h('button', { type: 'submit' }, 'Register this browser'), err);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    try {
      const key = await keys.makeKey();
      const body = { name: name.value.trim(), public_key: keys.base64(key.publicRaw) };
      if (email.value.trim()) body.email = email.value.trim();
      const answer = await call('POST', '/v1/players', { body, key });
      const identity = { ...key, player: answer.id, name: answer.name ?? body.name };
      await keys.save(identity);
      await app.setIdentity(identity);
      announce(`Registered as ${identity.name}.`);
      // Back to the match whose invitation brought them here, if one did.
      const next = new URLSearchParams(location.search).get('next');
      app.go(next && /^\/matches\/[A-Za-z0-9_]+$/.test(next) ? next : location.pathname);
    } catch (e) {
      showError(err, e);
    }
  });
  return form;
}

function signInLinkForm() {
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'email' });
  const err = errorBox();
  const done = h('p', { class: 'ok', hidden: true, role: 'status' });
  const form = h('form', { 'aria-labelledby': 'link-title' },
    h('h3', { id: 'link-title' }, 'I already have an account'),
    h('p', null, 'We mail you a sign-in link, good for 15 minutes; opening it in this browser adds this browser\'s key to your account.'),
    field('Your account\'s email', email),
    h('button', { type: 'submit', class: 'secondary' }, 'Mail me a sign-in link'), err, done);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    try {
      await call('POST', '/v1/players/sign-in-links', { body: { email: email.value.trim() } });
      done.hidden = false;
      done.textContent = `If ${email.value.trim()} belongs to an account, a sign-in link is on its way.`;
    } catch (e) {
      showError(err, e);
    }
  });
  return form;
}

async function loadGames() {
  return (await call('GET', '/v1/games')).games;
}

function optionControl(name, spec) {
  let control;
  if (spec.type === 'boolean') {
    control = h('input', { type: 'checkbox', name, checked: spec.default === true });
  } else if (Array.isArray(spec.enum)) {
    control = h('select', { name }, spec.enum.map((v) => h('option', { value: v, selected: v === spec.default }, String(v))));
  } else if (spec.type === 'integer') {
    control = h('input', { type: 'number', name, value: spec.default ?? '', min: spec.minimum, max: spec.maximum, step: 1 });
  } else {
    control = h('input', { name, value: spec.default ?? '' });
  }
  control.dataset.optionType = spec.type ?? 'string';
  return field(name.replaceAll('_', ' '), control, spec.description);
}

function newMatchForm(app, games) {
  const game = h('select', { name: 'game', id: 'new-game' }, games.map((g) => h('option', { value: g.name }, g.title)));
  const seats = h('input', { name: 'seats', id: 'new-seats', type: 'number', value: 2, min: 2, max: 8, step: 1 });
  const options = h('div', { class: 'options' });
  const open = h('input', { type: 'checkbox', name: 'open', id: 'new-open' });
  const err = errorBox();
  const showOptions = () => {
    const g = games.find((x) => x.name === game.value);
    seats.min = g.min_seats;
    seats.max = g.max_seats;
    if (Number(seats.value) < g.min_seats || Number(seats.value) > g.max_seats) seats.value = g.min_seats;
    fill(options, h('p', { class: 'hint' }, `${g.min_seats} to ${g.max_seats} players.`),
         Object.entries(g.options ?? {}).map(([n, spec]) => optionControl(n, spec)));
  };
  game.addEventListener('change', showOptions);
  showOptions();
  const form = h('form', { 'aria-labelledby': 'new-title', id: 'new-match' },
    h('h2', { id: 'new-title' }, 'Start a match'),
    field('Game', game), field('Players', seats), field('Open to anyone (listed under Open matches, rated)', open),
    h('details', null, h('summary', null, 'Options'), options),
    h('button', { type: 'submit' }, 'Start the match'), err);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    const opts = {};
    for (const input of options.querySelectorAll('[data-option-type]')) {
      const t = input.dataset.optionType;
      if (t === 'boolean') opts[input.name] = input.checked;
      else if (t === 'integer') opts[input.name] = Number(input.value);
      else opts[input.name] = input.value;
    }
    try {
      const answer = await call('POST', '/v1/matches', {
        body: { game: game.value, seats: Number(seats.value), options: opts, open: open.checked }, key: app.me });
      const id = answer.match?.id ?? answer.id;
      rememberMatch(id);
      app.go(`/matches/${id}`);
    } catch (e) {
      showError(err, e);
    }
  });
  return form;
}

export async function startPage(main, app) {
  main.append(h('h1', null, 'Play board and card games by turns'),
    h('p', null, 'pbem runs matches that last days: you move when you have a moment, by mail, from a program, or on this page. ',
      'Every move is signed, every match is written in a chained log, and after the end anyone can replay it and check that the shuffles were fair.'));
  if (!app.me) {
    main.append(h('section', { id: 'sign-in', 'aria-label': 'Sign in' },
      h('h2', null, 'Sign in without a password'), registerForm(app), signInLinkForm()));
  }
  const games = await loadGames();
  main.append(h('section', { 'aria-labelledby': 'games-title' },
    h('h2', { id: 'games-title' }, 'The games'),
    h('ul', null, games.map((g) => h('li', null, h('strong', null, g.title), ` (${g.min_seats}–${g.max_seats} players): `,
      gameModule(g.name)?.summary ?? ''))),
    h('p', null, h('a', { href: '/games' }, 'The games, their rules and options'))));
  if (app.me) {
    main.append(h('section', null, newMatchForm(app, games)));
    const list = h('div');
    main.append(h('section', { 'aria-labelledby': 'mine-title' }, h('h2', { id: 'mine-title' }, 'My matches'), list));
    await drawMyMatches(list, app);
  }
}

export async function gamesPage(main) {
  main.append(h('h1', null, 'The games'));
  const games = await loadGames();
  main.append(h('div', { class: 'games' }, games.map((g) => h('article', { 'aria-labelledby': `g-${g.name}` },
    h('h2', { id: `g-${g.name}` }, g.title),
    h('p', null, `${g.min_seats} to ${g.max_seats} players.`),
    h('p', null, gameModule(g.name)?.summary ?? ''),
    h('p', null, h('a', { href: g.rules_page ?? `/games/${g.name}` }, `The rules of ${g.title} in short`)),
    Object.keys(g.options ?? {}).length ? h('dl', null, Object.entries(g.options).map(([n, s]) => [
      h('dt', null, n.replaceAll('_', ' ')), h('dd', null, `${s.description ?? ''} (default ${JSON.stringify(s.default)})`)])) : null))));
}

async function drawMyMatches(list, app) {
  let rows = null;
  try {
    rows = (await call('GET', '/v1/players/me/matches', { key: app.me })).matches;
  } catch (e) {
    // A server without the list: this browser's own memory. Any other
    // refusal is said (a revoked key also signs this browser out).
    if (!(e instanceof ApiError) || e.status !== 404) {
      fill(list, h('p', { class: 'error' }, `Your matches cannot be listed: ${e.message}`));
      return;
    }
    rows = null;
  }
  if (rows === null) {
    const ids = knownMatches();
    if (ids.length === 0) {
      fill(list, h('p', null, 'No match yet: start one above, or open an invitation link.'));
      return;
    }
    fill(list, h('ul', null, ids.map((id) => h('li', null, h('a', { href: `/matches/${id}` }, `Match ${id}`)))));
    return;
  }
  if (rows.length === 0) {
    fill(list, h('p', null, 'No match yet: start one above, or open an invitation link.'));
    return;
  }
  fill(list, wide(h('table', null,
    h('caption', { class: 'hint' }, 'Your matches, those waiting for you first, marked "your turn"'),
    h('thead', null, h('tr', null, ['Match', 'Game', 'Players', 'State', 'Updated'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows.map((m) => h('tr', { class: m.your_turn ? 'your-turn' : null, 'data-match': m.match_id },
      h('td', null, h('a', { href: `/matches/${m.match_id}` }, m.match_id)),
      h('td', null, gameModule(m.game)?.title ?? m.game),
      h('td', null, (m.seats ?? []).map((s) => s.name ?? `seat ${s.seat}`).join(', ')),
      h('td', { class: m.your_turn ? 'turn-mark' : null }, m.your_turn ? 'your turn' : m.status),
      h('td', null, when(m.updated_at)))))), 'Your matches'));
}

export async function myMatchesPage(main, app) {
  main.append(h('h1', null, 'My matches'));
  if (!app.me) {
    main.append(h('p', null, h('a', { href: '/#sign-in' }, 'Sign in'), ' to see your matches.'));
    return;
  }
  const list = h('div');
  main.append(list);
  await drawMyMatches(list, app);
}
