// replay.js: a finished match, move by move with every hand shown (GET
// …/replay?seq=N), and a "verified" mark computed here from the public
// log: the hash chain, every commitment and the seed (verify.js).
import { h, fill, announce } from '../dom.js';
import { call } from '../api.js';
import { gameModule } from '../../games/index.js';
import { allEvents, checkChain, checkSeals } from '../verify.js';
import { eventLine } from '../log.js';

export async function replayPage(main, app, id) {
  const match = await call('GET', `/v1/matches/${id}`);
  const game = gameModule(match.game);
  main.append(h('h1', null, `Replay · ${match.title ?? game?.title ?? match.game} · ${id}`),
    h('p', null, h('a', { href: `/matches/${id}` }, 'Back to the match')));
  const mark = h('p', { id: 'verified', class: 'verified', role: 'status' }, 'Checking the match in this browser…');
  main.append(h('section', { 'aria-labelledby': 'check-title' }, h('h2', { id: 'check-title' }, 'Checked in your browser'), mark,
    h('p', { class: 'hint' }, 'The hash chain of every event, each sealed choice against its commitment, and the revealed seed against the commitment published at the start, computed here, not taken from the server.')));
  const events = await allEvents(call, id);
  const chain = checkChain(events);
  const seals = chain.ok ? checkSeals(events) : null;
  const over = events.some((e) => e.kind === 'finished' || e.kind === 'aborted');
  if (!chain.ok) {
    mark.className = 'verified error';
    mark.textContent = `Not verified: ${chain.problem}`;
  } else if (!seals.ok) {
    mark.className = 'verified error';
    mark.textContent = `Not verified: ${seals.problem}`;
  } else {
    mark.className = 'verified ok';
    mark.textContent = `Verified: ${chain.checked} events chain, ${seals.checked} commitment${seals.checked === 1 ? '' : 's'} open${over ? '' : ' (the seed is revealed at the end)'}.`;
  }
  mark.dataset.state = chain.ok && seals.ok ? 'verified' : 'failed';

  const stepper = h('section', { 'aria-labelledby': 'steps-title' }, h('h2', { id: 'steps-title' }, 'Move by move'));
  main.append(stepper);
  const head = match.head.seq;
  let seq = head;
  const where = h('p', { id: 'step-at', 'aria-live': 'polite' });
  const stage = h('div');
  const range = h('input', { type: 'range', min: 1, max: head, value: head, id: 'step-range', 'aria-label': 'Event number' });
  const go = async (n) => {
    seq = Math.max(1, Math.min(head, n));
    range.value = seq;
    const e = events[seq - 1];
    where.textContent = `Event ${seq} of ${head}: ${e ? eventLine(e, match.seats) : ''}`;
    try {
      const r = await call('GET', `/v1/matches/${id}/replay?seq=${seq}`);
      const table = r.public && typeof r.public === 'object' && game
        ? h('div', { class: 'panel' }, h('h3', null, 'The table'), game.draw(r.public.view ?? r.public, { seat: null, seats: match.seats }))
        : null;
      fill(stage, table, (r.views ?? []).map((v) => h('div', { class: 'panel' },
        h('h3', null, `${v.name ?? `seat ${v.seat}`}'s view`),
        game && v.view ? game.draw(v.view, { seat: v.seat, seats: match.seats }) : h('pre', { class: 'text' }, v.text ?? ''))));
    } catch (err) {
      fill(stage, h('p', null, match.status === 'finished' ? `Every hand cannot be shown here: ${err.message}` : 'Every hand is shown once the match is over.'));
    }
  };
  range.addEventListener('change', () => go(Number(range.value)));
  stepper.append(h('div', { class: 'row' },
    h('button', { class: 'secondary', id: 'step-first', onclick: () => go(1) }, '⏮ First'),
    h('button', { class: 'secondary', id: 'step-back', onclick: () => go(seq - 1) }, '◀ Back'),
    range,
    h('button', { class: 'secondary', id: 'step-next', onclick: () => go(seq + 1) }, 'Next ▶'),
    h('button', { class: 'secondary', id: 'step-last', onclick: () => go(head) }, 'Last ⏭')), where, stage);
  await go(head);
  announce(mark.textContent);
}
