// common.js: what the games' drawings share: cards (a suit's colour always
// with its symbol and its name, so colour is never the only sign), card
// backs, dice faces, small tables.
import { h, wide } from '../js/dom.js';

// A card: {suit: css suit key, symbol, value, name (spoken), note}.
export function card({ suit = 'grey', symbol = '◆', value = '', name, note }) {
  return h('li', null, h('span', { class: `card suit-${suit}`, role: 'img', 'aria-label': name ?? `${value}` },
    h('span', { class: 'sym', 'aria-hidden': 'true' }, symbol),
    h('span', { class: 'val', 'aria-hidden': 'true' }, value),
    note ? h('span', { class: 'note', 'aria-hidden': 'true' }, note) : null));
}

export function cardRow(label, cards) {
  return h('div', null, h('h4', null, label),
    cards.length ? h('ul', { class: 'cards', 'aria-label': label }, cards) : h('p', { class: 'hint' }, 'none'));
}

export function backs(count, what = 'hidden card') {
  return h('li', null, h('span', { class: 'card back', role: 'img', 'aria-label': `${count} ${what}${count === 1 ? '' : 's'}` },
    h('span', { class: 'val', 'aria-hidden': 'true' }, `×${count}`)));
}

// A die showing face (a label such as "2 quiddity").
export function die(face, name, note) {
  return h('li', null, h('span', { class: 'die', role: 'img', 'aria-label': `${name}: ${face}${note ? `, ${note}` : ''}` },
    h('span', { class: 'face', 'aria-hidden': 'true' }, face),
    h('span', { 'aria-hidden': 'true' }, name),
    note ? h('span', { class: 'hint', 'aria-hidden': 'true' }, note) : null));
}

export function seatName(ctx, seat) {
  const s = ctx.seats?.find((x) => x.seat === seat);
  const name = s?.name ?? `seat ${seat}`;
  // A replay draws each seat's view for everyone: nobody there is "you".
  return seat === ctx.seat && !ctx.replay ? `${name} (you)` : name;
}

export function table(caption, head, rows) {
  return wide(h('table', null, h('caption', null, caption),
    h('thead', null, h('tr', null, head.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows.map((r) => h('tr', null, r.map((c) => h('td', null, c)))))), caption);
}
