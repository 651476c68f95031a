// match.js: a match's page. Seated and signed in: your own view drawn by
// the game's module and your legal moves as controls. Otherwise the public
// page a spectator sees. Both with the log, kept up to date by polling the
// events while the page is visible.
import { h, fill, announce, when, wide } from '../dom.js';
import { call, ApiError } from '../api.js';
import { gameModule } from '../../games/index.js';
import { movesPanel } from '../moves.js';
import { logItem } from '../log.js';
import { rememberMatch } from './start.js';

// A match that moved a moment ago is likely to move again soon: it is
// asked every second then, every five seconds once it has been quiet for a
// minute.
const POLL_BUSY_MS = 1000;
const POLL_QUIET_MS = 5000;
const QUIET_AFTER_MS = 60000;

function names(match) {
  return match.seats ?? [];
}

function seatLabel(match, seat, mine) {
  const s = match.seats?.find((x) => x.seat === seat);
  return `${s?.name ?? (s?.player ? `seat ${seat}` : `seat ${seat} (free)`)}${seat === mine ? ' (you)' : ''}`;
}

function statusLine(match, mine) {
  const p = match.pending;
  if (match.status === 'open') return `Waiting for players: ${match.seats.filter((s) => s.player).length} of ${match.seat_count} seated.`;
  if (match.status === 'finished') return 'The match is over.';
  if (match.status === 'aborted') return 'The match was aborted.';
  if (!p || p.wait === 'nobody') return '';
  if (p.wait === 'simultaneous') {
    return `Sealed choice (${p.decision}): waiting for ${p.seats.map((s) => seatLabel(match, s, mine)).join(', ') || 'the reveals'}.`;
  }
  const yours = p.seats.includes(mine);
  return `${yours ? 'Your turn. ' : ''}Waiting for ${p.seats.map((s) => seatLabel(match, s, mine)).join(', ')}: ${p.prompt ?? ''}`;
}

