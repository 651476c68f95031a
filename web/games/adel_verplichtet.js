// adel_verplichtet.js: the route (club room, the castles' track, the
// dinner table) with every lord's pawn, the auction house's piles, the
// castle, the prison, the lords' checks, thieves and exhibits, and your
// hand. Collection cards are A1–F7: the letter is the collection
// (rules/adel_verplichtet/README.md).
import { h } from '../js/dom.js';
import { card, cardRow, count, place, seatName, sub, table } from './common.js';

export const title = 'Adel Verplichtet';
export const summary = 'Each turn every lord secretly chooses the auction house or a castle, then an action card; buy antiques with checks, steal with thieves, catch thieves with detectives, and exhibit the best collection to advance.';

const SETS = {
  A: ['red', '♔'], B: ['blue', '♕'], C: ['green', '♖'], D: ['purple', '♗'], E: ['orange', '♘'], F: ['teal', '♙'],
};
// The track: 0 the club room, 1–36 the castles, 37 the dinner table.
const DINNER = 37;

export function avCard(name, piece) {
  const set = SETS[String(name)[0]];
  if (!set) return card({ value: String(name), name: String(name), piece });
  return card({ suit: set[0], symbol: set[1], value: name, name: `collection ${name[0]} card ${name.slice(1)}`, piece });
}

// Thieves carry sack numbers: seat s owns s+1 and s+6.
function thiefOwner(ctx, sack) {
  return seatName(ctx, (Number(sack) - 1) % 5);
}

function route(view, ctx) {
  const lords = view.lords ?? [];
  const spaces = [];
  for (let i = 0; i <= DINNER; i++) {
    const here = lords.filter((l) => Math.min(l.pawn ?? 0, DINNER) === i);
    spaces.push(h('span', { class: `space${i === 0 ? ' club' : i === DINNER ? ' dinner' : ''}` },
      h('span', { class: 'num' }, i === 0 ? 'club' : i === DINNER ? 'dinner' : String(i)),
      here.map((l) => h('span', { class: `pawn pawn-${l.seat}` }, seatName({ ...ctx, seat: null }, l.seat).slice(0, 1)))));
  }
  const said = lords.map((l) => `${seatName(ctx, l.seat)} ${(l.pawn ?? 0) >= DINNER ? 'at the dinner table' : `on space ${l.pawn ?? 0} (${l.at ?? ''})`}`).join('; ');
  return h('div', { class: 'route-wrap' }, sub(ctx, 'The route'),
    h('div', { class: 'route', role: 'img', 'aria-label': `The route from the club room to the dinner table: ${said}` }, spaces));
}

// A revealed action card, as the notation writes it: "thief 7",
// "check 11000", "detective" (the view gives the action or its words).
function played(play) {
  if (!play) return null;
  if (typeof play === 'string') return `play ${play}`;
  const rest = Object.entries(play).filter(([k]) => k !== 'type' && k !== 'card').map(([, v]) => v);
  return ['play', play.card ?? '', ...rest].join(' ').trim();
}

// What a lord chose: sealed until the reveal, then where he went and the
// card he played (kept until the next reveal, so the end shows them).
function chose(l, over) {
  const shown = [l.location, played(l.play)].filter(Boolean).join(', ');
  if (l.chosen) return h('span', { class: 'ok' }, 'sealed');
  if (shown) return over ? shown : `last: ${shown}`;
  return over ? '—' : 'not yet';
}

export function draw(view, ctx) {
  const out = [];
  const over = view.phase === 'over' || ctx.over;
  out.push(h('p', null, `Turn ${view.turn ?? '?'} · phase: ${view.phase ?? ''}`));
  if (view.prompt) out.push(h('p', null, view.prompt));
  out.push(route(view, ctx));
  out.push(h('div', { class: 'places' },
    h('div', { class: 'panel' }, place('place:auction', 'the auction house', 'The auction house'),
      h('ul', { class: 'cards', 'aria-label': 'auction piles' },
        (view.auction_piles ?? []).map((p, i) => p.face_up ? avCard(p.face_up) : card({ value: '—', name: `pile ${i + 1} empty` }))),
      h('p', { class: 'hint' }, (view.auction_piles ?? []).map((p, i) => `pile ${i + 1}: ${count(p.count ?? 0, 'card')}`).join(' · '))),
    h('div', { class: 'panel' }, place('place:castle', 'the castle', 'The castle'),
      h('p', { class: 'hint' }, 'Exhibit, steal from the exhibits, or catch thieves.')),
    h('div', { class: 'panel' }, sub(ctx, 'The prison'),
      (view.prison ?? []).filter((p) => p !== null).length
        ? h('ol', null, view.prison.filter((p) => p !== null).map((p) => h('li', null, `thief ${p} of ${thiefOwner(ctx, p)}`)))
        : h('p', { class: 'hint' }, 'empty'))));
  out.push(table('The lords', ['Lord', 'At', 'Chose', 'Checks', 'Thieves', 'Exhibits'],
    (view.lords ?? []).map((l) => [seatName(ctx, l.seat), (l.pawn ?? 0) >= DINNER ? l.at ?? 'dinner table' : `${l.at ?? ''} (space ${l.pawn ?? 0})`, chose(l, over),
      (l.checks ?? []).join(', ') || 'none', (l.free_thieves ?? []).join(', ') || 'none',
      (l.display ?? []).length ? h('ul', { class: 'cards' }, l.display.map((c) => avCard(c))) : 'none']), ctx));
  if (view.you?.hand) out.push(cardRow('Your collection cards', view.you.hand.map((c) => avCard(c, `card:${c}`)), ctx));
  out.push(h('p', { class: 'hint' }, 'Collections: ', Object.entries(SETS).map(([letter, [, sym]]) => `${sym} ${letter}`).join(' · ')));
  if (view.log?.length) out.push(h('details', { 'data-keep': 'av-turn' }, h('summary', null, 'What happened this turn'), h('ul', null, view.log.map((l) => h('li', null, (typeof l === 'string' ? l : JSON.stringify(l)).replace(/\bLord (\d)\b/g, (m, n) => seatName(ctx, Number(n))))))));
  return out;
}

// The hand's collection cards as moves name them.
export function hand(view) {
  return view.you?.hand ?? [];
}
