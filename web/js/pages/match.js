// match.js: a match's page. Seated and signed in: your own view drawn by
// the game's module and your legal moves as controls. Otherwise the public
// page a spectator sees. Both with the log, kept up to date while the page
// is visible: the match's event stream says at once that something
// happened, and polling stands in while the stream is down.
import { h, fill, announce, when, wide } from '../dom.js';
import { call, ApiError } from '../api.js';
import { gameModule } from '../../games/index.js';
import { movesPanel, newChoice } from '../moves.js';
import { logItem, logText } from '../log.js';
import { keep, restore } from '../keep.js';
import { rememberMatch } from './start.js';
import { chatPanel } from './chat.js';

// A match that moved a moment ago is likely to move again soon: it is
// asked every second then, every five seconds once it has been quiet for a
// minute.
const POLL_BUSY_MS = 1000;
const POLL_QUIET_MS = 5000;
const QUIET_AFTER_MS = 60000;
// While the stream is open it tells of every event; a poll then checks
// that it still flows, and finds out when the server cannot be reached.
const POLL_STREAMED_MS = POLL_QUIET_MS;
// A stream the server refused (at its limit of streams, or stopping) is
// asked for again after this; polling stands in meanwhile.
const STREAM_RETRY_MS = 60000;

function names(match) {
  return match.seats ?? [];
}

function seatLabel(match, seat, mine) {
  const s = match.seats?.find((x) => x.seat === seat);
  return `${s?.name ?? (s?.player ? `seat ${seat}` : `seat ${seat} (free)`)}${seat === mine ? ' (you)' : ''}`;
}

function statusLine(match, mine) {
  const p = match.pending;
  if (match.status === 'open') return `Waiting for players: ${match.seats.filter((s) => s.player).length} of ${match.seat_count} seated.`;
  if (match.status === 'finished') return winnerLine(match, mine);
  if (match.status === 'aborted') return 'The match was aborted.';
  if (!p || p.wait === 'nobody') return '';
  if (p.wait === 'simultaneous') {
    return `Sealed choice (${p.decision}): waiting for ${p.seats.map((s) => seatLabel(match, s, mine)).join(', ') || 'the reveals'}.`;
  }
  const yours = p.seats.includes(mine);
  return `${yours ? 'Your turn. ' : ''}Waiting for ${p.seats.map((s) => seatLabel(match, s, mine)).join(', ')}: ${p.prompt ?? ''}`;
}

// Who won, by name, the final scores and why it ended (rules.h result():
// ranking best first, seats sharing a place share an array).
export function winnerLine(match, mine) {
  const r = match.result ?? {};
  const name = (seat) => (seat === mine ? 'You' : seatLabel(match, seat, null));
  const first = r.ranking?.[0] ?? [];
  let who = 'The match is over.';
  if (first.length === 1) who = `${name(first[0])} won.`;
  else if (first.length > 1) who = `${first.map(name).join(' and ')} share the win.`;
  const scores = (r.scores ?? []).length
    ? `Final scores: ${(match.seats ?? []).map((s) => `${seatLabel(match, s.seat, null)} ${r.scores[s.seat] ?? '—'}`).join(', ')}.` : '';
  // The rules write "seat 1"; people read names.
  const named = (text) => (text ?? '').replace(/\bseat (\d+)\b/g, (all, n) => seatLabel(match, Number(n), null) ?? all);
  return [who, scores, named(r.reason), r.tie_break ? `Tie-break: ${named(r.tie_break)}` : ''].filter(Boolean).join(' ');
}