function seatsTable(match, mine) {
  const clocks = new Map((match.clocks ?? []).map((c) => [c.seat, c]));
  const waiting = new Set(match.pending?.seats ?? []);
  const scores = match.result?.scores;
  return wide(h('table', null, h('caption', null, 'Players'),
    h('thead', null, h('tr', null, ['Seat', 'Player', 'To act', 'Clock', scores ? 'Score' : null].filter(Boolean).map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, match.seats.map((s) => {
      const c = clocks.get(s.seat);
      const clock = c?.waiting ? `due ${when(c.waiting.due_at)}` : c ? `time bank ${Math.round(c.time_bank_seconds / 3600)} h` : '—';
      return h('tr', null, h('td', null, String(s.seat)), h('td', null, seatLabel(match, s.seat, mine)),
        h('td', { class: waiting.has(s.seat) ? 'turn-mark' : null }, waiting.has(s.seat) ? 'to act' : match.pending?.committed?.includes(s.seat) ? 'sealed ✓' : ''),
        h('td', null, clock), scores ? h('td', null, String(scores[s.seat] ?? '')) : null);
    }))), 'Players');
}

function sealedPanel(match, mine) {
  const p = match.pending;
  const committed = p.committed ?? [];
  return h('div', { class: 'sealed panel', 'aria-labelledby': 'sealed-title' },
    h('h3', { id: 'sealed-title' }, 'This choice is sealed'),
    h('p', null, 'Every player chooses in secret. The server keeps each choice sealed (only a commitment is published) until everyone has chosen; then all are revealed together.'),
    h('p', null, `Committed: ${committed.length ? committed.map((s) => seatLabel(match, s, mine)).join(', ') : 'nobody yet'}.`),
    h('p', null, `Still to choose: ${(p.seats ?? []).length ? p.seats.map((s) => seatLabel(match, s, mine)).join(', ') : 'nobody'}.`),
    committed.includes(mine) ? h('p', { class: 'ok' }, 'Your choice is sealed.') : null);
}

export async function matchPage(main, app, id) {
  const head = h('div');
  const board = h('div');
  const errors = h('p', { class: 'error', role: 'alert', id: 'move-error', hidden: true });
  const logList = h('ol', { class: 'log', 'aria-label': 'Log', tabindex: 0 });
  main.append(head, errors, board,
    h('section', { 'aria-labelledby': 'log-title' }, h('h2', { id: 'log-title' }, 'Log'), logList));
  let after = 0;
  let match = null;
  let busy = false;
  let lastChange = Date.now();
  const events = [];
  let drawnNames = null;

  // Loads and polls run one at a time, in order: the timer and a move of
  // one's own may both ask, and an older answer must not be drawn over a
  // newer one, nor a log page appended twice.
  let queue = Promise.resolve();
  const serial = (fn) => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  let drawnKey = null;
  const load = () => serial(loadNow);
  const poll = () => serial(pollNow);

  async function loadNow() {
    match = await call('GET', `/v1/matches/${id}`);
    const mine = app.me ? match.seats.find((s) => s.player === app.me.player)?.seat ?? null : null;
    let view = null;
    if (mine !== null && match.status !== 'open') {
      view = await call('GET', `/v1/matches/${id}/view`, { key: app.me });
      match = view;
    }
    // Drawn again only when something changed: a redraw for nothing would
    // take the control a player is on, or the move they are typing.
    const key = `${match.head.seq}/${match.status}/${mine}`;
    if (key !== drawnKey) {
      drawnKey = key;
      draw(mine, view);
    }
    // A seat taken since the log was drawn: its lines name the player now.
    const seatNames = JSON.stringify(match.seats.map((s) => s.name ?? null));
    if (seatNames !== drawnNames) {
      drawnNames = seatNames;
      logList.replaceChildren(...events.map((e) => logItem(e, match.seats)));
    }
  }

  async function play(body, text) {
    if (busy) return;
    busy = true;
    errors.hidden = true;
    try {
      await call('POST', `/v1/matches/${id}/moves`, { body: { seq: match.head.seq, ...body }, key: app.me });
      announce(`Played: ${text}`);
      await poll();
      await load();
    } catch (e) {
      errors.hidden = false;
      errors.textContent = e.message;
      announce(`Refused: ${e.message}`);
      if (e instanceof ApiError && e.code === 'stale_seq') await load();
    } finally {
      busy = false;
    }
  }

  async function join() {
    try {
      await call('POST', `/v1/matches/${id}/join`, { body: {}, key: app.me });
      rememberMatch(id);
      announce('You have joined the match.');
      await poll();
      await load();
    } catch (e) {
      errors.hidden = false;
      errors.textContent = e.message;
    }
  }

  function draw(mine, view) {
    // A redraw replaces the element a keyboard user stood on: they land on
    // the match's state line instead of the top of the page.
    const hadFocus = main.contains(document.activeElement) && document.activeElement !== main &&
      (head.contains(document.activeElement) || board.contains(document.activeElement));
    drawNow(mine, view);
    if (hadFocus && !main.contains(document.activeElement)) document.getElementById('match-status')?.focus();
  }

  function drawNow(mine, view) {
    const game = gameModule(match.game);
    const ctx = { seat: mine, seats: names(match) };
    // What the page shows, for tests and styles: the head it was drawn at.
    document.getElementById('main').dataset.seq = String(match.head.seq);
    document.getElementById('main').dataset.status = match.status;
    fill(head,
      h('h1', null, `${match.title ?? game?.title ?? match.game} · ${id}`),
      h('p', { id: 'match-status', tabindex: -1 }, statusLine(match, mine)),
      seatsTable(match, mine));
    if (match.status === 'open') {
      head.append(h('p', null, 'Invitation link: ', h('a', { href: `/matches/${id}`, id: 'invite-link' }, `${location.origin}/matches/${id}`)));
      if (app.me && mine === null) head.append(h('button', { id: 'join', onclick: join }, 'Join this match'));
      else if (!app.me) head.append(h('p', null, h('a', { href: `/?next=/matches/${id}#sign-in` }, 'Sign in'), ' to join this match; you come back here after.'));
      else head.append(h('p', null, 'Send the invitation link to the others; the match starts when every seat is taken.'));
    }
    if (match.status === 'finished' || match.status === 'aborted') {
      head.append(h('p', null, h('a', { href: `/matches/${id}/replay`, id: 'replay-link' }, 'Replay the match move by move and check it')));
    }
    fill(board);
    const drawn = match.view ?? view?.view;
    const shown = view ? view.view : match.view;
    if (shown && game) {
      board.append(h('section', { 'aria-labelledby': 'board-title', class: `board game-${match.game}` },
        h('h2', { id: 'board-title' }, view ? 'Your view' : 'The table'), game.draw(shown, ctx)));
    } else if (drawn) {
      board.append(h('pre', { class: 'text' }, JSON.stringify(drawn, null, 2)));
    }
    const p = match.pending;
    if (p?.wait === 'simultaneous' && match.status === 'active') board.append(sealedPanel(match, mine));
    if (view && match.status === 'active') {
      const mayAct = p?.seats?.includes(mine) && (view.legal?.moves?.length || view.legal?.forms?.length);
      if (mayAct) {
        board.append(h('section', { 'aria-labelledby': 'moves-title', id: 'moves' },
          h('h2', { id: 'moves-title' }, p.wait === 'simultaneous' ? 'Your sealed choice' : 'Your move'),
          movesPanel(view.legal, play, { sealed: p.wait === 'simultaneous', hand: game?.hand?.(view.view) ?? [] })));
      } else {
        board.append(h('p', { id: 'no-move' }, 'Nothing for you to do now; this page updates by itself.'));
      }
    }
    if (view?.text) board.append(h('details', null, h('summary', null, 'Your view as text'), h('pre', { class: 'text' }, view.text)));
  }

  async function pollNow() {
    const page = await call('GET', `/v1/matches/${id}/events?after=${after}`);
    events.push(...page.events);
    for (const e of page.events) logList.append(logItem(e, match?.seats));
    if (page.events.length) {
      after = page.events[page.events.length - 1].seq;
      lastChange = Date.now();
    }
    return page.events.length > 0;
  }

  await load();
  await poll();
  let timer = null;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    if (document.visibilityState === 'visible' && !busy) {
      try {
        if (await poll()) {
          await load();
          announce('The match has moved on.');
        }
      } catch (e) {
        /* the next tick tries again */
      }
    }
    const quiet = Date.now() - lastChange > QUIET_AFTER_MS;
    if (!stopped) timer = setTimeout(tick, quiet ? POLL_QUIET_MS : POLL_BUSY_MS);
  };
  timer = setTimeout(tick, POLL_BUSY_MS);
  const shown = () => {
    if (document.visibilityState !== 'visible' || stopped) return;
    clearTimeout(timer);
    tick();
  };
  document.addEventListener('visibilitychange', shown);
  app.onLeave(() => {
    document.removeEventListener('visibilitychange', shown);
    stopped = true;
    clearTimeout(timer);
  });
}
