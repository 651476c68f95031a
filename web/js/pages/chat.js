// chat.js: the talk at a match's table, on the match page. A seated
// player reads the messages to everyone and those to or from them alone,
// and writes to everyone or to one seat; anyone reads the public talk of
// a finished match. The panel is built once and only its list grows, so a
// live update never loses what is being typed, and every message is text
// (dom.js), never markup. Once the match is over the table takes no more
// messages: the form goes, at once, and a sentence says the talk is kept
// to read.
import { h, fill, field, announce, when } from '../dom.js';
import { call, ApiError } from '../api.js';

const POLL_MS = 3000;

// Appends the chat panel to main for match id once the page's reader may
// read the talk: seated (a player who joins on this page gets it then),
// or anyone once the match is over. state() gives the page's current
// {match, mine}; app is the page's app (app.me signs). Stops when the
// page is left.
export function chatPanel(main, app, id, state) {
  let stopped = false;
  let timer = null;
  let panel = null;
  app.onLeave(() => {
    stopped = true;
    clearTimeout(timer);
    panel?.stop();
  });
  const wait = () => {
    if (stopped) return;
    const { match, mine } = state();
    const seated = mine !== null && mine !== undefined && !!app.me;
    const over = match.status === 'finished' || match.status === 'aborted';
    if (seated || over) panel = build(main, app, id, state);
    else timer = setTimeout(wait, POLL_MS);
  };
  wait();
}