// "45 min", "3 h": a time bank under an hour is not "0 h".
function duration(seconds) {
  const s = Number(seconds) || 0;
  return s < 3600 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

function seatsTable(match, mine) {
  const clocks = new Map((match.clocks ?? []).map((c) => [c.seat, c]));
  const waiting = new Set(match.pending?.seats ?? []);
  const scores = match.result?.scores;
  return wide(h('table', null, h('caption', null, 'Players'),
    h('thead', null, h('tr', null, ['Seat', 'Player', 'To act', 'Clock', scores ? 'Score' : null].filter(Boolean).map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, match.seats.map((s) => {
      const c = clocks.get(s.seat);
      // An empty time bank is no news (a match without a time bank, or
      // one that is over: "time bank 0 min" read like a lost clock).
      const clock = c?.waiting && match.status === 'active' ? `due ${when(c.waiting.due_at)}`
        : c?.time_bank_seconds > 0 && match.status === 'active' ? `time bank ${duration(c.time_bank_seconds)}` : '—';
      return h('tr', null, h('td', null, String(s.seat)), h('td', null, seatLabel(match, s.seat, mine)),
        h('td', { class: waiting.has(s.seat) ? 'turn-mark' : null }, waiting.has(s.seat) ? 'to act' : match.pending?.committed?.includes(s.seat) ? 'sealed ✓' : ''),
        h('td', null, clock), scores ? h('td', null, String(scores[s.seat] ?? '')) : null);
    }))), 'Players');
}

function sealedPanel(match, mine, sealedText) {
  const p = match.pending;
  const committed = p.committed ?? [];
  return h('div', { class: 'sealed panel', 'aria-labelledby': 'sealed-title' },
    h('h3', { id: 'sealed-title' }, 'This choice is sealed'),
    h('p', null, 'Every player chooses in secret. The server keeps each choice sealed (only a commitment is published) until everyone has chosen; then all are revealed together.'),
    h('p', null, `Committed: ${committed.length ? committed.map((s) => seatLabel(match, s, mine)).join(', ') : 'nobody yet'}.`),
    h('p', null, `Still to choose: ${(p.seats ?? []).length ? p.seats.map((s) => seatLabel(match, s, mine)).join(', ') : 'nobody'}.`),
    committed.includes(mine) ? h('p', { class: 'ok', id: 'sealed-echo' }, sealedText ? `Sealed: ${sealedText}` : 'Your choice is sealed.') : null);
}

// What this browser sealed, by match and decision ("t3-location"): the
// server keeps it sealed from everyone, this page included, until the
// reveal, so the page remembers what it sent.
function sealedKey(id, decision) {
  return `pbem.sealed.${id}.${decision}`;
}

export async function matchPage(main, app, id) {
  const head = h('div');
  const board = h('div');
  const errors = h('p', { class: 'error', role: 'alert', id: 'move-error', hidden: true });
  const since = h('section', { 'aria-labelledby': 'since-title', id: 'since', hidden: true });
  const logList = h('ol', { class: 'log', 'aria-label': 'Log, oldest first', tabindex: 0 });
  main.append(head, errors, since, board,
    h('section', { 'aria-labelledby': 'log-title' }, h('h2', { id: 'log-title' }, 'Log'),
      h('p', { class: 'hint' }, 'Newest at the bottom.'), logList));
  let after = 0;
  let match = null;
  let seatView = null;
  let mine = null;
  let busy = false;
  let lastChange = Date.now();
  let lastSigned = Date.now();
  const events = [];
  // The move being made: kept across live updates (moves.js).
  const choice = newChoice();

  // Loads and polls run one at a time, in order: the timer and a move of
  // one's own may both ask, and an older answer must not be drawn over a
  // newer one, nor a log page appended twice.
  let queue = Promise.resolve();
  const serial = (fn) => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  let drawnKey = null;
  const load = () => serial(loadNow);
  const poll = () => serial(pollNow);

  async function loadNow() {
    match = await call('GET', `/v1/matches/${id}`);
    mine = app.me ? match.seats.find((s) => s.player === app.me.player)?.seat ?? null : null;
    seatView = null;
    if (mine !== null && match.status !== 'open') {
      seatView = await call('GET', `/v1/matches/${id}/view`, { key: app.me });
      lastSigned = Date.now();
      match = seatView;
    }
    // Drawn again only when something changed: a redraw for nothing would
    // take the control a player is on, or the move they are typing.
    const key = `${match.head.seq}/${match.status}/${mine}/${JSON.stringify(match.seats.map((s) => s.name ?? null))}`;
    if (key !== drawnKey) {
      drawnKey = key;
      draw();
      drawLog();
    }
  }

  // Each event as a sentence: told to this seat when the view carries its
  // log ("You drew mask and blue5."), else the public sentence, else the
  // page's own line for it.
  function textOf(e) {
    const told = seatView?.log?.find?.((x) => x.seq === e.seq);
    return logText(e, told, match?.seats);
  }

  function drawLog() {
    // Scrolled to the newest, unless the reader scrolled up to read.
    const atEnd = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 8;
    logList.replaceChildren(...events.map((e) => logItem(e, textOf(e))));
    if (atEnd || !logList.dataset.drawn) logList.scrollTop = logList.scrollHeight;
    logList.dataset.drawn = '1';
    drawSince();
  }

  // "Since your last turn": what the others did after this seat's own
  // last move, on top, as the turn mail has it.
  function drawSince() {
    if (mine === null || !match || match.status === 'open') {
      since.hidden = true;
      return;
    }
    let from = seatView?.since_seq;
    if (from === undefined) {
      const own = events.filter((e) => e.seat === mine && (e.kind === 'move' || e.kind === 'committed'));
      from = own.length ? own[own.length - 1].seq : 0;
    }
    const told = seatView?.log ?? null;
    const lines = told
      ? told.filter((x) => x.seq > from && x.seat !== mine).map((x) => ({ seq: x.seq, text: x.text }))
      : events.filter((e) => e.seq > from && e.seat !== mine && e.seat !== null && e.seat !== undefined)
        .map((e) => ({ seq: e.seq, text: textOf(e) }));
    if (!lines.length || !from) {
      since.hidden = true;
      return;
    }
    since.hidden = false;
    fill(since, h('h2', { id: 'since-title' }, 'Since your last turn'),
      h('ul', null, lines.slice(-20).map((l) => h('li', null, l.text))));
  }

  async function play(body, text) {
    if (busy) return;
    busy = true;
    errors.hidden = true;
    const p = match.pending;
    const sealing = p?.wait === 'simultaneous';
    try {
      await call('POST', `/v1/matches/${id}/moves`, { body: { seq: match.head.seq, ...body }, key: app.me });
      if (sealing) {
        try {
          sessionStorage.setItem(sealedKey(id, p.decision), text);
        } catch (e) {
          /* a browser without storage only loses the echo */
        }
      }
      announce(sealing ? `Sealed: ${text}` : `Played: ${text}`);
      // Emptied in place: a panel drawn meanwhile by a poll holds it too.
      Object.assign(choice, newChoice());
      await poll();
      await load();
    } catch (e) {
      errors.hidden = false;
      errors.textContent = e.message;
      if (e instanceof ApiError && e.code === 'unreachable') errors.dataset.offline = '1';
      announce(`Refused: ${e.message}`);
      if (e instanceof ApiError && e.code === 'stale_seq') await load();
    } finally {
      busy = false;
    }
  }

  async function join() {
    try {
      await call('POST', `/v1/matches/${id}/join`, { body: {}, key: app.me });
      rememberMatch(id);
      announce('You have joined the match.');
      await poll();
      await load();
    } catch (e) {
      errors.hidden = false;
      errors.textContent = e.message;
    }
  }

  function draw() {
    // A redraw must not lose what the player was doing: the focus, the
    // open details, the scroll (keep.js) and the half-made move (choice).
    const kept = keep(main);
    drawNow();
    restore(main, kept);
    if (kept.hadFocus && !main.contains(document.activeElement)) document.getElementById('match-status')?.focus();
  }

  function drawNow() {
    const game = gameModule(match.game);
    const view = seatView;
    const ctx = { seat: mine, seats: names(match), over: match.status === 'finished' };
    // What the page shows, for tests and styles: the head it was drawn at.
    document.getElementById('main').dataset.seq = String(match.head.seq);
    document.getElementById('main').dataset.status = match.status;
    fill(head,
      h('h1', null, `${match.title ?? game?.title ?? match.game}`, h('span', { class: 'match-id' }, ` ${id}`)),
      h('p', { id: 'match-status', tabindex: -1, class: match.status === 'finished' ? 'winner' : null }, statusLine(match, mine)),
      seatsTable(match, mine));
    if (match.status === 'open') {
      head.append(h('p', null, 'Invitation link: ', h('a', { href: `/matches/${id}`, id: 'invite-link' }, `${location.origin}/matches/${id}`)));
      if (app.me && mine === null) head.append(h('button', { id: 'join', onclick: join }, 'Join this match'));
      else if (!app.me) head.append(h('p', null, h('a', { href: `/?next=/matches/${id}#sign-in` }, 'Sign in'), ' to join this match; you come back here after.'));
      else head.append(h('p', null, 'Send the invitation link to the others; the match starts when every seat is taken.'));
    }
    if (match.status === 'finished' || match.status === 'aborted') {
      head.append(h('p', null, h('a', { href: `/matches/${id}/replay`, id: 'replay-link' }, 'Replay the match move by move and check it')));
    }
    fill(board);
    const shown = view ? view.view : match.view;
    let table = null;
    if (shown && game) {
      table = h('section', { 'aria-labelledby': 'board-title', class: `board game-${match.game}` },
        h('h2', { id: 'board-title' }, view ? 'Your view' : 'The table'), game.draw(shown, ctx));
      board.append(table);
    } else if (shown) {
      board.append(h('pre', { class: 'text' }, JSON.stringify(shown, null, 2)));
    }
    const p = match.pending;
    const sealedText = p?.wait === 'simultaneous' && p.committed?.includes(mine) ? sealedEcho(p.decision) : null;
    if (p?.wait === 'simultaneous' && match.status === 'active') board.append(sealedPanel(match, mine, sealedText));
    if (view && match.status === 'active') {
      const mayAct = p?.seats?.includes(mine) && (view.legal?.moves?.length || view.legal?.forms?.length);
      if (mayAct) {
        const sealed = p.wait === 'simultaneous';
        // After the table and held at the bottom of the screen while the
        // table scrolls: what is chosen and the button that plays it stay
        // in sight of the cards being touched (a phone shows few at once).
        const moves = h('section', { 'aria-labelledby': 'moves-title', id: 'moves', class: 'moves-bar' },
          h('h2', { id: 'moves-title' }, sealed ? 'Your sealed choice' : 'Your move'),
          movesPanel(view.legal, play, { sealed, board: table, choice }));
        if (table) table.after(moves);
        else board.prepend(moves);
      } else {
        Object.assign(choice, newChoice());
        board.prepend(h('p', { id: 'no-move' }, 'Nothing for you to do now; this page updates by itself.'));
      }
    }
    if (view?.text) board.append(h('details', { 'data-keep': 'view-text' }, h('summary', null, 'Your view as text'), h('pre', { class: 'text' }, view.text)));
  }

  function sealedEcho(decision) {
    try {
      return sessionStorage.getItem(sealedKey(id, decision));
    } catch (e) {
      return null;
    }
  }

  async function pollNow() {
    const page = await call('GET', `/v1/matches/${id}/events?after=${after}`);
    events.push(...page.events);
    // Kept on the newest entry when it was there: measured before the new
    // entries grow the list, or drawLog would find it scrolled up and leave
    // the reader on old news.
    const atEnd = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 8;
    for (const e of page.events) logList.append(logItem(e, textOf(e)));
    if (atEnd) logList.scrollTop = logList.scrollHeight;
    if (page.events.length) {
      after = page.events[page.events.length - 1].seq;
      lastChange = Date.now();
    }
    return page.events;
  }

  await load();
  await poll();
  drawLog();
  chatPanel(main, app, id, () => ({ match, mine }));
  let timer = null;
  let stopped = false;
  // A page left open for a while: its key may have been revoked from
  // another device. A signed question now and then finds out, and the app
  // signs the browser out with a sentence (app.js onKeyRefused).
  const KEY_CHECK_MS = 5000;
  // One round of polling at a time: a page brought back to the screen
  // while a round is on its way waits for it, instead of starting a
  // second chain of timers that would poll twice as often for good. news:
  // the stream told of an event that no round has read yet.
  let ticking = false;
  let news = false;
  const tick = async () => {
    if (stopped || ticking) return;
    ticking = true;
    if (document.visibilityState === 'visible' && !busy) {
      news = false;
      try {
        const fresh = await poll();
        if (fresh.length) {
          await load();
          drawLog();
          const others = fresh.filter((e) => e.seat !== mine || mine === null);
          if (others.length) announce(others.slice(-3).map((e) => textOf(e)).join(' '));
        } else if (app.me && Date.now() - lastSigned > KEY_CHECK_MS) {
          lastSigned = Date.now();
          await call('GET', '/v1/players/me', { key: app.me });
        }
        // Reached again: an error left by an unreachable server goes.
        if (errors.dataset.offline) {
          errors.hidden = true;
          delete errors.dataset.offline;
        }
      } catch (e) {
        /* the next tick tries again; api.js shows the offline mark */
      }
    }
    ticking = false;
    listen();
    const quiet = Date.now() - lastChange > QUIET_AFTER_MS;
    // News that came during this round (or while a move of one's own was
    // on its way) is read next, at once.
    let wait = quiet ? POLL_QUIET_MS : POLL_BUSY_MS;
    if (live && live.readyState === EventSource.OPEN) wait = POLL_STREAMED_MS;
    if (news) wait = busy ? 250 : 0;
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, wait);
  };

  // The match's public stream (GET /v1/matches/{id}/stream): each event
  // appended, on any server, wakes a round of polling at once. Open only
  // while the page is seen and the match can still change: a browser
  // holds six connections to a server, and a tab in the background should
  // not keep one of them. The browser reconnects a dropped stream itself;
  // one the server refused is asked for again after STREAM_RETRY_MS.
  let live = null;
  let refusedUntil = 0;
  function listen() {
    const over = match && (match.status === 'finished' || match.status === 'aborted');
    if (over || stopped || document.visibilityState !== 'visible') {
      live?.close();
      live = null;
      return;
    }
    if (live || typeof EventSource !== 'function' || Date.now() < refusedUntil) return;
    const stream = new EventSource(`/v1/matches/${id}/stream?after=${after}`);
    stream.onmessage = (e) => {
      // What the page was told last, for tests: the event's seq.
      document.getElementById('main').dataset.streamed = e.lastEventId;
      news = true;
      if (!ticking) {
        clearTimeout(timer);
        tick();
      }
    };
    // Dropped (the browser tries again by itself) or refused: a round at
    // once says whether the server can be reached, and the polls go back
    // to their pace without a stream.
    stream.onerror = () => {
      if (live !== stream) return;
      if (stream.readyState === EventSource.CLOSED) {
        live = null;
        refusedUntil = Date.now() + STREAM_RETRY_MS;
      }
      if (!ticking) {
        clearTimeout(timer);
        tick();
      }
    };
    live = stream;
  }

  listen();
  timer = setTimeout(tick, POLL_BUSY_MS);
  const shown = () => {
    if (document.visibilityState !== 'visible') {
      listen();
      return;
    }
    if (stopped || ticking) return;
    clearTimeout(timer);
    tick();
  };
  document.addEventListener('visibilitychange', shown);
  app.onLeave(() => {
    document.removeEventListener('visibilitychange', shown);
    stopped = true;
    clearTimeout(timer);
    live?.close();
    live = null;
  });
}
