// quarriors.js: dice with their faces (active, ready, summoned), the wild
// cards to capture, the quests, glory.
import { h } from '../js/dom.js';
import { die, seatName, table } from './common.js';

export const title = 'Quarriors';
export const summary = 'Draw dice from your bag and roll them: spend quiddity to capture new dice from the wild cards, summon creatures, attack, and score glory; the first to the goal wins.';

export function draw(view, ctx) {
  const out = [];
  out.push(h('p', null, `Turn ${view.turn_number ?? '?'} of ${seatName(ctx, view.turn)} · phase: ${view.phase ?? ''} · goal ${view.goal ?? '?'} glory · quiddity ${view.quiddity ?? 0} spent of ${view.quiddity_available ?? 0}`));
  (view.players ?? []).forEach((p, seat) => {
    const dice = (p.dice ?? []).map((d) => {
      const f = d.face ?? {};
      return die(f.name ?? '?', String(d.card ?? '').replaceAll('_', ' '), `die ${d.id}, ${d.zone}`);
    });
    out.push(h('div', { class: 'panel' }, h('h4', null, `${seatName(ctx, seat)}: ${p.glory ?? 0} glory, ${p.bag ?? 0} dice in the bag`),
      dice.length ? h('ul', { class: 'cards', 'aria-label': `dice of ${seatName(ctx, seat)}` }, dice) : null));
  });
  out.push(table('Wild cards', ['Card', 'Cost', 'Glory', 'Dice left'],
    (view.wilds ?? []).map((w) => [w.name ?? w.card, String(w.cost), String(w.glory), String(w.dice)])));
  if (view.quest_area?.length) {
    out.push(table('Quests', ['Quest', 'Level', 'Glory', 'Questing'],
      view.quest_area.map((q) => [q.name, String(q.level), String(q.glory), q.questing === null ? 'nobody' : JSON.stringify(q.questing)])));
  }
  return out;
}
