// antiquity_quest.js: the draw and discard piles, your hand, each side's
// collections (temples of one suit, or of treasures) with their value,
// and the scores. Cards are tokens like "red2.4" (suit, rank, copy) or
// treasures like "crown.7" (rules/antiquity_quest/README.md).
import { h } from '../js/dom.js';
import { card, cardRow, backs, count, handBacks, place, seatName, sub, table } from './common.js';

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
  if (m) return { suit: m[1], rank: m[2] === 'W' ? 'wild' : m[2], name };
  return { suit: null, rank: name, name };
}

// A card; with touch, it is a piece moves name ("card:blue2").
export function aqCard(token, touch = false) {
  const { suit, rank, name } = parse(token);
  const piece = touch ? `card:${name}` : null;
  if (suit) {
    return card({ suit: SUITS[suit] ? suit : 'grey', symbol: SUITS[suit] ?? '◆',
                  value: rank === 'wild' ? 'W' : rank, name: `${suit} ${rank}`, piece });
  }
  const person = rank === 'remington' || rank === 'tess';
  return card({ suit: person ? 'black' : 'brown', symbol: TREASURES[rank] ?? '✦', value: rank,
                name: person ? `character: ${rank}` : `treasure: ${rank}`, piece });
}

// "standard red", "mixed (yellow)": each word once.
function describe(c) {
  const words = [];
  for (const w of [c.grade, c.family]) if (w && !words.includes(w)) words.push(w);
  return `${words.join(' ')}${c.suit && !words.includes(c.suit) ? ` (${c.suit})` : ''}`;
}

export function draw(view, ctx) {
  const out = [];
  out.push(h('p', null, `Round ${view.round ?? '?'} of ${view.rounds ?? '?'} · phase: ${view.phase ?? ''} · draw pile ${count(view.draw_pile ?? 0, 'card')}`));
  const discard = view.discard_pile ?? {};
  const shown = (discard.cards ?? []).map((t) => aqCard(t));
  // Only the seat on turn sees the whole pile; everyone sees its top card
  // face up (the rules' discard pile), with the rest counted under it.
  let pile = shown;
  if (!shown.length && discard.count) {
    pile = discard.top ? [aqCard(discard.top)] : [];
    const under = discard.count - pile.length;
    if (under > 0) pile.push(backs(under, pile.length ? 'more face-down card' : 'face-down card'));
  }
  out.push(cardRow(`Discard pile (${count(discard.count ?? 0, 'card')})`, pile, ctx, 'empty'));
  if (view.you?.hand) out.push(cardRow('Your hand', view.you.hand.map((t) => aqCard(t, true)), ctx));
  out.push(h('p', { class: 'hint' }, 'Suits: ', Object.entries(SUITS).map(([n, sym]) => `${sym} ${n}`).join(' · '), ' · W wild'));
  for (const side of view.sides ?? []) {
    const who = (side.seats ?? []).map((s) => seatName(ctx, s)).join(' and ');
    const laid = (side.collections ?? []).filter((c) => c.complete).reduce((a, c) => a + (c.value ?? 0), 0);
    const cols = (side.collections ?? []).map((c) => h('div', { class: `panel collection${c.complete ? ' complete' : ''}` },
      h('p', null, place(`collection:${c.id}`, `collection ${c.id}`, `Collection ${c.id}`),
        ` ${describe(c)}${c.complete ? ` · complete, worth ${c.value}` : ` · ${count((c.cards ?? []).length, 'card')}, not complete yet`}`),
      h('ul', { class: 'cards', 'aria-label': `collection ${c.id}` }, (c.cards ?? []).map((t) => aqCard(t)))));
    out.push(h('div', { class: 'side' }, sub(ctx, `${who}: ${count(side.completed ?? 0, 'complete collection')} worth ${laid}, cache ${side.cache_taken ? 'taken' : count(side.cache_count ?? 0, 'card')}`),
      cols.length ? h('div', { class: 'temples' }, cols) : h('p', { class: 'hint' }, 'no collection laid yet')));
  }
  if (view.seats) {
    const sideOf = new Map((view.sides ?? []).map((s) => [s.side, s]));
    out.push(table('Hands and scores', ['Player', 'Cards in hand', 'Laid this round', 'Total of past rounds'],
      view.seats.map((s) => [seatName(ctx, s.seat), handBacks(s.hand_count ?? 0),
        String((sideOf.get(s.side)?.collections ?? []).filter((c) => c.complete).reduce((a, c) => a + (c.value ?? 0), 0)),
        String(view.totals?.[s.side] ?? 0)]), ctx));
  }
  return out;
}

// The hand's cards as moves name them (the token without its copy).
export function hand(view) {
  return (view.you?.hand ?? []).map((t) => String(t).replace(/\.\d+$/, ''));
}
