// table.mjs: two players at a match's table, as both browser files play
// it: registering, starting and joining a match, one move made by touching
// the table (the page's own legal moves, its pieces, its confirm button),
// whole matches, and the finished page saying who won, with screenshots
// and axe-core's check at each width.
import { assert, axe, screenshotDir } from './harness.mjs';

// server: startServer()'s; players: the profiles at the table, the first
// two seated as seats 0 and 1 (a spectator may be pushed after them while
// it watches: allAt waits for it too).
export function table(server, players) {
  const shots = screenshotDir();

  // The whole page as a picture: taken through a window as tall as the
  // page, so the move panel held at the bottom of the screen is drawn where
  // it stands, under the table (a full-page capture would leave it where
  // the screen's bottom was).
  async function shot(w, name) {
    const screen = w.page.viewport();
    const height = await w.page.evaluate(() => document.documentElement.scrollHeight);
    await w.page.setViewport({ ...screen, height });
    try {
      await w.page.screenshot({ path: `${shots}/${name}.png` });
    } finally {
      await w.page.setViewport(screen);
    }
  }

  async function expectNoAxe(w, what) {
    const found = await axe(w.page);
    assert(found.length === 0, `axe on ${what}:\n  ${found.join('\n  ')}`);
    // At phone width nothing may need sideways scrolling.
    const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 1, `${what} is ${overflow}px wider than the screen`);
  }

  async function registerByMouse(w, name) {
    const email = `${name.toLowerCase()}@example.org`;
    const seen = server.mail.mails().length;
    await w.page.goto(`${w.origin}/`);
    await w.page.waitForSelector('#sign-in form');
    await w.page.type('#sign-in input[name=name]', name);
    await w.page.type('#sign-in input[name=email]', email);
    await w.page.click('#sign-in form button[type=submit]');
    await w.page.waitForFunction((n) => document.getElementById('who').textContent.includes(n), {}, name);
    // The address is the account's once the link mailed to it is opened:
    // its page has a button, which posts.
    const mail = await server.mail.waitFor(email, /confirm/i, seen);
    const link = mail.text.match(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]{43}/)?.[0];
    assert(link, `the confirmation mail has no page link: ${mail.text}`);
    // As a person: the link opens a page, its button answers a page.
    const tab = await w.context.newPage();
    try {
      await tab.goto(link);
      assert(/Confirm this address/.test(await tab.content()), `the confirmation page: ${await tab.content()}`);
      await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
      const done = await tab.evaluate(() => document.body.innerText);
      assert(done.includes(`Done: ${email} is your account's address now.`), `confirming ${email}: ${done}`);
    } finally {
      await tab.close();
    }
  }


  // Starts a match of game on w's start page; options (name: value) are
  // set in the form's Options as a person would.
  async function startMatch(w, game, seats, options = {}) {
    await w.page.goto(`${w.origin}/`);
    await w.page.waitForSelector('#new-match');
    await w.page.select('#new-game', game);
    await w.page.$eval('#new-seats', (e, n) => { e.value = String(n); }, seats);
    for (const [name, value] of Object.entries(options)) {
      await w.page.$eval(`#new-match [name="${name}"]`, (e, v) => {
        if (e.type === 'checkbox') e.checked = v === true;
        else e.value = String(v);
      }, value);
    }
    await Promise.all([
      w.page.waitForFunction(() => /^\/matches\/m_\d+$/.test(location.pathname) && document.getElementById('main').dataset.status),
      w.page.click('#new-match button[type=submit]'),
    ]);
    const link = await w.page.$eval('#invite-link', (a) => a.textContent);
    return link;
  }

  async function joinThroughLink(w, link) {
    await w.page.goto(link);
    await w.page.waitForSelector('#join');
    await w.page.click('#join');
    await w.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
  }

  const seqOf = (w) => w.page.$eval('#main', (m) => Number(m.dataset.seq ?? -1));
  const statusOf = (w) => w.page.$eval('#main', (m) => m.dataset.status ?? '');
  const hasMoves = (w) => w.page.$('#moves #touch-confirm').then((e) => e !== null);

  // Plays the first choice of the first form on w's page: chooses, then
  // confirms; returns the new head.
  async function playFirst(w, choose) {
    try {
      return await playFirstNow(w, choose);
    } catch (e) {
      const state = await w.page.evaluate(() => ({
        status: document.getElementById('main').dataset.status, seq: document.getElementById('main').dataset.seq,
        moves: document.getElementById('moves')?.innerText,
        error: document.getElementById('move-error')?.textContent, line: document.getElementById('match-status')?.textContent }));
      e.message = `${e.message} (the page: ${JSON.stringify(state)})`;
      throw e;
    }
  }

  // Touches the piece selector names, brought to the top of the screen,
  // clear of the move panel held at its bottom.
  async function touch(w, selector) {
    await w.page.$eval(selector, (b) => b.scrollIntoView({ block: 'start' }));
    await w.page.click(selector);
  }

  // Plays one legal move by touching the table only: the page's own legal
  // moves (its view, signed by its key), the pieces that move names touched
  // on the page, its line chosen if the touch left a choice, then confirmed.
  // choose(legal, view) picks the move's index (the first by default).
  async function playFirstNow(w, choose = () => 0) {
    const before = await seqOf(w);
    const id = await w.page.evaluate(() => location.pathname.split('/')[2]);
    const seen = await signedByPage(w, 'GET', `/v1/matches/${id}/view`);
    const legal = seen.legal;
    const i = choose(legal, seen.view);
    const [move, text] = [legal.moves[i], legal.texts[i]];
    const keys = await w.page.evaluate(async (m) => (await import('/js/pieces.js')).movePieces(m), move);
    for (const k of keys) {
      const piece = (await w.page.evaluateHandle((key) => [...document.querySelectorAll('#main button.piece')]
        .find((b) => b.dataset.piece === key && b.getAttribute('aria-pressed') === 'false'), k)).asElement();
      assert(piece, `no piece ${k} to touch for "${text}"`);
      // At the top of the screen, clear of the move panel held at its bottom.
      await piece.evaluate((b) => b.scrollIntoView({ block: 'start' }));
      await piece.click();
    }
    const line = (await w.page.evaluateHandle((t) => [...document.querySelectorAll('#moves input[name=touch-action]')]
      .find((r) => r.dataset.text === t), text)).asElement();
    assert(line, `"${text}" is not offered after touching ${keys.join(', ') || 'nothing'}: ${await w.page.$eval('#moves', (m) => m.innerText)}`);
    if (!(await line.evaluate((r) => r.checked))) await line.click();
    const confirm = await w.page.$eval('#touch-confirm', (b) => b.textContent);
    assert(confirm.endsWith(text), `the confirm button says "${confirm}", not "${text}"`);
    const [answer] = await Promise.all([
      w.page.waitForResponse((r) => r.url().endsWith('/moves') && r.request().method() === 'POST'),
      w.page.click('#touch-confirm'),
    ]);
    assert(answer.ok(), `the move was refused: ${answer.status()} ${await answer.text()}`);
    const sent = JSON.parse(answer.request().postData());
    assert(JSON.stringify(sent.action) === JSON.stringify(move), `the page sent ${JSON.stringify(sent)} for "${text}"`);
    // Seen as the page redraws (a change of the DOM), not at the next frame.
    await w.page.waitForFunction((s) => Number(document.getElementById('main').dataset.seq) > s, { polling: 'mutation' }, before);
    return seqOf(w);
  }

  // Waits (the pages poll the events) until every page has drawn head seq.
  // Each page behind is asked to look now, as a page brought back to the
  // screen looks (a visibilitychange), so a whole match does not wait out
  // the poll interval at every turn; the interval's own updates are the
  // spectator's test.
  async function allAt(seq) {
    await Promise.all(players.map((w) => w.page.evaluate((s) => {
      if (Number(document.getElementById('main').dataset.seq) < s) document.dispatchEvent(new Event('visibilitychange'));
    }, seq)));
    await Promise.all(players.map((w) => w.page.waitForFunction(
      (s) => Number(document.getElementById('main').dataset.seq) >= s, { timeout: 20000, polling: 'mutation' }, seq)));
  }

  // Plays by clicking until done() says so; returns the moves made.
  // choose(legal, view) picks each move's index (the first by default).
  // When several pages may move at once, the first that prefer(page) likes
  // moves, else the first.
  async function playUntil(done, limit, choose, prefer = async () => false) {
    let moves = 0;
    while (!(await done())) {
      assert(moves < limit, `still not done after ${limit} moves`);
      const ready = await Promise.all(players.map(hasMoves));
      let w = ready.indexOf(true);
      assert(w >= 0, 'nobody has a move to make, and the match is not done');
      for (let i = 0; i < players.length; i++) {
        if (ready[i] && ready.filter(Boolean).length > 1 && await prefer(players[i])) {
          w = i;
          break;
        }
      }
      let seq = await playFirst(players[w], choose);
      moves++;
      // A seat that still has a move (a second action, or the next step of
      // its turn) plays on; otherwise every page must see the move first.
      while (!(await done()) && await hasMoves(players[w]) && moves < limit) {
        seq = await playFirst(players[w], choose);
        moves++;
      }
      try {
        await allAt(seq);
      } catch (e) {
        const states = await Promise.all(players.map(async (x) => `${await statusOf(x)}@${await seqOf(x)} moves:${await hasMoves(x)}`));
        throw new Error(`after ${moves} moves the pages did not all reach event ${seq}: ${states.join(', ')}`);
      }
    }
    return moves;
  }


  // A call signed with the key the page w keeps (it cannot be read out of
  // the browser: the page signs).
  function signedByPage(w, method, path, body) {
    return w.page.evaluate(async (m, p, b) => {
      const { call } = await import('/js/api.js');
      const keys = await import('/js/keys.js');
      return call(m, p, { body: b ?? undefined, key: await keys.load() });
    }, method, path, body ?? null);
  }


  async function api(path) {
    const r = await fetch(`${server.origin}${path}`);
    return r.json();
  }


  // Both pages of finished match id say who won, by name, with the final
  // scores the server has; end-of-match screenshots at both widths, and no
  // accessibility finding at phone width.
  async function saysWhoWon(id, game) {
    await Promise.all(players.map((w) => w.page.waitForFunction(() => document.getElementById('main').dataset.status === 'finished')));
    const match = await api(`/v1/matches/${id}`);
    assert(match.status === 'finished' && match.result?.over, 'the server does not have the match finished');
    const names = match.seats.map((x) => x.name);
    const first = match.result.ranking[0];
    for (const w of players) {
      const status = await w.page.$eval('#match-status', (e) => e.textContent);
      const winners = first.map((s) => (w === players[s] ? 'You' : names[s]));
      assert(first.length === 1 ? status.startsWith(`${winners[0]} won.`) : status.includes('share the win'),
        `the page does not say who won (${JSON.stringify(match.result.ranking)}): ${status}`);
      assert(status.includes(`Final scores: ${names.map((n, i) => `${n} ${match.result.scores[i]}`).join(', ')}.`),
        `the page does not give the final scores ${match.result.scores}: ${status}`);
      // A match that is over has no clock running: no "time bank 0 min".
      const seated = await w.page.$eval('#main table', (t) => t.innerText);
      assert(!/time bank|due /.test(seated), `the finished match's players still show a clock: ${seated}`);
      // The log stands on its newest entry, the end of the match, as it did
      // through the match (the reader never scrolled it up).
      const log = await w.page.$eval('ol.log', (ol) => ({
        gap: ol.scrollHeight - ol.scrollTop - ol.clientHeight, last: ol.lastElementChild?.textContent ?? '' }));
      assert(log.gap < 8 && /won|share the win|over/.test(log.last), `the log does not show its newest entry: ${JSON.stringify(log)}`);
    }
    const [alice, bob] = players;
    // The game's tables fit a phone (each row stacked), none scrolls sideways.
    const sideways = await bob.page.$$eval('.board .table-wrap', (ws) => ws
      .filter((x) => x.scrollWidth > x.clientWidth + 1).map((x) => `${x.getAttribute('aria-label')} (${x.scrollWidth - x.clientWidth}px)`));
    assert(sideways.length === 0, `at phone width these tables of ${game} scroll sideways: ${sideways.join(', ')}`);
    await shot(alice, `${game}_end`);
    await shot(bob, `${game}_end_phone`);
    await expectNoAxe(alice, `a finished ${game} match`);
    await expectNoAxe(bob, `a finished ${game} match at phone width`);
  }

  // The toast on w's page, if one is shown, covers neither the move panel
  // held at the bottom of the screen nor, scrolled to the end, the page's
  // last line.
  async function toastClear(w) {
    return w.page.evaluate(async () => {
      const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await frames();
      const toast = document.getElementById('status');
      if (!toast.textContent) return 'no toast';
      const meets = (a, b) => a && b && a.width > 0 && b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const bar = document.querySelector('.moves-bar')?.getBoundingClientRect();
      if (meets(toast.getBoundingClientRect(), bar)) return `the toast "${toast.textContent}" covers the move panel`;
      window.scrollTo(0, document.documentElement.scrollHeight);
      await frames();
      const last = document.querySelector('.bottom p').getBoundingClientRect();
      if (meets(toast.getBoundingClientRect(), last)) return `the toast "${toast.textContent}" covers the page's last line`;
      return 'clear';
    });
  }

  return { shot, expectNoAxe, registerByMouse, startMatch, joinThroughLink, seqOf, statusOf, hasMoves,
           playFirst, touch, allAt, playUntil, signedByPage, api, saysWhoWon, toastClear };
}
