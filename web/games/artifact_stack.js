// artifact_stack.js: the temple (a pyramid of cards: face up, face down,
// covered), the stacks, each player's dug cards and score.
import { h } from '../js/dom.js';
import { card, count, place, seatName, sub, table } from './common.js';

export const title = 'Artifact Stack';
export const summary = 'Dig artifacts out of crumbling temples of stacked cards: take or dig out an uncovered card, peek at a face-down one, hire assistants, earn silver; the most victory points wins.';

// Every stack's colour and symbol; the symbol and the name say it too.
const STACKS = {
  statues: ['brown', '♜'], coins: ['orange', '●'], weapons: ['red', '⚔'], manuscripts: ['blue', '✎'],
  jewelry: ['yellow', '◆'], relics: ['purple', '✝'], curses: ['black', '☠'], china: ['teal', '❀'],
  monsters: ['green', '☾'], treasures: ['grey', '✦'],
};

// A card; piece is the key moves name it by ("slot:0.1.0" in the
// temple, "card:china6" once dug), or none.
export function asCard(known, at, piece) {
  if (!known) return card({ suit: 'grey', symbol: '?', value: at ?? '', name: `face-down card${at ? ` at ${at}` : ''}`, piece });
  const s = STACKS[known.stack] ?? ['grey', '◆'];
  const extra = [known.star ? 'star' : null, known.vp !== undefined ? `${known.vp} point${known.vp === 1 ? '' : 's'}` : null,
                 known.letter ? `letter ${known.letter}` : null].filter(Boolean).join(', ');
  return card({ suit: s[0], symbol: s[1], value: known.card.replace(/^[a-z]+/, ''),
                note: known.star ? '★' : known.letter ?? null,
                name: `${known.stack} ${known.card.replace(/^[a-z]+/, '')}${extra ? ` (${extra})` : ''}${at ? ` at ${at}` : ''}`, piece });
}

export function draw(view, ctx) {
  const out = [];
  // Whose turn and its actions left mean nothing once the match is over.
  out.push(h('p', null, view.over || ctx.over
    ? `Round ${view.round ?? '?'} · the match is over`
    : `Round ${view.round ?? '?'} · ${view.direction ?? ''} · turn of ${seatName(ctx, view.turn)} · ${count(view.actions ?? 0, 'action')} left`));
  out.push(h('div', { class: 'scores row', role: 'list', 'aria-label': 'Scores' }, (view.players ?? []).map((p, seat) =>
    h('span', { class: 'tag', role: 'listitem' }, `${seatName(ctx, seat)}: ${count(p.score ?? 0, 'point')}`))));
  const temple = view.temple ?? [];
  const layers = new Map();
  for (const c of temple) {
    const [layer, col, row] = String(c.at).split('.').map(Number);
    if (!layers.has(layer)) layers.set(layer, []);
    layers.get(layer).push({ ...c, col, row });
  }
  out.push(sub(ctx, 'The temple'));
  out.push(h('p', { class: 'hint' }, 'Stacks: ', (view.stacks ?? []).map((name) => `${STACKS[name]?.[1] ?? '◆'} ${name}`).join(' · '),
    ' · ? face down · ★ star. Places are layer.column.row; higher layers lie on the lower ones.'));
  // Highest layer first: it is what lies on top and can be taken first.
  for (const [layer, cards] of [...layers].sort((a, b) => b[0] - a[0])) {
    const grid = h('ul', { class: 'cards temple-layer', 'aria-label': `temple layer ${layer}` }, cards.map((c) => {
      const el = asCard(c.face === 'up' ? c.known : c.known ?? null, c.at, `slot:${c.at}`);
      const img = el.firstChild;
      if (c.covered_by) img.setAttribute('aria-label', `${img.getAttribute('aria-label')}, covered by ${count(c.covered_by, 'card')}`);
      if (c.covered_by) img.classList.add('covered');
      el.style.gridColumn = String(c.col * 2 + layer + 1) + ' / span 2';
      el.style.gridRow = String(c.row + 1);
      return el;
    }));
    out.push(h('div', { class: 'layer' }, h('p', { class: 'hint' }, `Layer ${layer}${layer === 0 ? ' (the base)' : ''}`), grid));
  }
  (view.players ?? []).forEach((p, seat) => {
    const dug = (p.cards ?? []).map((c) => {
      const k = typeof c === 'string' ? { card: c, stack: c.replace(/\d.*$/, '') } : c.known ?? c;
      return asCard(k, null, `card:${k.card}`);
    });
    out.push(h('div', { class: 'panel' },
      sub(ctx, `${seatName(ctx, seat)}: ${count(p.score ?? 0, 'point')}, ${p.silver ?? 0} silver, ${count(p.stars ?? 0, 'star')}`),
      dug.length ? h('ul', { class: 'cards', 'aria-label': `cards of ${seatName(ctx, seat)}` }, dug) : h('p', { class: 'hint' }, 'no card yet'),
      (p.assistants ?? []).length ? h('p', null, `Assistants: ${p.assistants.map((a) => a.name ?? a).join(', ')}`) : null));
  });
  out.push(h('p', null, `Stock ${count(view.stock ?? 0, 'card')} · bank ${view.bank ?? '?'} silver`));
  if (view.assistants?.length) {
    out.push(table('Assistants for hire', ['Assistant', 'Ability'], view.assistants.map((a) => [place(`assistant:${a.name}`, a.name, a.name), a.ability]), ctx));
  }
  return out;
}
