// artifact_stack.js: the temple (a pyramid of cards: face up, face down,
// covered), the stacks, each player's dug cards and score.
import { h } from '../js/dom.js';
import { card, cardRow, seatName, table } from './common.js';

export const title = 'Artifact Stack';
export const summary = 'Dig artifacts out of crumbling temples of stacked cards: take or dig out an uncovered card, peek at a face-down one, hire assistants, earn silver; the most victory points wins.';

// Every stack's colour and symbol; the symbol and the name say it too.
const STACKS = {
  statues: ['brown', '♜'], coins: ['orange', '●'], weapons: ['red', '⚔'], manuscripts: ['blue', '✎'],
  jewelry: ['yellow', '◆'], relics: ['purple', '✝'], curses: ['black', '☠'], china: ['teal', '❀'],
  monsters: ['green', '☾'], treasures: ['grey', '✦'],
};

export function asCard(known, at) {
  if (!known) return card({ suit: 'grey', symbol: '?', value: at ?? '', name: `face-down card${at ? ` at ${at}` : ''}` });
  const s = STACKS[known.stack] ?? ['grey', '◆'];
  const extra = [known.star ? 'star' : null, known.vp !== undefined ? `${known.vp} point${known.vp === 1 ? '' : 's'}` : null,
                 known.letter ? `letter ${known.letter}` : null].filter(Boolean).join(', ');
  return card({ suit: s[0], symbol: s[1], value: known.card.replace(/^[a-z]+/, ''),
                note: known.star ? '★' : known.letter ?? null,
                name: `${known.stack} ${known.card.replace(/^[a-z]+/, '')}${extra ? ` (${extra})` : ''}${at ? ` at ${at}` : ''}` });
}

export function draw(view, ctx) {
  const out = [];
  out.push(h('p', null, `Round ${view.round ?? '?'} · ${view.direction ?? ''} · turn of ${seatName(ctx, view.turn)} · ${view.actions ?? 0} action(s) left${view.over ? ' · over' : ''}`));
  const temple = view.temple ?? [];
  const layers = new Map();
  for (const c of temple) {
    const layer = String(c.at).split('.')[0];
    if (!layers.has(layer)) layers.set(layer, []);
    layers.get(layer).push(c);
  }
  out.push(h('h4', null, 'The temple'));
  out.push(h('p', { class: 'hint' }, 'Stacks: ', (view.stacks ?? []).map((name) => `${STACKS[name]?.[1] ?? '◆'} ${name}`).join(' · '),
    ' · ? face down · ★ star'));
  for (const [layer, cards] of layers) {
    out.push(h('div', null, h('p', { class: 'hint' }, `Layer ${layer}`),
      h('ul', { class: 'cards', 'aria-label': `temple layer ${layer}` }, cards.map((c) => {
        const el = asCard(c.face === 'up' ? c.known : c.known ?? null, c.at);
        const img = el.firstChild;
        if (c.covered_by) img.setAttribute('aria-label', `${img.getAttribute('aria-label')}, covered by ${c.covered_by}`);
        return el;
      }))));
  }
  (view.players ?? []).forEach((p, seat) => {
    const dug = (p.cards ?? []).map((c) => asCard(typeof c === 'string' ? { card: c, stack: c.replace(/\d.*$/, '') } : c.known ?? c));
    out.push(h('div', { class: 'panel' },
      h('h4', null, `${seatName(ctx, seat)}: ${p.score ?? 0} points, ${p.silver ?? 0} silver, ${p.stars ?? 0} stars`),
      dug.length ? h('ul', { class: 'cards', 'aria-label': `cards of ${seatName(ctx, seat)}` }, dug) : h('p', { class: 'hint' }, 'no card yet'),
      (p.assistants ?? []).length ? h('p', null, `Assistants: ${p.assistants.map((a) => a.name ?? a).join(', ')}`) : null));
  });
  out.push(h('p', null, `Stock ${view.stock ?? '?'} cards · bank ${view.bank ?? '?'} silver`));
  if (view.assistants?.length) {
    out.push(table('Assistants for hire', ['Assistant', 'Ability'], view.assistants.map((a) => [a.name, a.ability])));
  }
  if (view.scores) out.push(h('p', null, `Scores: ${JSON.stringify(view.scores)}`));
  return out;
}
