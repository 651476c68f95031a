// standings.js: who plays how well, as people who choose opponents read
// it: a game's standings (/games/<game>/standings, from GET
// /v1/games/{game}/ratings) and a player's page (/players/<p_…>, from GET
// /v1/players/{p}/ratings). Names and figures only: the API gives no
// address, and none is drawn.
import { h, when, wide } from '../dom.js';
import { call } from '../api.js';

// "87% of turns in time", or "no turns yet" before a first deadline.
export function reliabilityText(reliability) {
  if (typeof reliability !== 'number') return 'no turns yet';
  return `${Math.round(reliability * 100)}% of turns in time`;
}

// A player's name as a link to their page.
export function playerLink(ref, name) {
  return h('a', { href: `/players/${encodeURIComponent(ref)}`, class: 'player' }, name);
}

// A table that at phone width lays each row out as a block, each cell
// under its column's name (style.css: table.stack), so the page never
// scrolls sideways.
function stacked(id, caption, columns, rows, label) {
  return wide(h('table', { id, class: 'stack' },
    h('caption', null, caption),
    h('thead', null, h('tr', null, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, rows.map(([attrs, cells]) => h('tr', attrs,
      cells.map((cell, i) => h('td', { 'data-label': columns[i] }, cell)))))), label);
}

export async function standingsPage(main, app, game) {
  const board = await call('GET', `/v1/games/${encodeURIComponent(game)}/ratings`);
  main.append(h('h1', null, `Standings: ${board.title}`),
    h('p', null, 'Glicko-2 ratings from rated matches, the best first. A newcomer starts at 1500. ',
      h('a', { href: `/games/${encodeURIComponent(board.game)}` }, `The rules of ${board.title}`), ' · ',
      h('a', { href: '/lobby' }, 'Open matches')));
  if (board.ratings.length === 0) {
    main.append(h('p', { id: 'standings-empty' }, `Nobody has finished a rated match of ${board.title} yet.`));
    return;
  }
  main.append(stacked('standings-table', `${board.title}: ratings`,
    ['Rank', 'Player', 'Rating', 'Games', 'Wins', 'Reliability'],
    board.ratings.map((r) => [{ 'data-player': r.player }, [
      String(r.rank), playerLink(r.player, r.name), String(Math.round(r.rating)),
      String(r.matches), String(r.wins), reliabilityText(r.reliability)]]),
    `Standings of ${board.title}`));
}

// "1st", "2nd", "3rd", "4th" place.
function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

export async function playerPage(main, app, ref) {
  const [p, games] = await Promise.all([
    call('GET', `/v1/players/${encodeURIComponent(ref)}/ratings`),
    call('GET', '/v1/games'),
  ]);
  const titles = Object.fromEntries(games.games.map((g) => [g.name, g.title]));
  main.append(h('h1', null, p.name),
    h('p', { id: 'player-reliability' }, `Reliability: ${reliabilityText(p.reliability)} (over the latest 20 matches).`));
  if (p.games.length === 0) {
    main.append(h('p', { id: 'player-unrated' }, `${p.name} has not finished a rated match yet.`));
    return;
  }
  for (const g of p.games) {
    const title = titles[g.game] ?? g.game;
    main.append(h('section', { class: 'player-game', 'data-game': g.game },
      h('h2', null, title),
      h('p', null, `Rating ${Math.round(g.rating)}, ${g.matches} rated ${g.matches === 1 ? 'game' : 'games'} played, `,
        `${g.wins} ${g.wins === 1 ? 'win' : 'wins'}. `,
        h('a', { href: `/games/${encodeURIComponent(g.game)}/standings` }, `Standings of ${title}`)),
      g.history.length === 0 ? null : stacked(null, `${title}: rating history, the latest first`,
        ['Date', 'Match', 'Place', 'Rating'],
        g.history.map((c) => [{ 'data-match': c.match }, [
          when(c.at), h('a', { href: `/matches/${encodeURIComponent(c.match)}` }, c.match), ordinal(c.place),
          `${Math.round(c.before)} → ${Math.round(c.after)}`]]),
        `${title}: rating history`)));
  }
}
