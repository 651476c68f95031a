// settings.js: the account's email (added or changed by a verified
// link), notifications (channels, quiet hours, digest), notices on this
// device (Web Push), webhooks, vacations, a code to play from Discord or
// Slack (docs/chat.md), this account's keys (list, revoke), and forgetting this
// browser's key, refused when it is the account's only way in.
import { h, fill, field, announce, when, wide } from '../dom.js';
import { call } from '../api.js';
import * as keys from '../keys.js';
import * as push from '../push.js';

function section(id, title, ...children) {
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

function problem(box, e) {
  box.hidden = false;
  box.textContent = e.message;
}

async function notifications(app) {
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  let s;
  try {
    s = await call('GET', '/v1/players/me/notification-settings', { key: app.me });
  } catch (e) {
    return section('n-title', 'Notifications', h('p', { class: 'error' }, e.message));
  }
  const email = h('input', { type: 'checkbox', id: 'n-email', checked: s.email !== false });
  const webhooks = h('input', { type: 'checkbox', id: 'n-webhooks', checked: s.webhooks !== false });
  const zone = h('input', { id: 'n-zone', value: s.time_zone ?? 'UTC', maxlength: 64 });
  const quiet = h('input', { type: 'checkbox', id: 'n-quiet', checked: !!s.quiet_hours });
  const qFrom = h('input', { type: 'time', id: 'n-qfrom', value: s.quiet_hours?.from ?? '22:00' });
  const qUntil = h('input', { type: 'time', id: 'n-quntil', value: s.quiet_hours?.until ?? '07:00' });
  const digest = h('input', { type: 'checkbox', id: 'n-digest', checked: !!s.digest });
  const hour = h('input', { type: 'number', id: 'n-hour', min: 0, max: 23, value: s.digest_hour ?? 8 });
  const reminders = h('input', { id: 'n-reminders', value: (s.reminder_hours ?? []).join(', '), inputmode: 'numeric' });
  const check = (input, text) => h('div', { class: 'row' }, input, h('label', { for: input.id }, text));
  const form = h('form', null,
    h('fieldset', null, h('legend', null, 'Channels'), check(email, 'Email'), check(webhooks, 'Webhooks')),
    field('Time zone (IANA name, e.g. Europe/Paris)', zone),
    h('fieldset', null, h('legend', null, 'Quiet hours'), check(quiet, 'No mail between these hours'),
      field('From', qFrom), field('Until', qUntil)),
    h('fieldset', null, h('legend', null, 'Digest'), check(digest, 'One "your turn" mail a day instead of one per turn'),
      field('At hour (0–23)', hour)),
    field('Reminders, hours after a turn began (comma separated)', reminders),
    h('button', { type: 'submit' }, 'Save notification settings'), err);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    const body = {
      email: email.checked, webhooks: webhooks.checked, time_zone: zone.value.trim() || 'UTC',
      quiet_hours: quiet.checked ? { from: qFrom.value, until: qUntil.value } : null,
      digest: digest.checked, digest_hour: Number(hour.value),
      reminder_hours: reminders.value.split(/[ ,]+/).filter(Boolean).map(Number),
    };
    try {
      await call('PUT', '/v1/players/me/notification-settings', { body, key: app.me });
      announce('Notification settings saved.');
    } catch (e) {
      problem(err, e);
    }
  });
  return section('n-title', 'Notifications', form);
}

// Notices on this device: a switch that subscribes this browser to Web
// Push, or says plainly why it cannot (no support, permission refused,
// the browser's push service unreachable); mail goes on either way.
async function deviceNotices(app) {
  const say = h('p', { id: 'p-state', role: 'status' });
  if (!push.supported()) {
    say.textContent = 'This browser cannot show notices from a site (it has no Web Push); your turns come by mail.';
    return section('p-title', 'Notices on this device', say);
  }
  const on = h('input', { type: 'checkbox', id: 'p-on' });
  const err = h('p', { class: 'error', role: 'alert', id: 'p-error', hidden: true });
  const show = (id) => {
    on.checked = !!id;
    say.textContent = id ? 'On: this device shows a notice when it is your turn, even with the page closed.'
      : 'Off: your turns come by mail (and on this page while it is open).';
  };
  try {
    show(await push.current(app.me));
  } catch (e) {
    show(null);
  }
  on.addEventListener('change', async () => {
    err.hidden = true;
    on.disabled = true;
    try {
      if (on.checked) {
        show(await push.subscribe(app.me));
        announce('Notices on this device are on.');
      } else {
        await push.unsubscribe(app.me);
        show(null);
        announce('Notices on this device are off.');
      }
    } catch (e) {
      show(null);
      problem(err, e);
    } finally {
      on.disabled = false;
    }
  });
  return section('p-title', 'Notices on this device',
    h('div', { class: 'row' }, on, h('label', { for: 'p-on' }, 'Show a notice on this device when it is my turn (Web Push)')),
    say, err);
}