function build(main, app, id, state) {
  const { match, mine } = state();
  const seated = mine !== null && mine !== undefined && !!app.me;
  let over = match.status === 'finished' || match.status === 'aborted';
  const list = h('ol', { class: 'log chat', id: 'chat-list', 'aria-label': 'Messages, oldest first', tabindex: 0 });
  const empty = h('p', { class: 'hint', id: 'chat-empty' }, over ? 'Nothing was said at this table.' : 'Nothing has been said at this table yet.');
  const closed = h('p', { class: 'hint', id: 'chat-closed', hidden: !over }, 'The match is over; the table\'s talk is kept here to read.');
  const error = h('p', { class: 'error', role: 'alert', id: 'chat-error', hidden: true });
  const muted = h('p', { class: 'hint', id: 'chat-muted', hidden: true });
  const panel = h('section', { 'aria-labelledby': 'chat-title', id: 'chat' },
    h('h2', { id: 'chat-title' }, 'Table talk'), closed, empty, list, muted, error);
  main.append(panel);
  let after = 0;
  let stopped = false;
  let timer = null;
  let form = null;
  let fillTo = () => {};
  let watch = null;

  // The table closes: the form goes, since the table takes no more
  // messages, and a sentence says so; a message being typed stays to read
  // (and copy) under it.
  function close() {
    const unsent = form?.querySelector('textarea')?.value.trim();
    if (form && form.contains(document.activeElement)) list.focus();
    over = true;
    form?.remove();
    form = null;
    watch?.disconnect();
    closed.hidden = false;
    if (unsent) closed.append(h('br'), `What you were writing was not sent: ${unsent}`);
    if (!list.children.length) empty.textContent = 'Nothing was said at this table.';
  }

  const name = (seat, fallback) => {
    if (seat === mine) return 'You';
    return state().match.seats?.find((s) => s.seat === seat)?.name ?? fallback ?? `seat ${seat}`;
  };

  function item(m) {
    const to = m.to === null || m.to === undefined ? null : name(m.to, m.to_name);
    const mutable = seated && m.from !== mine;
    return h('li', { 'data-message': String(m.id), 'data-from': String(m.from), class: to ? 'private' : null },
      h('strong', null, name(m.from, m.from_name)),
      to ? h('em', null, ` to ${to === 'You' ? 'you' : to} alone`) : null,
      ': ', h('span', { class: 'chat-text' }, m.text),
      ' ', h('small', { class: 'hint' }, when(m.at)),
      mutable ? h('button', { type: 'button', class: 'secondary mute', 'aria-label': `Mute ${name(m.from, m.from_name)}`, onclick: () => mute(m.from, true) }, 'Mute') : null);
  }

  // Muting hides what that player wrote, here and in the stream and mail;
  // the note says so and undoes it.
  async function mute(seat, on) {
    const who = name(seat);
    try {
      await call(on ? 'PUT' : 'DELETE', `/v1/matches/${id}/mutes/${seat}`, { key: app.me });
    } catch (e) {
      error.hidden = false;
      error.textContent = e instanceof ApiError ? e.message : String(e);
      return;
    }
    if (on) {
      for (const li of list.querySelectorAll(`li[data-from="${seat}"]`)) li.remove();
      muted.hidden = false;
      fill(muted, `You muted ${who}: nothing they write shows to you, here, in your stream or your mail. `,
        h('button', { type: 'button', class: 'secondary', id: 'chat-unmute', onclick: () => mute(seat, false) }, `Unmute ${who}`));
      announce(`You muted ${who}.`);
    } else {
      muted.hidden = true;
      list.replaceChildren();
      after = 0;
      announce(`You read ${who} again.`);
      await refresh().catch(() => {});
    }
  }

  async function refresh() {
    const page = await call('GET', `/v1/matches/${id}/messages?after=${after}`, { key: seated ? app.me : undefined });
    if (!page.messages.length) return [];
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    for (const m of page.messages) list.append(item(m));
    after = page.last;
    empty.hidden = true;
    if (atEnd) list.scrollTop = list.scrollHeight;
    return page.messages;
  }

  if (seated && !over) {
    const text = h('textarea', { id: 'chat-text', rows: 2, maxlength: 1000, required: true });
    const to = h('select', { id: 'chat-to' });
    // The players to write to alone, again when someone joins; the
    // choice made stays.
    let drawnSeats = null;
    fillTo = () => {
      const others = (state().match.seats ?? []).filter((s) => s.player && s.seat !== mine);
      const key = JSON.stringify(others.map((s) => [s.seat, s.name]));
      if (key === drawnSeats) return;
      drawnSeats = key;
      const chosen = to.value;
      fill(to, h('option', { value: '' }, 'everyone at the table'),
        others.map((s) => h('option', { value: String(s.seat) }, `${s.name ?? `seat ${s.seat}`} alone`)));
      to.value = others.some((s) => String(s.seat) === chosen) ? chosen : '';
    };
    fillTo();
    const send = h('button', { type: 'submit', id: 'chat-send' }, 'Send');
    form = h('form', { id: 'chat-form', class: 'chat-form' },
      field('Message', text, 'Up to 1,000 characters. Private messages reach only the player you choose.'),
      field('To', to), send);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!text.value.trim()) return;
      send.disabled = true;
      error.hidden = true;
      const body = { text: text.value };
      if (to.value !== '') body.to = Number(to.value);
      try {
        await call('POST', `/v1/matches/${id}/messages`, { body, key: app.me });
        text.value = '';
        announce(body.to === undefined ? 'Said to everyone at the table.' : 'Said privately.');
        await refresh();
      } catch (e) {
        if (e instanceof ApiError && e.code === 'match_over') {
          close();
          announce('The match is over; the table takes no more messages.');
          return;
        }
        // What was typed stays, to be mended and sent again.
        error.hidden = false;
        error.textContent = e instanceof ApiError ? e.message : String(e);
      } finally {
        send.disabled = false;
      }
    });
    panel.append(form);
    // The match page marks the match's head and status on main as it
    // draws them: a player who just sat down is in the "To" list, and the
    // form goes the moment the page shows the match over, not at the next
    // tick (a private message sent in between would go to everyone).
    const page = document.getElementById('main');
    if (page) {
      watch = new MutationObserver(() => {
        if (page.dataset.status === 'finished' || page.dataset.status === 'aborted') close();
        else fillTo();
      });
      watch.observe(page, { attributes: true, attributeFilter: ['data-status', 'data-seq'] });
    }
  }

  const tick = async () => {
    if (stopped) return;
    // The table closes when the match ends: the form goes.
    const status = state().match.status;
    if (!over && (status === 'finished' || status === 'aborted')) close();
    fillTo();
    if (document.visibilityState === 'visible') {
      try {
        const fresh = await refresh();
        const others = fresh.filter((m) => m.from !== mine);
        if (others.length) announce(others.slice(-2).map((m) => `${name(m.from, m.from_name)}: ${m.text}`).join(' '));
      } catch (e) {
        /* the next tick tries again */
      }
    }
    if (!stopped && !over) timer = setTimeout(tick, POLL_MS);
  };
  refresh().catch(() => {}).finally(() => {
    if (!stopped && !over) timer = setTimeout(tick, POLL_MS);
  });
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      watch?.disconnect();
    },
  };
}
