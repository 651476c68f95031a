// antiquity_quest.js: the hand, the discard pile, each side's collections
// and scores. Cards are tokens like "red2.4" (suit, rank, copy) or
// treasures like "crown.7" (rules/antiquity_quest/README.md).
import { h } from '../js/dom.js';
import { card, cardRow, backs, seatName, table } from './common.js';

export const title = 'Antiquity Quest';
export const summary = 'Rummy with antiquities: draw, pick up the discard pile, and lay collections of one suit or of treasures; complete collections score 250 to 1500, and the first to go out ends the round.';

// Each suit's colour and symbol (the symbol and the name say it too).
const SUITS = {
  red: '♦', yellow: '☀', blue: '≈', green: '♣', purple: '♛', orange: '✹',
};
const TREASURES = { crown: '♔', chalice: '♁', scepter: '⚚', mask: '☺', amulet: '☥', remington: '✍', tess: '✈' };

function parse(token) {
  const name = String(token).replace(/\.\d+$/, '');
  const m = name.match(/^([a-z]+?)(\d|W)$/);
  if (m) return { suit: m[1], rank: m[2] === 'W' ? 'wild' : m[2] };
  return { suit: null, rank: name };
}

export function aqCard(token) {
  const { suit, rank } = parse(token);
  if (suit) {
    return card({ suit: SUITS[suit] ? suit : 'grey', symbol: SUITS[suit] ?? '◆',
                  value: rank === 'wild' ? 'W' : rank, name: `${suit} ${rank}` });
  }
  const person = rank === 'remington' || rank === 'tess';
  return card({ suit: person ? 'black' : 'brown', symbol: TREASURES[rank] ?? '✦', value: rank,
                name: person ? `character: ${rank}` : `treasure: ${rank}` });
}

export function draw(view, ctx) {
  const out = [];
  out.push(h('p', null, `Round ${view.round ?? '?'} of ${view.rounds ?? '?'} · phase: ${view.phase ?? ''} · draw pile ${view.draw_pile ?? '?'} cards`));
  const discard = view.discard_pile ?? {};
  out.push(cardRow(`Discard pile (${discard.count ?? 0} cards)`, (discard.cards ?? []).map(aqCard)));
  if (view.you?.hand) out.push(cardRow('Your hand', view.you.hand.map(aqCard)));
  out.push(h('p', { class: 'hint' }, 'Suits: ', Object.entries(SUITS).map(([n, sym]) => `${sym} ${n}`).join(' · '), ' · W wild'));
  for (const side of view.sides ?? []) {
    const who = (side.seats ?? []).map((s) => seatName(ctx, s)).join(' and ');
    const cols = (side.collections ?? []).map((c) => h('div', { class: 'panel' },
      h('p', null, `Collection ${c.id}: ${c.grade ?? ''} ${c.family ?? ''}${c.suit ? ` (${c.suit})` : ''}${c.complete ? ` · complete, worth ${c.value}` : ' · incomplete'}`),
      h('ul', { class: 'cards', 'aria-label': `collection ${c.id}` }, (c.cards ?? []).map(aqCard))));
    out.push(h('div', null, h('h4', null, `${who}: ${side.completed ?? 0} complete, cache ${side.cache_taken ? 'taken' : `${side.cache_count} cards`}`), cols));
  }
  if (view.seats) {
    out.push(table('Hands and scores', ['Player', 'Cards in hand', 'Total'],
      view.seats.map((s) => [seatName(ctx, s.seat), h('ul', { class: 'cards' }, backs(s.hand_count ?? 0)), String(view.totals?.[s.side] ?? '')])));
  }
  return out;
}

// The hand's cards as moves name them (the token without its copy).
export function hand(view) {
  return (view.you?.hand ?? []).map((t) => String(t).replace(/\.\d+$/, ''));
}
