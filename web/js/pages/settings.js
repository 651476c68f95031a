// settings.js: notifications (channels, quiet hours, digest), vacations,
// and this account's keys (list, revoke), and forgetting this browser's
// key.
import { h, fill, field, announce, when, wide } from '../dom.js';
import { call } from '../api.js';
import * as keys from '../keys.js';

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

async function keyList(app) {
  const box = h('div');
  const refresh = async () => {
    try {
      const k = (await call('GET', '/v1/players/me/keys', { key: app.me })).keys;
      fill(box, wide(h('table', null, h('caption', null, 'Keys that can sign for you'),
        h('thead', null, h('tr', null, ['Key', 'Name', 'Added', 'State', ''].map((t) => h('th', { scope: 'col' }, t)))),
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
  // Two steps: without an email address, a forgotten key is a lost account.
  const really = h('button', { class: 'secondary', hidden: true, onclick: async () => {
    await keys.forget();
    await app.setIdentity(null);
    app.go('/');
  } }, 'Yes, forget the key: I can sign in again by mail');
  const forget = h('button', { class: 'secondary', onclick: () => {
    really.hidden = false;
    really.focus();
  } }, 'Forget this browser\'s key…');
  return section('k-title', 'Keys', box, h('p', null, 'Forgetting the key signs this browser out for good; use a sign-in link to come back.'), h('div', { class: 'row' }, forget, really));
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
  main.append(await notifications(app));
  if (!app.me) return;
  main.append(await vacations(app));
  if (!app.me) return;
  main.append(await keyList(app));
}