async function vacations(app) {
  const list = h('div');
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const from = h('input', { type: 'datetime-local', id: 'v-from', required: true });
  const until = h('input', { type: 'datetime-local', id: 'v-until', required: true });
  const refresh = async () => {
    try {
      const v = (await call('GET', '/v1/players/me/vacation', { key: app.me })).vacations;
      fill(list, v.length ? h('ul', null, v.map((x) => h('li', null, `${when(x.from)} to ${when(x.until)} `,
        h('button', { class: 'secondary', onclick: async () => {
          try {
            await call('DELETE', `/v1/players/me/vacation/${x.id}`, { key: app.me });
            announce('Vacation cancelled.');
            refresh();
          } catch (e) {
            problem(err, e);
          }
        } }, 'Cancel')))) : h('p', null, 'No vacation planned.'));
    } catch (e) {
      problem(err, e);
    }
  };
  const form = h('form', null, field('From', from), field('Until', until),
    h('button', { type: 'submit' }, 'Declare a vacation'), err);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    try {
      await call('POST', '/v1/players/me/vacation', {
        body: { from: new Date(from.value).toISOString(), until: new Date(until.value).toISOString() }, key: app.me });
      announce('Vacation declared: your clocks stop for it.');
      refresh();
    } catch (e) {
      problem(err, e);
    }
  });
  await refresh();
  return section('v-title', 'Vacations', h('p', null, 'Your clocks stop in every match during a vacation.'), list, form);
}

// The email: the way back in when a key is lost, and where "your turn"
// mails go. The server mails a link to the new address; the address
// changes when it is opened. The page shows what the server answered.
function emailSection(app, me) {
  const input = h('input', { type: 'email', id: 'e-email', required: true, maxlength: 254, autocomplete: 'email', value: me?.email ?? '' });
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const ok = h('p', { class: 'ok', role: 'status', hidden: true });
  const form = h('form', null,
    h('p', { id: 'e-now' }, me?.email ? `Your email: ${me.email}.` : 'No email yet: if this browser loses its key, an email is the way back in.'),
    field(me?.email ? 'New email' : 'Email', input, 'A link is mailed to it; the address is taken once you open the link.'),
    h('button', { type: 'submit' }, me?.email ? 'Change the email' : 'Add the email'), err, ok);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    ok.hidden = true;
    try {
      const answer = await call('POST', '/v1/players/me/email', { body: { email: input.value.trim() }, key: app.me });
      ok.hidden = false;
      ok.textContent = answer?.message ?? `A link is on its way to ${input.value.trim()}: open it to confirm the address.`;
    } catch (e) {
      problem(err, e);
    }
  });
  return section('e-title', 'Email', form);
}

async function webhooks(app) {
  const list = h('div');
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const secret = h('p', { class: 'ok', role: 'status', hidden: true, id: 'w-secret' });
  const url = h('input', { type: 'url', id: 'w-url', required: true, maxlength: 2000, placeholder: 'https://' });
  const format = h('select', { id: 'w-format' }, ['standard', 'slack', 'discord'].map((f) => h('option', { value: f }, f)));
  const refresh = async () => {
    try {
      const w = (await call('GET', '/v1/players/me/webhooks', { key: app.me })).webhooks;
      fill(list, w.length ? h('ul', null, w.map((x) => h('li', null, h('code', null, x.url),
        ` · ${x.format ?? 'standard'}${x.scope === 'match' ? ` · match ${x.match}` : ''} · ${x.enabled ? 'on' : `off${x.disabled_reason ? ` (${x.disabled_reason})` : ''}`}`)))
        : h('p', null, 'No webhook yet.'));
    } catch (e) {
      problem(err, e);
    }
  };
  const form = h('form', null, field('Address told of your turns', url), field('Format', format),
    h('button', { type: 'submit' }, 'Add the webhook'), err, secret);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    secret.hidden = true;
    try {
      const made = await call('POST', '/v1/players/me/webhooks', { body: { url: url.value.trim(), format: format.value }, key: app.me });
      secret.hidden = false;
      secret.textContent = `Added. Its signing secret, shown only now: ${made.webhook?.secret ?? ''}`;
      url.value = '';
      refresh();
    } catch (e) {
      problem(err, e);
    }
  });
  await refresh();
  return section('w-title', 'Webhooks', h('p', null, 'A webhook tells a program of yours (a bot, a chat channel) when it is your turn.'), list, form);
}

