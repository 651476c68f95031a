// app.js: the page's router. Every path the server answers with
// index.html (service/http/web_files.c) is drawn here; links within the
// page change the address without a reload.
import { fill, h, announce } from './js/dom.js';
import * as keys from './js/keys.js';
import { onKeyRefused, onReachability } from './js/api.js';
import { startPage, gamesPage, myMatchesPage } from './js/pages/start.js';
import { matchPage } from './js/pages/match.js';
import { replayPage } from './js/pages/replay.js';
import { settingsPage } from './js/pages/settings.js';
import { rulesPage } from './js/pages/rules.js';
import { signInPage } from './js/pages/signin.js';
import { lobbyPage } from './js/pages/lobby.js';
import { standingsPage, playerPage } from './js/pages/standings.js';

const routes = [
  [/^\/$/, () => startPage],
  [/^\/games$/, () => gamesPage],
  [/^\/games\/([a-z_]+)$/, () => rulesPage],
  [/^\/games\/([a-z_]+)\/standings$/, () => standingsPage],
  [/^\/players\/(p_[0-9]+)$/, () => playerPage],
  [/^\/me$/, () => myMatchesPage],
  [/^\/lobby$/, () => lobbyPage],
  [/^\/settings$/, () => settingsPage],
  [/^\/sign-in\/([A-Za-z0-9_-]+)$/, () => signInPage],
  [/^\/matches\/([A-Za-z0-9_-]+)\/replay$/, () => replayPage],
  [/^\/matches\/([A-Za-z0-9_-]+)$/, () => matchPage],
];

// What every page gets: the identity (or null), navigation, and a way to
// stop its timers when another page is drawn.
const app = {
  me: null,
  cleanups: [],
  go(path) {
    history.pushState(null, '', path);
    render();
  },
  onLeave(fn) {
    this.cleanups.push(fn);
  },
  async setIdentity(identity) {
    this.me = identity;
    if (identity) fill(document.getElementById('notice')).hidden = true;
    showWho();
  },
};

// The server no longer takes this browser's key (revoked, here or from
// another device): a revoked key never comes back, so it is forgotten, and
// the page says so wherever the person is, with the way back in.
onKeyRefused(async (key) => {
  if (!app.me || app.me.keyId !== key.keyId) return;
  const name = app.me.name;
  app.me = null;
  try {
    await keys.forget();
  } catch (e) {
    // IndexedDB gone: the key is useless all the same.
  }
  showWho();
  const notice = document.getElementById('notice');
  fill(notice, h('strong', null, 'You are signed out. '),
    `This browser's key no longer signs for ${name}: it was revoked (perhaps from another device). `,
    h('a', { href: '/#sign-in', id: 'sign-in-again' }, 'Sign in again with a link mailed to you'), '.');
  notice.hidden = false;
});

// The server out of reach: a mark says so until it answers again, and
// nothing typed is lost meanwhile (the pages keep their state).
onReachability((ok) => {
  const mark = document.getElementById('offline');
  if (!mark || mark.hidden === ok) return;
  mark.hidden = ok;
  announce(ok ? 'The server answers again.' : 'Offline: the server cannot be reached. The page keeps trying.');
});
window.addEventListener('offline', () => {
  const mark = document.getElementById('offline');
  if (mark) mark.hidden = false;
});

function showWho() {
  const who = document.getElementById('who');
  if (app.me) fill(who, 'Signed in as ', h('strong', null, app.me.name));
  else fill(who, h('a', { href: '/#sign-in' }, 'Sign in'));
}

async function render() {
  for (const fn of app.cleanups.splice(0)) fn();
  const main = document.getElementById('main');
  const path = location.pathname;
  let page = null;
  let params = [];
  for (const [pattern, which] of routes) {
    const m = path.match(pattern);
    if (m) {
      page = which();
      params = m.slice(1);
      break;
    }
  }
  fill(main);
  delete main.dataset.seq;
  delete main.dataset.status;
  if (!page) {
    fill(main, h('h1', null, 'Not found'), h('p', null, 'There is no page here. ', h('a', { href: '/' }, 'Go to the start page.')));
    return;
  }
  try {
    await page(main, app, ...params);
  } catch (e) {
    main.appendChild(h('p', { class: 'error', role: 'alert' }, e.message));
  }
  // A new page: its heading is where keyboard and screen-reader users
  // land, and the window title names it.
  const heading = main.querySelector('h1');
  if (heading) {
    document.title = `${heading.textContent} · pbem`;
    heading.setAttribute('tabindex', '-1');
    if (rendered) heading.focus();
  }
  rendered = true;
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}
let rendered = false;

document.addEventListener('click', (event) => {
  const a = event.target.closest('a[href]');
  if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey ||
      event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || a.target || url.pathname.startsWith('/v1/')) return;
  if (url.pathname === location.pathname && url.hash) return;
  event.preventDefault();
  history.pushState(null, '', url.pathname + url.search + url.hash);
  render();
});
window.addEventListener('popstate', render);

(async () => {
  try {
    app.me = await keys.load();
  } catch (e) {
    announce('This browser cannot keep a signing key (IndexedDB is unavailable).');
  }
  showWho();
  render();
})();
