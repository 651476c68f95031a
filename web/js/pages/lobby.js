// lobby.js: the "Open matches" page: the matches anyone may join, still
// waiting for players (GET /v1/matches?status=forming), with a join
// button each, filtered by game.
import { h, fill, field, announce, when, wide } from '../dom.js';
import { call } from '../api.js';
import { rememberMatch } from './start.js';
import { playerLink, reliabilityText as reliabilityOf } from './standings.js';

// "rating 1523", or "not rated yet" before a first rated match.
function ratingText(creator) {
  if (typeof creator.rating !== 'number') return 'not rated yet';
  return `rating ${Math.round(creator.rating)}`;
}

function reliabilityText(creator) {
  return reliabilityOf(creator.reliability);
}

function deadlineText(deadline) {
  return deadline ? `${deadline.turn_hours} h per turn` : 'no deadlines';
}

function joinButton(app, m, err) {
  if (!app.me) return h('a', { href: '/#sign-in' }, 'Sign in to join');
  const button = h('button', { type: 'button', 'data-join': m.id }, `Join ${m.id}`);
  button.addEventListener('click', async () => {
    err.hidden = true;
    button.disabled = true;
    try {
      const answer = await call('POST', `/v1/matches/${m.id}/join`, { body: {}, key: app.me });
      rememberMatch(m.id);
      announce(`You have seat ${answer.seat} in ${m.id}.`);
      app.go(`/matches/${m.id}`);
    } catch (e) {
      button.disabled = false;
      err.hidden = false;
      err.textContent = e.message;
    }
  });
  return button;
}

async function drawList(list, app, game) {
  const query = game ? `&game=${encodeURIComponent(game)}` : '';
  const rows = (await call('GET', `/v1/matches?status=forming${query}`)).matches;
  if (rows.length === 0) {
    fill(list, h('p', { id: 'lobby-empty' }, 'No open match is waiting for players. Start one on the start page and tick "Open to anyone".'));
    return;
  }
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  fill(list, wide(h('table', { id: 'lobby-table' },
    h('caption', { class: 'hint' }, 'Open matches, the newest first'),
    h('thead', null, h('tr', null, ['Match', 'Game', 'Seats', 'Turns', 'Rated', 'Created by', 'Join'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows.map((m) => h('tr', { 'data-match': m.id },
      h('td', null, h('a', { href: `/matches/${m.id}` }, m.id)),
      h('td', null, m.title),
      h('td', null, `${m.seats_taken} of ${m.seats} taken`),
      h('td', null, deadlineText(m.deadline)),
      h('td', null, m.rated ? 'rated' : 'unrated'),
      h('td', null, playerLink(m.creator.player, m.creator.name), ` (${ratingText(m.creator)}, ${reliabilityText(m.creator)}), ${when(m.created_at)}`),
      h('td', null, joinButton(app, m, err)))))), 'Open matches'), err);
}

export async function lobbyPage(main, app) {
  main.append(h('h1', null, 'Open matches'),
    h('p', null, 'Matches anyone may join. The match starts when its last seat is taken.'));
  const games = (await call('GET', '/v1/games')).games;
  const game = h('select', { name: 'game', id: 'lobby-game' },
    h('option', { value: '' }, 'Every game'),
    games.map((g) => h('option', { value: g.name }, g.title)));
  const list = h('div', { id: 'lobby-list' });
  game.addEventListener('change', () => drawList(list, app, game.value));
  main.append(h('form', { class: 'filter' }, field('Game', game)), list,
    h('h2', null, 'Standings'),
    h('ul', { id: 'standings-links' }, games.map((g) => h('li', null,
      h('a', { href: `/games/${encodeURIComponent(g.name)}/standings` }, `Standings of ${g.title}`)))));
  await drawList(list, app, '');
}
