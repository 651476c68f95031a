// common.js: what the games' drawings share: cards (a suit's colour always
// with its symbol and its name, so colour is never the only sign), card
// backs, dice faces, small tables.
import { h, wide } from '../js/dom.js';

// A card: {suit: css suit key, symbol, value, name (spoken), note,
// piece}. piece is the key moves name it by (pieces.js, "card:blue2"):
// a card a legal move names becomes a button to touch (moves.js).
export function card({ suit = 'grey', symbol = '◆', value = '', name, note, piece }) {
  return h('li', null, h('span', { class: `card suit-${suit}`, role: 'img', 'aria-label': name ?? `${value}`, 'data-piece': piece },
    h('span', { class: 'sym', 'aria-hidden': 'true' }, symbol), ' ',
    h('span', { class: 'val', 'aria-hidden': 'true' }, value),
    note ? [' ', h('span', { class: 'note', 'aria-hidden': 'true' }, note)] : null));
}

// A heading inside the board: h3 under the page's "Your view" h2, h4
// under a replay's seat panel (an h3), so heading levels never skip.
export function sub(ctx, text, attrs) {
  return h(ctx?.replay ? 'h4' : 'h3', attrs ?? null, text);
}

// "1 card", "2 cards".
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function cardRow(label, cards, ctx, empty = 'none') {
  return h('div', null, sub(ctx, label),
    cards.length ? h('ul', { class: 'cards', 'aria-label': label }, cards) : h('p', { class: 'hint' }, empty));
}

// A place on the table a move can name (a castle, a collection, a
// quest): its name in a frame, a button once a legal move names it;
// label is what it is called then.
export function place(key, label, text) {
  return h('span', { class: 'place', 'data-piece': key, 'data-label': label }, text);
}

export function backs(count, what = 'hidden card') {
  return h('li', null, h('span', { class: 'card back', role: 'img', 'aria-label': `${count} ${what}${count === 1 ? '' : 's'}` },
    h('span', { class: 'val', 'aria-hidden': 'true' }, `×${count}`)));
}

// A hand seen from across the table: its backs and how many, or "no
// cards" when it is empty (a back marked ×0 reads as a card).
export function handBacks(count) {
  return count > 0 ? h('ul', { class: 'cards' }, backs(count)) : h('span', { class: 'hint' }, 'no cards');
}

// A die showing face (a label such as "2 quiddity").
export function die(face, name, note, piece) {
  // Named in the order it reads, so a touched die says what it shows.
  return h('li', null, h('span', { class: 'die', role: 'img', 'aria-label': `${face} ${name}${note ? ` ${note}` : ''}`, 'data-piece': piece },
    h('span', { class: 'face', 'aria-hidden': 'true' }, face), ' ',
    h('span', { 'aria-hidden': 'true' }, name),
    note ? [' ', h('span', { class: 'hint', 'aria-hidden': 'true' }, note)] : null));
}

export function seatName(ctx, seat) {
  const s = ctx.seats?.find((x) => x.seat === seat);
  const name = s?.name ?? `seat ${seat}`;
  // A replay draws each seat's view for everyone: nobody there is "you".
  return seat === ctx.seat && !ctx.replay ? `${name} (you)` : name;
}

// A table; its scrolling box is named by caption, and in a replay (every
// seat's view side by side) by the seat too, so no two share a name. At
// phone width each row stands as a block of "column: value" lines (the
// style sheet's table.stack, reading each cell's data-label), so a table
// of six columns needs no sideways scrolling.
export function table(caption, head, rows, ctx) {
  const label = ctx?.replay ? `${caption}, ${seatName(ctx, ctx.seat)}'s view` : caption;
  return wide(h('table', { class: 'stack' }, h('caption', null, caption),
    h('thead', null, h('tr', null, head.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows.map((r) => h('tr', null, r.map((c, i) => h('td', { 'data-label': head[i] }, c)))))), label);
}