// A one-time code the player types in Discord or Slack (/pbem link CODE);
// the link is then one of their grants (docs/chat.md).
function chatLink(app) {
  const shown = h('p', { class: 'ok', id: 'c-code', role: 'status', hidden: true });
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const ask = h('button', { type: 'button', id: 'c-ask', onclick: async () => {
    err.hidden = true;
    try {
      const made = await call('POST', '/v1/players/me/chat-links', { key: app.me });
      shown.hidden = false;
      fill(shown, 'Type ', h('code', null, `/pbem link ${made.code}`), ` in Discord or Slack, where the pbem app is installed, before ${when(made.expires)}. It works once.`);
    } catch (e) {
      problem(err, e);
    }
  } }, 'Get a link code');
  return section('c-title', 'Discord and Slack', h('p', null, 'Play from a chat: link your chat account once with a code, then /pbem view and /pbem move there, answered only to you. The link is listed with your grants and can be revoked.'), ask, shown, err);
}

async function keyList(app, me) {
  const box = h('div');
  let others = null;
  const refresh = async () => {
    try {
      const k = (await call('GET', '/v1/players/me/keys', { key: app.me })).keys;
      others = k.filter((x) => !x.revoked_at && !x.current).length;
      fill(box, wide(h('table', null, h('caption', null, 'Keys that can sign for you'),
        h('thead', null, h('tr', null, ['Key', 'Name', 'Added', 'State', 'Revoke'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', null, k.map((x) => h('tr', null, h('td', null, h('code', null, x.key_id)), h('td', null, x.name ?? ''),
          h('td', null, when(x.created_at)), h('td', null, x.revoked_at ? `revoked ${when(x.revoked_at)}` : x.current ? 'this browser' : 'active'),
          h('td', null, x.revoked_at || x.current ? null : h('button', { class: 'secondary', onclick: async () => {
            try {
              await call('DELETE', `/v1/players/me/keys/${x.key_id}`, { key: app.me });
              announce(`Key ${x.key_id} revoked.`);
              refresh();
            } catch (e) {
              announce(`The key was not revoked: ${e.message}`);
            }
          } }, `Revoke ${x.name ?? x.key_id}`)))))), 'Your keys'));
    } catch (e) {
      fill(box, h('p', null, `This browser's key: `, h('code', null, app.me.keyId), `. (The list of your keys is not available: ${e.message})`));
    }
  };
  await refresh();
  // Two steps, and none when this key is the only way in: with no other
  // key and no email address, a forgotten key is a lost account.
  const refusal = h('p', { class: 'error', role: 'alert', id: 'forget-refused', hidden: true });
  const really = h('button', { class: 'secondary', hidden: true, onclick: async () => {
    await keys.forget();
    await app.setIdentity(null);
    app.go('/');
  } }, 'Yes, forget the key: I can sign in again by mail');
  const forget = h('button', { class: 'secondary', id: 'forget-key', onclick: () => {
    if (!me?.email && others === 0) {
      refusal.hidden = false;
      refusal.textContent = 'This key is the only way into your account: there is no other key and no email. Add an email above (or sign in on another device) first, or the account is lost for good.';
      return;
    }
    really.hidden = false;
    really.focus();
  } }, 'Forget this browser\'s key…');
  return section('k-title', 'Keys', box, h('p', null, 'Forgetting the key signs this browser out; use a sign-in link mailed to you, or another device, to come back.'), h('div', { class: 'row' }, forget, really), refusal);
}

export async function settingsPage(main, app) {
  main.append(h('h1', null, 'Settings'));
  if (!app.me) {
    main.append(h('p', null, h('a', { href: '/#sign-in' }, 'Sign in'), ' to change your settings.'));
    return;
  }
  main.append(h('p', null, `Signed in as ${app.me.name} (${app.me.player}).`));
  // One request after the other: a key revoked elsewhere signs the page
  // out at the first, and the rest is not asked for.
  let me = null;
  try {
    me = await call('GET', '/v1/players/me', { key: app.me });
  } catch (e) {
    if (!app.me) return;
  }
  main.append(emailSection(app, me));
  main.append(await notifications(app));
  if (!app.me) return;
  main.append(await deviceNotices(app));
  if (!app.me) return;
  main.append(await webhooks(app));
  if (!app.me) return;
  main.append(await vacations(app));
  if (!app.me) return;
  main.append(chatLink(app));
  main.append(await keyList(app, me));
}
