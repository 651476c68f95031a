// another_mans_treasure.js: the hand, the discard, the patterns on the
// table and the round scores. Cards are "B4", "R6s" (a smiley), wilds
// "W1-6" (rules/another_mans_treasure/README.md).
import { h } from '../js/dom.js';
import { card, cardRow, count, handBacks, seatName, sub, table } from './common.js';

export const title = "Another Man's Treasure";
export const summary = 'Draw, take the discard or claim it out of turn, and lay the round\'s patterns (sets and runs) from your hand; after five rounds the lowest penalty wins.';

const COLOURS = {
  B: ['blue', '●', 'blue'], R: ['red', '▲', 'red'], Y: ['yellow', '★', 'yellow'], G: ['green', '■', 'green'],
};

// A card; with touch, it is a piece moves name ("card:B4").
export function amtCard(entry, touch = false) {
  const name = typeof entry === 'string' ? entry : entry?.card ?? '?';
  const piece = touch ? `card:${name}` : null;
  if (name.startsWith('W')) return card({ suit: 'purple', symbol: '✱', value: name.slice(1), name: `wild ${name.slice(1)}`, piece });
  const c = COLOURS[name[0]];
  const smiley = name.endsWith('s');
  const value = name.slice(1).replace(/s$/, '');
  if (!c) return card({ value: name, name, piece });
  return card({ suit: c[0], symbol: c[1], value, note: smiley ? '☺' : null,
                name: `${c[2]} ${value}${smiley ? ' with a smiley' : ''}`, piece });
}

// The patterns as the score sheet words them (README "Patterns").
const PATTERNS = {
  '2sets4': 'two sets of 4', '2runs4': 'two runs of 4', set4run4: 'a set and a run of 4', run8: 'a run of 8',
  '4pairs': 'four pairs', '3pairs': 'three pairs', run6: 'a run of 6', '2sets3': 'two sets of 3',
  '5pairs': 'five pairs', '2runs5': 'two runs of 5', '2sets5': 'two sets of 5',
};

// "1 (marked off: a run of 8)": how many patterns a player completed and
// which are marked off (each is laid once a match), so a player sees what
// is left to lay.
function patternsDone(p) {
  const marked = (p.marked ?? []).map((m) => PATTERNS[m] ?? m);
  return `${p.completed_patterns ?? 0}${marked.length ? ` (marked off: ${marked.join(', ')})` : ''}`;
}

export function draw(view, ctx) {
  const out = [];
  out.push(h('p', null, `Round ${view.round ?? '?'} of ${view.rounds ?? '?'} · phase: ${view.phase ?? ''} · draw pile ${count(view.draw_pile ?? 0, 'card')} · discard pile ${count(view.discard_pile ?? 0, 'card')}${view.claim_window ? ' · the claim window is open' : ''}`));
  out.push(cardRow('Top of the discard pile', view.discard_top ? [amtCard(view.discard_top)] : [], ctx, 'empty'));
  if (view.hand) out.push(cardRow('Your hand', view.hand.map((c) => amtCard(c, true)), ctx));
  out.push(h('p', { class: 'hint' }, 'Colours: ● blue · ▲ red · ★ yellow · ■ green · ✱ wild · ☺ smiley'));
  // Patterns on the table: "P1.2" is seat 0's second; a wild says what it
  // stands for.
  out.push(sub(ctx, 'Melds on the table'));
  if (!(view.table ?? []).length) out.push(h('p', { class: 'hint' }, 'No pattern laid yet this round.'));
  for (const pattern of view.table ?? []) {
    out.push(h('div', { class: 'panel meld' }, h('p', null, `${pattern.ref ?? ''}: ${pattern.kind ?? ''} of ${seatName(ctx, pattern.owner)}`),
      h('ul', { class: 'cards', 'aria-label': `pattern ${pattern.ref ?? ''}` }, (pattern.cards ?? []).map((c) => {
        const el = amtCard(c);
        if (c.as) {
          const img = el.firstChild;
          img.setAttribute('aria-label', `${img.getAttribute('aria-label')} as ${c.as}`);
          img.append(h('span', { class: 'note', 'aria-hidden': 'true' }, `=${c.as}`));
        }
        return el;
      }))));
  }
  out.push(table('Hands and scores', ['Player', 'Cards in hand', 'Patterns done', 'Round scores', 'Total'],
    (view.players ?? []).map((p) => [seatName(ctx, p.seat), handBacks(p.hand_count ?? 0),
      patternsDone(p), (p.round_scores ?? []).join(', '), String(p.total ?? 0)]), ctx));
  return out;
}

// The hand's cards as moves name them.
export function hand(view) {
  return (view.hand ?? []).map((c) => (typeof c === 'string' ? c : c.card));
}
