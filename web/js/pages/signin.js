// signin.js: /sign-in/<token>, the link mailed to a player: this browser
// makes its key and enrols it for that player (POST /v1/players/me/keys,
// signed by the new key and authorised by the link's single-use token).
import { h, announce } from '../dom.js';
import { call } from '../api.js';
import * as keys from '../keys.js';

export async function signInPage(main, app, token) {
  main.append(h('h1', null, 'Sign in on this browser'));
  const label = h('input', { id: 'device-name', value: navigator.userAgent.includes('Mobile') ? 'phone' : 'browser', maxlength: 40 });
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const form = h('form', null,
    h('p', null, 'This browser makes a signing key of its own and adds it to your account. The link works once, for 15 minutes.'),
    h('div', { class: 'field' }, h('label', { for: 'device-name' }, 'A name for this key (to recognise it in your settings)'), label),
    h('button', { type: 'submit' }, 'Add this browser to my account'), err);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    err.hidden = true;
    try {
      const key = await keys.makeKey();
      const added = await call('POST', '/v1/players/me/keys', {
        body: { public_key: keys.base64(key.publicRaw), name: label.value.trim() || 'browser', sign_in_token: token }, key });
      const identity = { ...key, player: added.player_id, name: added.player_id };
      const me = await call('GET', '/v1/players/me', { key: identity });
      identity.name = me.name;
      await keys.save(identity);
      await app.setIdentity(identity);
      announce(`Signed in as ${me.name}.`);
      app.go('/me');
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
    }
  });
  main.append(form);
}
