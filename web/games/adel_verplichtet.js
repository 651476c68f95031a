// adel_verplichtet.js: the lords (where they stand, their checks, thieves
// and exhibits), the auction house's piles, the prison and your hand.
// Collection cards are A1–F7: the letter is the collection
// (rules/adel_verplichtet/README.md).
import { h } from '../js/dom.js';
import { card, cardRow, seatName, table } from './common.js';

export const title = 'Adel Verplichtet';
export const summary = 'Each turn every lord secretly chooses the auction house or a castle, then an action card; buy antiques with checks, steal with thieves, catch thieves with detectives, and exhibit the best collection to advance.';

const SETS = {
  A: ['red', '♔'], B: ['blue', '♕'], C: ['green', '♖'], D: ['purple', '♗'], E: ['orange', '♘'], F: ['teal', '♙'],
};

export function avCard(name) {
  const set = SETS[String(name)[0]];
  if (!set) return card({ value: String(name), name: String(name) });
  return card({ suit: set[0], symbol: set[1], value: name, name: `collection ${name[0]} card ${name.slice(1)}` });
}

export function draw(view, ctx) {
  const out = [];
  out.push(h('p', null, `Turn ${view.turn ?? '?'} · phase: ${view.phase ?? ''}`));
  if (view.prompt) out.push(h('p', null, view.prompt));
  out.push(h('h4', null, 'The auction house'));
  out.push(h('ul', { class: 'cards', 'aria-label': 'auction piles' },
    (view.auction_piles ?? []).map((p, i) => p.face_up ? avCard(p.face_up) : card({ value: '—', name: `pile ${i + 1} empty` }))));
  out.push(h('p', { class: 'hint' }, (view.auction_piles ?? []).map((p, i) => `pile ${i + 1}: ${p.count} cards`).join(' · ')));
  out.push(table('The lords', ['Lord', 'At', 'Chose', 'Checks', 'Thieves', 'Exhibits'],
    (view.lords ?? []).map((l) => [seatName(ctx, l.seat), `${l.at ?? ''}${l.location ? ` → ${l.location}` : ''}`,
      l.chosen ? h('span', { class: 'ok' }, 'sealed') : 'not yet',
      (l.checks ?? []).join(', '), (l.free_thieves ?? []).join(', '),
      h('ul', { class: 'cards' }, (l.display ?? []).map(avCard))])));
  const prison = (view.prison ?? []).filter((p) => p !== null);
  if (prison.length) out.push(h('p', null, `In prison: ${prison.map((p) => JSON.stringify(p)).join(', ')}`));
  if (view.you?.hand) out.push(cardRow('Your collection cards', view.you.hand.map(avCard)));
  out.push(h('p', { class: 'hint' }, 'Collections: ', Object.entries(SETS).map(([letter, [, sym]]) => `${sym} ${letter}`).join(' · ')));
  if (view.log?.length) out.push(h('details', null, h('summary', null, 'What happened this turn'), h('ul', null, view.log.map((l) => h('li', null, typeof l === 'string' ? l : JSON.stringify(l))))));
  return out;
}

// The hand's collection cards as moves name them.
export function hand(view) {
  return view.you?.hand ?? [];
}
