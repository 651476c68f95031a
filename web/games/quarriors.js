// quarriors.js: each player's pools of dice (rolled and ready, summoned,
// on a quest, spent, used), the Wilds to capture from, the quest area and
// glory. Dice and Wild cards a legal move names can be touched.
import { h } from '../js/dom.js';
import { card, count, die, place, seatName, sub } from './common.js';

export const title = 'Quarriors';
export const summary = 'Draw dice from your bag and roll them: spend quiddity to capture new dice from the wild cards, summon creatures, attack, and score glory; the first to the goal wins.';

// The zones a die is in, as the pools a player sees them, in play order.
const POOLS = [
  ['active', 'Rolled'], ['ready', 'Ready (summoned)'], ['quest', 'On a quest'], ['spent', 'Spent'], ['used', 'Used pile'],
];

function pools(p, ctx, seat) {
  const dice = p.dice ?? [];
  const known = new Set(POOLS.map(([z]) => z));
  const rows = [...POOLS, ...[...new Set(dice.map((d) => d.zone))].filter((z) => !known.has(z)).map((z) => [z, z])];
  return rows.map(([zone, label]) => {
    const here = dice.filter((d) => d.zone === zone);
    if (!here.length) return null;
    return h('div', { class: 'pool' }, h('p', { class: 'hint' }, `${label}: ${count(here.length, 'die', 'dice')}`),
      h('ul', { class: 'cards', 'aria-label': `${label} dice of ${seatName(ctx, seat)}` }, here.map((d) => {
        const f = d.face ?? {};
        return die(f.name ?? (zone === 'used' ? '–' : '?'), String(d.card ?? '').replaceAll('_', ' '), `die ${d.id}`, `die:${d.id}`);
      })));
  });
}

export function draw(view, ctx) {
  const out = [];
  // quiddity_available is what the turn may still pay (the pool left over
  // plus the quiddity dice rolled), quiddity only the pool left over.
  out.push(h('p', null, `Turn ${view.turn_number ?? '?'} of ${seatName(ctx, view.turn)} · phase: ${view.phase ?? ''} · goal ${view.goal ?? '?'} glory · ${view.quiddity_available ?? 0} quiddity to spend this turn`));
  out.push(h('div', { class: 'scores row', role: 'list', 'aria-label': 'Glory' }, (view.players ?? []).map((p, seat) =>
    // The goal is said in the line above: "23 of 20 glory" at the end read wrong.
    h('span', { class: 'tag', role: 'listitem' }, `${seatName(ctx, seat)}: ${p.glory ?? 0} glory`))));
  (view.players ?? []).forEach((p, seat) => {
    out.push(h('div', { class: 'panel' }, sub(ctx, `${seatName(ctx, seat)}: ${p.glory ?? 0} glory, ${count(p.bag ?? 0, 'die', 'dice')} in the bag`),
      pools(p, ctx, seat)));
  });
  out.push(sub(ctx, 'The Wilds'));
  out.push(h('ul', { class: 'cards wilds', 'aria-label': 'The Wilds' }, (view.wilds ?? []).map((w) => {
    // Non-breaking inside each part: a narrow card breaks between them.
    // The name says the same words (a touched card's name starts with
    // what it shows, moves.js).
    const note = [`cost ${w.cost}`, `${w.glory} glory`, `${w.dice} left`].map((x) => x.replace(' ', '\u00a0')).join(' · ');
    return card({ suit: w.dice ? 'teal' : 'grey', symbol: '⬡', value: `${w.name ?? w.card}`, piece: `card:${w.card}`,
                  note, name: `${w.name ?? w.card} ${note}` });
  })));
  out.push(sub(ctx, 'The quest area'));
  if ((view.quest_area ?? []).length) {
    out.push(h('div', { class: 'places' }, view.quest_area.map((q) => h('div', { class: 'panel' },
      place(`quest:${q.quest}`, `quest ${q.name}`, q.name ?? q.quest),
      h('p', null, `Level ${q.level}, ${q.glory} glory · ${q.questing === null || q.questing === undefined ? 'nobody on it' : `on it: ${[].concat(q.questing).map((s) => (typeof s === 'number' ? seatName(ctx, s) : JSON.stringify(s))).join(', ')}`}`)))));
  } else out.push(h('p', { class: 'hint' }, 'No quest in this match.'));
  return out;
}
