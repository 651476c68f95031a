// replay.js: a finished match, move by move with every hand shown (GET
// …/replay?seq=N: one panel per seat with that seat's view right after
// event N), stepped with the buttons, the slider or the keyboard (← →,
// Home, End), and a "verified" mark computed here from the public log: the
// hash chain, every commitment and the seed (verify.js). Below it, the
// table's public talk, as spectators read it once the match is over.
import { h, fill, announce } from '../dom.js';
import { call } from '../api.js';
import { gameModule } from '../../games/index.js';
import { allEvents, checkChain, checkSeals } from '../verify.js';
import { eventLine } from '../log.js';
import { chatPanel } from './chat.js';

function seatPanel(game, seats, v) {
  const name = v.name ?? `seat ${v.seat}`;
  const id = `seat-view-${v.seat}`;
  let body;
  if (v.view === null) body = h('p', { class: 'hint' }, 'Nothing dealt yet: the match has not started at this point.');
  else if (game) body = game.draw(v.view, { seat: v.seat, seats, replay: true });
  else body = h('pre', { class: 'text' }, v.text ?? JSON.stringify(v.view, null, 2));
  return h('section', { class: 'panel seat-view', 'data-seat': v.seat, 'aria-labelledby': id },
    h('h3', { id }, `${name}'s view (seat ${v.seat})`), body,
    v.text && game ? h('details', null, h('summary', null, `${name}'s view as text`), h('pre', { class: 'text' }, v.text)) : null);
}

export async function replayPage(main, app, id) {
  const match = await call('GET', `/v1/matches/${id}`);
  const game = gameModule(match.game);
  const seats = match.seats ?? [];
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
    const commitments = `${seals.checked} commitment${seals.checked === 1 ? '' : 's'}`;
    mark.textContent = `Verified: the hash chain of all ${chain.checked} events holds, and ${commitments} ${seals.checked === 1 ? 'matches' : 'match'} what was revealed${over ? '' : ' (the seed is revealed at the end)'}.`;
  }
  mark.dataset.state = chain.ok && seals.ok ? 'verified' : 'failed';

  const head = match.head.seq;
  const stepper = h('section', { 'aria-labelledby': 'steps-title', id: 'stepper' }, h('h2', { id: 'steps-title' }, 'Move by move'),
    h('p', { class: 'hint', id: 'step-keys' }, 'Every hand is shown. Step with the buttons, the slider, or the keys ← and → (Home: the first event, End: the last).'));
  main.append(stepper);
  if (match.status !== 'finished') {
    stepper.append(h('p', null, 'Every hand is shown once the match is over.'));
    announce(mark.textContent);
    return;
  }
  let seq = head;
  let asked = 0; // the latest step asked for: an older answer arriving late is dropped
  const where = h('p', { id: 'step-at', 'aria-live': 'polite' });
  const stage = h('div', { id: 'replay-views', class: 'replay-views' });
  const range = h('input', { type: 'range', min: 1, max: head, value: head, id: 'step-range', 'aria-label': 'Event number', 'aria-describedby': 'step-keys' });
  const go = async (n) => {
    seq = Math.max(1, Math.min(head, n));
    const mine = ++asked;
    range.value = seq;
    const e = events[seq - 1];
    where.textContent = `Event ${seq} of ${head}: ${e ? eventLine(e, seats) : ''}`;
    stage.setAttribute('aria-busy', 'true');
    try {
      // Signed when signed in: a replay is a heavy request, and a key's
      // budget is larger than an address's.
      const r = await call('GET', `/v1/matches/${id}/replay?seq=${seq}`, { key: app.me ?? undefined });
      if (mine !== asked) return;
      fill(stage, (r.views ?? []).map((v) => seatPanel(game, seats, v)));
      stage.dataset.seq = String(r.seq);
    } catch (err) {
      if (mine !== asked) return;
      fill(stage, h('p', { class: 'error' }, `Every hand cannot be shown here: ${err.message}`));
      delete stage.dataset.seq;
    }
    stage.removeAttribute('aria-busy');
  };
  range.addEventListener('input', () => go(Number(range.value)));
  // The keys step wherever the focus is on this page, except in a control
  // that has its own use for them (the slider moves itself, then says so).
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.('input, select, textarea')) return;
    const to = { ArrowLeft: seq - 1, ArrowRight: seq + 1, Home: 1, End: head }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);
  app.onLeave(() => document.removeEventListener('keydown', onKey));
  stepper.append(h('div', { class: 'row' },
    h('button', { class: 'secondary', id: 'step-first', onclick: () => go(1) }, '« First'),
    h('button', { class: 'secondary', id: 'step-back', onclick: () => go(seq - 1) }, '◀ Back'),
    range,
    h('button', { class: 'secondary', id: 'step-next', onclick: () => go(seq + 1) }, 'Next ▶'),
    h('button', { class: 'secondary', id: 'step-last', onclick: () => go(head) }, 'Last »')), where, stage);
  await go(head);
  // The public talk, read unsigned: the replay is the public record, so a
  // private message is not shown here, even to one who wrote or read it.
  chatPanel(main, app, id, () => ({ match, mine: null }));
  announce(mark.textContent);
}
