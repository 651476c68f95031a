// browser.test.mjs: the page played in a real browser (Debian's chromium
// through puppeteer-core) against the real pbemd. Two browser profiles
// register, play whole Artifact Stack, Antiquity Quest and Adel
// Verplichtet matches by touching the table, one Adel Verplichtet round
// with its sealed choices; notices on the device (the service worker
// shows a pushed notice); a refused move shows the
// rule's sentence; the finished match's replay is checked in the browser;
// every page passes axe-core (no finding of any impact); and from the
// browser's own network log: every answer carries the CSP, and no request
// goes anywhere but the server. Screenshots go to build/screenshots/.
//
// Run by scripts/test.sh (PBEM_BIN, DATABASE_URL set); prints one line per
// check and a synthesis line "[browser] Tested: N | Passing: P | Failing: F".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './server.mjs';
import { CSP, assert, launch, profile, runner } from './harness.mjs';
import { table } from './table.mjs';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

const t = runner();
// However a browser or a server hangs, make test goes on: after 10 minutes
// the run ends with what it has, and one more failure saying why.
setTimeout(() => {
  console.log('[FAIL] the browser test did not finish within 10 minutes');
  process.exitCode = 1;
  t.summary(1);
  process.exit(1);
}, 600000).unref();
const server = await startServer();
const browser = await launch();
const alice = await profile(browser, server.origin, DESKTOP);
const bob = await profile(browser, server.origin, PHONE);
const both = [alice, bob];
const {
  shot, expectNoAxe, registerByMouse, startMatch, joinThroughLink, seqOf, statusOf, hasMoves,
  playFirst, touch, allAt, playUntil, signedByPage, api, saysWhoWon, toastClear,
} = table(server, both);

async function who(w) {
  return w.page.$eval('#who', (e) => e.textContent);
}

// Registers with the keyboard alone: Tab from the top of the page reaches
// the name field, then the email field, then the button, in that order.
async function registerByKeyboard(w, name) {
  await w.page.goto(`${w.origin}/`);
  await w.page.waitForSelector('#sign-in form');
  const first = await tabTo(w.page, 'input[name=name]');
  assert(first > 0, 'the name field cannot be reached with Tab');
  await w.page.keyboard.type(name);
  await w.page.keyboard.press('Tab');
  assert(await w.page.evaluate(() => document.activeElement.name === 'email'), 'Tab after the name does not reach the email field');
  await w.page.keyboard.press('Tab');
  assert(await w.page.evaluate(() => document.activeElement.type === 'submit'), 'Tab after the email does not reach the register button');
  const outline = await w.page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert(outline !== 'none', 'the focused button shows no focus outline');
  await w.page.keyboard.press('Enter');
  await w.page.waitForFunction((n) => document.getElementById('who').textContent.includes(n), {}, name);
}

async function tabTo(page, selector, limit = 40) {
  for (let i = 1; i <= limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return i;
  }
  return 0;
}

// The replay's seat panels as a person reads them.
function panels(w) {
  return w.page.$$eval('#replay-views .seat-view', (ps) => ps.map((p) => ({
    title: p.querySelector('h3').textContent, cards: p.querySelectorAll('.card').length, text: p.innerText })));
}

// Asks for a sign-in link on w's start page (the "I already have an
// account" form) and returns the link the mail brought.
async function mailedLink(w, email) {
  const seen = server.mail.mails().length;
  await w.page.goto(`${w.origin}/`);
  await w.page.waitForSelector('#sign-in form[aria-labelledby=link-title]');
  await w.page.type('#sign-in form[aria-labelledby=link-title] input[name=email]', email);
  const [answer] = await Promise.all([
    w.page.waitForResponse((r) => r.url().endsWith('/v1/players/sign-in-links')),
    w.page.click('#sign-in form[aria-labelledby=link-title] button[type=submit]'),
  ]);
  assert(answer.status() === 202, `asking for a link: ${answer.status()} ${await answer.text()}`);
  await w.page.waitForFunction(() => /a sign-in link is on its way/.test(document.querySelector('#sign-in .ok:not([hidden])')?.textContent ?? ''));
  const mail = await server.mail.waitFor(email, /sign-in link/i, seen);
  const link = mail.text.match(/https?:\/\/\S+\/sign-in\/[A-Za-z0-9_-]{43}\b/)?.[0];
  assert(link && link.startsWith(`${server.origin}/sign-in/`), `the mail has no sign-in link of this server: ${mail.text}`);
  return link;
}

// Opens a sign-in link in w and adds w's new key under keyName; resolves
// when the page says who is signed in.
async function enrol(w, link, keyName, expectName) {
  await w.page.goto(link);
  await w.page.waitForSelector('#device-name');
  await w.page.$eval('#device-name', (e, v) => { e.value = v; }, keyName);
  const [answer] = await Promise.all([
    w.page.waitForResponse((r) => r.url().endsWith('/v1/players/me/keys') && r.request().method() === 'POST'),
    w.page.click('#main form button[type=submit]'),
  ]);
  assert(answer.status() === 201, `enrolling the key: ${answer.status()} ${await answer.text()}`);
  await w.page.waitForFunction((n) => document.getElementById('who').textContent.includes(n) && location.pathname === '/me', {}, expectName);
}

// Runs fn(stage), naming the stage it was in when it failed.
async function staged(fn) {
  let at = 'the start';
  try {
    await fn((name) => { at = name; });
  } catch (e) {
    e.message = `while ${at}: ${e.message}`;
    throw e;
  }
}

await t.test('the page signs a request exactly as the independent signer does (tests/node/sign-request.mjs)', async () => {
  await alice.page.goto(`${server.origin}/games`);
  const seed = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
  const input = { seed_hex: seed, keyid: 'k_0011223344556677', method: 'POST', created: 1767225600,
                  nonce: '00112233445566778899aabbccddeeff', url: `${server.origin}/v1/matches/m_7/moves?x=1`,
                  body: '{"seq":4,"move":"dig 0.1.0","name":"Zoë"}' };
  const theirs = JSON.parse(execFileSync('node', [new URL('../node/sign-request.mjs', import.meta.url).pathname, JSON.stringify(input)])).headers;
  const ours = await alice.page.evaluate(async (i) => {
    const { signatureHeaders } = await import('/js/api.js');
    // The seed as a PKCS #8 key (RFC 8410's fixed prefix), only for this
    // comparison: the page's own keys are made non-extractable.
    const der = Uint8Array.from(('302e020100300506032b657004220420' + i.seed_hex).match(/../g), (b) => parseInt(b, 16));
    const privateKey = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);
    return signatureHeaders({ privateKey, keyId: i.keyid }, i.method, new URL(i.url), i.body, { created: i.created, nonce: i.nonce });
  }, input);
  assert(ours['Content-Digest'] === theirs['content-digest'], `Content-Digest: ${ours['Content-Digest']} vs ${theirs['content-digest']}`);
  assert(ours['Signature-Input'] === theirs['signature-input'], `Signature-Input: ${ours['Signature-Input']} vs ${theirs['signature-input']}`);
  assert(ours.Signature === theirs.signature, `Signature: ${ours.Signature} vs ${theirs.signature}`);
});

let artifactLink = null;
let artifactId = null;

await t.test('two browsers register without a password, one by the keyboard alone at phone width', async () => {
  await registerByMouse(alice, 'Alice');
  await registerByKeyboard(bob, 'Bob');
  assert((await who(alice)).includes('Alice') && (await who(bob)).includes('Bob'), 'the page does not say who is signed in');
  await expectNoAxe(bob, 'the start page (signed in, phone width)');
});

await t.test('the start and games pages: the games with their rules summaries, no accessibility finding', async () => {
  await alice.page.goto(`${server.origin}/games`);
  await alice.page.waitForSelector('.games article');
  const titles = await alice.page.$$eval('.games article h2', (hs) => hs.map((x) => x.textContent));
  for (const g of ['Antiquity Quest', "Another Man's Treasure", 'Adel Verplichtet', 'Quarriors', 'Artifact Stack']) {
    assert(titles.some((x) => x.startsWith(g)), `the games page lacks ${g}: ${titles.join(', ')}`);
  }
  await expectNoAxe(alice, 'the games page');
  // Each game's rules in short, a link away, the notation's examples
  // kept as written.
  await alice.page.click('a[href="/games/antiquity_quest"]');
  await alice.page.waitForSelector('article.rules pre.notation');
  const heading = await alice.page.$eval('h1', (x) => x.textContent);
  assert(heading === 'Antiquity Quest: the rules in short', `the rules page is headed "${heading}"`);
  const examples = await alice.page.$$eval('article.rules pre.notation', (ps) => ps.map((x) => x.textContent).join('\n'));
  assert(examples.includes('play red1 red3 red5'), `the notation's examples are not shown: ${examples}`);
  // Headings are the summary's short titles, a turn's steps a numbered
  // list, whole (a paragraph's first line is no heading).
  const outline = await alice.page.evaluate(() => ({
    headings: [...document.querySelectorAll('article.rules h2')].map((x) => x.textContent),
    steps: [...document.querySelectorAll('article.rules ol li')].map((x) => x.textContent) }));
  assert(outline.headings.includes('Your turn') && outline.headings.every((x) => x.length <= 40),
    `the rules' headings: ${outline.headings.join(' / ')}`);
  assert(outline.steps.length === 3 && outline.steps[0].startsWith('"draw" 2 cards, or "pickup"') && outline.steps[0].endsWith('goes to your hand.'),
    `the turn's steps: ${outline.steps.join(' / ')}`);
  await expectNoAxe(alice, 'a game\'s rules page');
  await bob.page.goto(`${server.origin}/games/quarriors`);
  await bob.page.waitForSelector('article.rules h2');
  const overflow = await bob.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `at phone width the rules page is ${overflow}px wider than the screen`);
  await expectNoAxe(bob, 'a game\'s rules page at phone width');
  await shot(bob, 'rules_quarriors_phone');
  await shot(alice, 'rules_antiquity_quest');
  await alice.page.goto(`${server.origin}/`);
  await alice.page.waitForSelector('#new-match');
  await expectNoAxe(alice, 'the start page');
});

await t.test('Alice starts an Artifact Stack match and Bob joins through the invitation link', async () => {
  artifactLink = await startMatch(alice, 'artifact_stack', 2);
  artifactId = artifactLink.split('/').pop();
  await expectNoAxe(alice, 'an open match');
  await joinThroughLink(bob, artifactLink);
  await alice.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
  await expectNoAxe(bob, 'a seat page at phone width');
  await shot(bob, `artifact_stack_phone`);
  const overflow = await bob.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `at phone width the seat page is ${overflow}px wider than the screen`);
});

await t.test('a refused move shows the rule\'s sentence from the API', async () => {
  const w = (await hasMoves(alice)) ? alice : bob;
  await w.page.click('.typed-move summary');
  await w.page.type('.typed-move input[name=move]', 'dig 9.9.9');
  const [answer] = await Promise.all([
    w.page.waitForResponse((r) => r.url().endsWith('/moves') && r.request().method() === 'POST'),
    w.page.click('.typed-move button[type=submit]'),
  ]);
  const body = await answer.json();
  assert(answer.status() >= 400 && body.error?.message, `the move was not refused: ${answer.status()}`);
  await w.page.waitForSelector('#move-error:not([hidden])');
  const shown = await w.page.$eval('#move-error', (e) => e.textContent);
  assert(shown === body.error.message, `the page shows "${shown}", the API said "${body.error.message}"`);
  await w.page.click('.typed-move summary');
});

await t.test('table talk: Bob writes to Alice alone, she reads it as text as it comes, and what she is typing stays', async () => {
  await alice.page.waitForSelector('#chat-form');
  await bob.page.waitForSelector('#chat-form');
  await alice.page.type('#chat-text', 'half a thought');
  await bob.page.select('#chat-to', '0');
  await bob.page.type('#chat-text', 'Alice, <b>only</b> for you');
  await bob.page.click('#chat-send');
  await bob.page.waitForFunction(() => document.getElementById('chat-text').value === '');
  await alice.page.waitForFunction(() => document.getElementById('chat-list').textContent.includes('<b>only</b> for you'));
  const seen = await alice.page.$eval('#chat-list', (l) => ({ text: l.textContent, bold: l.querySelector('b') !== null }));
  assert(!seen.bold && /to you alone/.test(seen.text), `Alice's chat: ${seen.text}`);
  const typed = await alice.page.$eval('#chat-text', (e) => e.value);
  assert(typed === 'half a thought', `what Alice was typing became "${typed}"`);
  await expectNoAxe(alice, 'the match page with its table talk');
  await expectNoAxe(bob, 'the table talk at phone width');
  // Alice mutes Bob: his words go, and come back when she unmutes him.
  await alice.page.click('#chat-list li[data-from="1"] button.mute');
  await alice.page.waitForSelector('#chat-unmute');
  assert(await alice.page.$('#chat-list li[data-from="1"]') === null, 'a muted player\'s message still shows');
  await expectNoAxe(alice, 'the table talk with a player muted');
  await alice.page.click('#chat-unmute');
  await alice.page.waitForFunction(() => document.querySelector('#chat-list li[data-from="1"]') !== null);
  await alice.page.$eval('#chat-text', (e) => { e.value = ''; });
});

await t.test('a move made with the keyboard alone: Tab to a piece, Space, Tab to its move and to confirm, Enter', async () => {
  const w = (await hasMoves(alice)) ? alice : bob;
  const before = await seqOf(w);
  await w.page.focus('#match-status');
  assert(await tabTo(w.page, '#main button.piece:not([aria-disabled])', 200) > 0, 'Tab never reaches a piece on the table');
  const piece = await w.page.evaluate(() => document.activeElement.dataset.piece);
  await w.page.keyboard.press('Space');
  assert(await w.page.evaluate(() => document.activeElement.getAttribute('aria-pressed') === 'true'), 'Space does not choose the focused piece');
  const offered = await w.page.$$eval('#moves input[name=touch-action]', (rs) => rs.map((r) => r.dataset.text));
  assert(offered.length > 0 && offered.length <= 12, `touching ${piece} offers ${offered.length} moves: ${offered.join(' / ')}`);
  if (!(await w.page.$('#moves input[name=touch-action]:checked'))) {
    assert(await tabTo(w.page, '#moves input[name=touch-action]', 200) > 0, 'Tab never reaches the moves the piece allows');
    await w.page.keyboard.press('Space');
  }
  assert(await tabTo(w.page, '#touch-confirm', 200) > 0, 'Tab never reaches the confirm button');
  assert(await w.page.evaluate(() => !document.activeElement.disabled), 'the confirm button is disabled after a choice');
  await w.page.keyboard.press('Enter');
  await w.page.waitForFunction((s) => Number(document.getElementById('main').dataset.seq) > s, {}, before);
  // The redrawn page leaves keyboard users where they were (the confirm
  // button of their next action) or on the match's state, not lost.
  const focused = await w.page.evaluate(() => document.activeElement?.id);
  assert(focused === 'match-status' || focused === 'touch-confirm', `after the move the focus is on ${focused}`);
  await allAt(await seqOf(w));
});

await t.test('Alice and Bob play the Artifact Stack match to the end by touching the table only, and the page says who won', async () => {
  await shot(alice, `artifact_stack`);
  const moves = await playUntil(async () => (await statusOf(alice)) === 'finished', 400);
  await saysWhoWon(artifactId, 'artifact_stack');
  console.log(`        (${moves} moves touched)`);
});

await t.test('the finished match\'s replay is verified in the browser (hash chain, seed)', async () => {
  await alice.page.click('#replay-link');
  await alice.page.waitForSelector('#verified[data-state]');
  const state = await alice.page.$eval('#verified', (e) => [e.dataset.state, e.textContent]);
  assert(state[0] === 'verified', `the replay is not verified: ${state[1]}`);
  const head = (await api(`/v1/matches/${artifactId}`)).head.seq;
  assert(state[1].includes(`all ${head} events`), `the mark does not count the ${head} events: ${state[1]}`);
  // One panel per seat, each that seat's view as the server's replay has
  // it, the hands drawn as cards.
  await alice.page.waitForFunction((n) => document.getElementById('replay-views')?.dataset.seq === String(n), {}, head);
  const atHead = await panels(alice);
  const names = (await api(`/v1/matches/${artifactId}`)).seats.map((x) => x.name);
  assert(atHead.length === 2 && atHead.every((p, i) => p.title.startsWith(`${names[i]}'s view`)),
    `the replay does not show each seat's view: ${atHead.map((p) => p.title).join(', ')}`);
  assert(atHead.every((p) => p.cards > 0), `a seat's view shows no card: ${atHead.map((p) => `${p.title}: ${p.cards}`).join(', ')}`);
  await alice.page.click('#step-back');
  await alice.page.waitForFunction((n) => document.getElementById('step-at').textContent.startsWith(`Event ${n - 1} of ${n}`), {}, head);
  await expectNoAxe(alice, 'the replay page');
  // With the keyboard alone: ← steps back, Home goes to the first event,
  // → steps on, End to the last; the seats' views follow each step.
  await alice.page.focus('h1');
  const stepTo = async (key, n) => {
    await alice.page.keyboard.press(key);
    await alice.page.waitForFunction((s) => document.getElementById('replay-views').dataset.seq === String(s), { timeout: 10000 }, n);
    return panels(alice);
  };
  const back = await stepTo('ArrowLeft', head - 2);
  const line = await alice.page.$eval('#step-at', (e) => e.textContent);
  assert(line.startsWith(`Event ${head - 2} of`), `the step line does not follow ←: ${line}`);
  const first = await stepTo('Home', 1);
  assert(first.length >= 1 && first.every((p) => /has not started/.test(p.text)),
    `at the first event the seats have nothing yet: ${first.map((p) => p.text.slice(0, 60)).join(' / ')}`);
  // → steps on; once the match has started, a step that changes what a
  // seat holds (as the server's replay says) changes that seat's panel.
  const theirs = async (n) => (await api(`/v1/matches/${artifactId}/replay?seq=${n}`)).views.map((v) => JSON.stringify(v.view));
  let was = first;
  let changed = 0;
  for (let n = 2; n <= head && changed < 3; n++) {
    const is = await stepTo('ArrowRight', n);
    const [a, b] = [await theirs(n - 1), await theirs(n)];
    if (a[0] !== 'null' && a[0] !== b[0]) {
      assert(is[0].text !== was[0].text, `event ${n} changes ${names[0]}'s view, and the page's panel stays the same`);
      changed++;
    }
    was = is;
  }
  assert(changed === 3, `stepping on changed a seat's view only ${changed} times`);
  assert(back.length === 2, 'a step back lost a seat\'s panel');
  const end = await stepTo('End', head);
  assert(JSON.stringify(end) === JSON.stringify(atHead), 'End does not come back to the views of the last event');
  await shot(alice, `replay`);
  await expectNoAxe(alice, 'the replay page after stepping');
  // At phone width the seats' panels stack, and nothing needs sideways scrolling.
  await bob.page.goto(`${server.origin}/matches/${artifactId}/replay`);
  await bob.page.waitForFunction((n) => document.getElementById('replay-views')?.dataset.seq === String(n), {}, head);
  assert((await panels(bob)).length === 2, 'at phone width the replay lacks a seat\'s panel');
  await expectNoAxe(bob, 'the replay page at phone width');
});

await t.test('a page whose log was tampered with is not verified', async () => {
  // The same check, fed a log with one event changed, must name it.
  const verdict = await alice.page.evaluate(async (id) => {
    const { checkChain } = await import('/js/verify.js');
    const events = (await (await fetch(`/v1/matches/${id}/events`)).json()).events;
    const good = checkChain(events);
    events[2].data = { ...events[2].data, forged: true };
    return [good.ok, checkChain(events)];
  }, artifactId);
  assert(verdict[0] === true, 'the untouched log does not verify');
  assert(verdict[1].ok === false && verdict[1].problem.startsWith('event 3'), `a forged event 3 is not caught: ${JSON.stringify(verdict[1])}`);
});

await t.test('one Adel Verplichtet round with its sealed choices', () => staged(async (stage) => {
  stage('starting the match');
  const link = await startMatch(alice, 'adel_verplichtet', 2);
  const id = link.split('/').pop();
  stage('Bob joins');
  await joinThroughLink(bob, link);
  stage('Alice sees the match start');
  await alice.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
  await allAt((await api(`/v1/matches/${id}`)).head.seq);
  const sealed = await alice.page.$eval('#sealed-title', (e) => e.textContent);
  assert(sealed.includes('sealed'), 'the page does not say the choice is sealed');
  stage('Alice half-makes her choice while Bob seals his');
  // A live update during a half-made choice: Alice has touched the castle,
  // typed in the move field and stands on the castle; Bob seals, her page
  // is drawn again, and she has lost nothing.
  await alice.page.waitForSelector('#main button.piece[data-piece="place:castle"]');
  await alice.page.click('.typed-move summary');
  await alice.page.type('#typed-move', 'go auc');
  const castle = '#main button.piece[data-piece="place:castle"]';
  await touch(alice, castle);
  // The touch has taken (a touch on a button being redrawn at that very
  // moment is lost, as it would be under a finger: touched again).
  const taken = (c) => alice.page.waitForSelector(`${c}[aria-pressed="true"]`, { timeout: 5000 }).then(() => true, () => false);
  if (!(await taken(castle))) {
    await touch(alice, castle);
    assert(await taken(castle), 'touching the castle does not choose it');
  }
  const at = await seqOf(alice);
  const bobSealed = await playFirst(bob);
  await alice.page.waitForFunction((s) => Number(document.getElementById('main').dataset.seq) > s, {}, at);
  const kept = await alice.page.evaluate(() => ({
    pressed: document.querySelector('#main button.piece[data-piece="place:castle"]')?.getAttribute('aria-pressed'),
    typed: document.getElementById('typed-move')?.value,
    open: document.querySelector('.typed-move details')?.open,
    focus: document.activeElement?.dataset?.piece,
    confirm: document.getElementById('touch-confirm')?.textContent,
    problem: document.getElementById('touch-problem')?.textContent,
    sealed: document.querySelector('.sealed')?.textContent }));
  assert(kept.pressed === 'true', `the castle Alice touched is no longer chosen after Bob's move: ${JSON.stringify(kept)}`);
  assert(kept.typed === 'go auc' && kept.open, `what Alice typed is lost: ${JSON.stringify(kept)}`);
  assert(kept.focus === 'place:castle', `Alice's focus moved: ${JSON.stringify(kept)}`);
  assert(kept.confirm === 'Seal: go castle', `the confirm button says ${kept.confirm}`);
  assert(/Committed: Bob/.test(kept.sealed) && !/castle|auction/.test(kept.sealed), `Alice's page on Bob's sealed choice: ${kept.sealed}`);
  // Bob's page echoes what he sealed; nobody else's page knows it.
  const bobChose = (await api(`/v1/matches/${id}/events`)).events.filter((e) => e.kind === 'committed').length;
  assert(bobChose === 1, `Bob's seal made ${bobChose} commitments`);
  const echo = await bob.page.$eval('#sealed-echo', (e) => e.textContent);
  assert(/^Sealed: go (castle|auction)$/.test(echo), `Bob's page does not say what he sealed: ${echo}`);
  await shot(alice, `adel_verplichtet`);
  await shot(bob, `adel_verplichtet_phone`);
  stage('Alice seals her location');
  const [answer] = await Promise.all([
    alice.page.waitForResponse((r) => r.url().endsWith('/moves') && r.request().method() === 'POST'),
    alice.page.click('#touch-confirm'),
  ]);
  assert(answer.ok(), `Alice's sealed choice was refused: ${await answer.text()}`);
  assert(JSON.parse(answer.request().postData()).action?.location === 'castle', 'the page did not seal the castle Alice touched');
  await allAt(Math.max(bobSealed, (await api(`/v1/matches/${id}`)).head.seq));
  stage('playing the rest of the round');
  const round = async () => {
    const m = await api(`/v1/matches/${id}`);
    return m.status !== 'active' || (m.view?.turn ?? 1) >= 2;
  };
  const moves = await playUntil(round, 60);
  const events = (await api(`/v1/matches/${id}/events`)).events;
  const committed = events.filter((e) => e.kind === 'committed').length;
  const revealed = events.filter((e) => e.kind === 'revealed').length;
  assert(committed >= 4 && revealed === committed, `a round has ${committed} commitments and ${revealed} reveals`);
  // The sealed choices open their commitments, checked in the browser;
  // a revealed choice changed after the fact does not.
  const seals = await alice.page.evaluate(async (matchId) => {
    const { checkSeals } = await import('/js/verify.js');
    const log = (await (await fetch(`/v1/matches/${matchId}/events`)).json()).events;
    const good = checkSeals(log);
    const forged = structuredClone(log);
    const reveal = forged.find((e) => e.kind === 'revealed');
    reveal.data.action = { ...reveal.data.action, location: reveal.data.action.location === 'castle' ? 'auction' : 'castle' };
    return [good, checkSeals(forged)];
  }, id);
  assert(seals[0].ok && seals[0].checked === revealed, `the commitments do not verify: ${JSON.stringify(seals[0])}`);
  assert(!seals[1].ok && /does not open its commitment/.test(seals[1].problem), `a changed reveal is not caught: ${JSON.stringify(seals[1])}`);
  stage('checking the page');
  await expectNoAxe(alice, 'a sealed decision');
  await expectNoAxe(bob, 'a sealed decision at phone width');
  await shot(alice, `adel_verplichtet_turn2`);
  await shot(bob, `adel_verplichtet_turn2_phone`);
  console.log(`        (${moves + 2} moves touched, ${committed} sealed choices)`);
}));

await t.test('a newcomer opens an invitation link, signs in, comes back to the match and joins', async () => {
  const carol = await profile(browser, server.origin, PHONE);
  try {
    const link = await startMatch(alice, 'quarriors', 2);
    await carol.page.goto(link);
    await carol.page.waitForSelector('#match-status');
    assert(await carol.page.$('#join') === null, 'a visitor who is not signed in gets a join button');
    await expectNoAxe(carol, 'an open match seen by a visitor');
    await carol.page.click('a[href*="next="]');
    await carol.page.waitForSelector('#sign-in form');
    // A name of 40 letters without a space: the phone page wraps it.
    await carol.page.type('#sign-in input[name=name]', 'Carolinaofthelongnamewithoutanyspacesxyz');
    const limit = await carol.page.$eval('#sign-in input[name=name]', (i) => [i.maxLength, document.getElementById(i.getAttribute('aria-describedby'))?.textContent]);
    assert(limit[0] === 40 && /40 characters/.test(limit[1] ?? ''), `the name field does not say its limit: ${JSON.stringify(limit)}`);
    await carol.page.click('#sign-in form button[type=submit]');
    await carol.page.waitForSelector('#join');
    assert(carol.page.url() === link, `after signing in Carol is at ${carol.page.url()}, not the match`);
    await carol.page.click('#join');
    await carol.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
    await alice.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active' && document.getElementById('board-title'));
    await alice.page.waitForSelector('.board .die');
    await shot(alice, `quarriors`);
    await carol.page.waitForSelector('.board .die');
    await shot(carol, `quarriors_phone`);
    await expectNoAxe(alice, 'the quarriors seat page');
    await expectNoAxe(carol, 'the quarriors seat page at phone width, with a 40-letter name');
    for (const r of carol.requests.filter((u) => !u.startsWith('data:'))) assert(new URL(r).origin === server.origin, `Carol's page asked ${r}`);
    assert(carol.errors.length === 0 && carol.violations.length === 0, `Carol's page: ${carol.errors.concat(carol.violations).join('; ')}`);
  } finally {
    await carol.context.close();
  }
});

const openLinks = {};
for (const game of ['antiquity_quest', 'another_mans_treasure']) {
  await t.test(`the ${game} seat page is drawn, with no accessibility finding`, async () => {
    const link = await startMatch(alice, game, 2);
    openLinks[game] = link;
    await joinThroughLink(bob, link);
    await alice.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active' && document.getElementById('board-title'));
    await alice.page.waitForSelector('.board .card, .board .die');
    await shot(alice, `${game}`);
    await bob.page.waitForSelector('.board .card, .board .die');
    await shot(bob, `${game}_phone`);
    await expectNoAxe(alice, `the ${game} seat page`);
    await expectNoAxe(bob, `the ${game} seat page at phone width`);
  });
}

await t.test('touching Antiquity Quest cards offers only the moves they make; undo; one confirm', async () => {
  const link = openLinks.antiquity_quest;
  for (const w of [alice, bob]) {
    await w.page.goto(link);
    await w.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
  }
  const mover = await Promise.any([alice, bob].map((w) => w.page.waitForSelector('#moves #touch-confirm').then(() => w)));
  // Before any touch: only the moves that need no piece (the draw), and
  // nothing is played until confirmed.
  const untouched = await mover.page.$$eval('#moves input[name=touch-action]', (rs) => rs.map((r) => r.dataset.text));
  assert(JSON.stringify(untouched) === '["draw"]', `before a touch the page offers ${untouched.join(' / ')}`);
  assert(await mover.page.$eval('#touch-confirm', (b) => b.disabled), 'the confirm button works before anything is chosen');
  await playFirst(mover, (legal) => legal.texts.indexOf('draw')); // the turn begins with a draw
  await mover.page.waitForSelector('#main button.piece[data-piece^="card:"]');
  const radios = await mover.page.$$('#moves input[type=radio]');
  assert(radios.length <= 12, `after the draw the page lists ${radios.length} moves at once`);
  // One card touched: only moves using that card, no more than a dozen.
  // A card of the hand (the table's; the pile's cards a pickup names are
  // chips in the move panel).
  const first = await mover.page.$eval('.board button.piece[data-piece^="card:"]:not([aria-disabled])', (b) => b.dataset.piece);
  await touch(mover, `.board button.piece[data-piece="${first}"]`);
  const name = first.slice(5);
  const offered = await mover.page.$$eval('#moves input[name=touch-action]', (rs) => rs.map((r) => r.dataset.text));
  assert(offered.length >= 1 && offered.length <= 12 && offered.every((x) => x.split(' ').includes(name)),
    `touching ${name} offers: ${offered.join(' / ')} (the panel: ${await mover.page.$eval('#moves', (m) => m.innerText)})`);
  assert(offered.includes(`discard ${name}`), `touching ${name} does not offer its discard: ${offered.join(' / ')}`);
  // A second card, then undo: back to the first card's moves.
  const second = await mover.page.$('.board button.piece[data-piece^="card:"][aria-pressed="false"]:not([aria-disabled])');
  if (second) {
    await second.evaluate((b) => b.scrollIntoView({ block: 'start' }));
    await second.click();
    await mover.page.click('#touch-undo');
    const again = await mover.page.$$eval('#moves input[name=touch-action]', (rs) => rs.map((r) => r.dataset.text));
    assert(JSON.stringify(again) === JSON.stringify(offered), `after undo the page offers ${again.join(' / ')}`);
  }
  await mover.page.click('#touch-clear');
  assert(await mover.page.$$eval('#main button.piece[aria-pressed="true"]', (b) => b.length) === 0, 'clear leaves pieces chosen');
  await playFirst(mover, (legal) => legal.texts.indexOf(`discard ${name}`));
  const log = await mover.page.$$eval('.log li', (l) => l.map((x) => x.textContent).join(' / '));
  assert(log.includes(name), `the log does not show the discard of ${name}: ${log}`);
  // The other player draws: the mover's page says so in its live region,
  // and lists it "since your last turn" on top.
  const other = mover === alice ? bob : alice;
  const otherName = other === alice ? 'Alice' : 'Bob';
  await other.page.waitForSelector('#moves #touch-confirm');
  await playFirst(other, (legal) => legal.texts.indexOf('draw'));
  await mover.page.waitForFunction((n) => document.getElementById('status').textContent.includes(n), { timeout: 10000 }, otherName);
  await mover.page.waitForSelector('#since:not([hidden])');
  const since = await mover.page.$eval('#since', (e) => e.innerText);
  assert(since.startsWith('Since your last turn') && since.includes(otherName), `the mover's page since the last turn: ${since}`);
  await shot(alice, `antiquity_quest_mid`);
  await shot(bob, `antiquity_quest_mid_phone`);
  await expectNoAxe(mover, 'touching cards');
});

await t.test('a touched piece taken away by an update is said next to the choice, and the move is not offered', async () => {
  const said = await alice.page.evaluate(async () => {
    const { movesPanel, newChoice } = await import('/js/moves.js');
    const { card } = await import('/games/common.js');
    const table = () => {
      const b = document.createElement('div');
      b.append(card({ value: '4', name: 'blue 4', piece: 'card:B4' }), card({ value: '5', name: 'blue 5', piece: 'card:B5' }));
      return b;
    };
    const choice = newChoice();
    const before = { moves: [{ type: 'discard', card: 'B4' }, { type: 'discard', card: 'B5' }], texts: ['discard B4', 'discard B5'] };
    const first = table();
    const panel = movesPanel(before, () => {}, { board: first, choice });
    first.querySelector('[data-piece="card:B4"]').click();
    const offered = [...panel.querySelectorAll('input[name=touch-action]')].map((r) => r.dataset.text);
    // The update: B4 left the hand (another player took it).
    const second = table();
    second.querySelector('[data-piece="card:B4"]').closest('li').remove();
    const after = movesPanel({ moves: [before.moves[1]], texts: ['discard B5'] }, () => {}, { board: second, choice });
    return { offered, problem: after.querySelector('#touch-problem').textContent, hidden: after.querySelector('#touch-problem').hidden,
             confirm: after.querySelector('#touch-confirm').disabled, chosen: choice.selection.length };
  });
  assert(JSON.stringify(said.offered) === '["discard B4"]', `touching B4 offered ${said.offered}`);
  assert(!said.hidden && /B4 is no longer yours to use/.test(said.problem) && /“discard B4” is no longer possible/.test(said.problem),
    `the page does not say the choice became illegal: ${JSON.stringify(said)}`);
  assert(said.confirm && said.chosen === 0, `the illegal choice can still be confirmed: ${JSON.stringify(said)}`);
});

await t.test('the table reads right: "1 card", a face-down discard pile drawn as backs, a collection named once, lords by name', async () => {
  const read = await alice.page.evaluate(async () => {
    const aq = await import('/games/antiquity_quest.js');
    const av = await import('/games/adel_verplichtet.js');
    const qq = await import('/games/quarriors.js');
    const amt = await import('/games/another_mans_treasure.js');
    const as = await import('/games/artifact_stack.js');
    const ctx = { seat: 0, seats: [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Ben' }] };
    const box = (nodes) => {
      const d = document.createElement('div');
      d.append(...[].concat(nodes));
      return d;
    };
    const aqView = { round: 1, rounds: 1, phase: 'draw', draw_pile: 1, discard_pile: { count: 2 },
      you: { hand: ['red2.1'] }, seats: [{ seat: 0, side: 0, hand_count: 1 }, { seat: 1, side: 1, hand_count: 1 }],
      sides: [{ side: 0, seats: [0], cache_count: 1, completed: 1, collections: [
        { id: 1, cards: ['yellow1.5', 'mask.3', 'crown.4'], family: 'mixed', grade: 'mixed', suit: 'yellow', complete: true, value: 250 }] },
      { side: 1, seats: [1], cache_count: 10, completed: 0, collections: [] }], totals: [0, 0] };
    const a = box(aq.draw(aqView, ctx));
    // The seat not on turn sees the pile's top card face up, the rest counted.
    const t = box(aq.draw({ ...aqView, discard_pile: { count: 3, top: 'red3.2' } }, ctx));
    const topRow = t.querySelector('[aria-label="Discard pile (3 cards)"]');
    const avView = { turn: 3, phase: 'over', lords: [
      { seat: 0, pawn: 12, at: 'castle 6', checks: [], free_thieves: [1], location: 'castle', play: { type: 'play', card: 'thief', sack: 1 }, display: [], chosen: false },
      { seat: 1, pawn: 9, at: 'castle 4', checks: [8100], free_thieves: [], location: 'auction', play: { type: 'play', card: 'check', value: 8100 }, display: [], chosen: false }],
      auction_piles: [{ face_up: 'A1', count: 1 }], prison: [7], log: ['turn 3: Lord 1 goes to the auction'] };
    const v = box(av.draw(avView, { ...ctx, over: true }));
    // Quarriors: what the turn may still pay, and glory past the goal.
    const q = box(qq.draw({ turn: 0, turn_number: 21, phase: 'over', goal: 20, quiddity: 0, quiddity_available: 5,
      players: [{ glory: 23, bag: 5, dice: [] }, { glory: 16, bag: 3, dice: [] }], quest_area: [],
      wilds: [{ card: 'assistant', name: 'Assistant', cost: 1, glory: 1, dice: 2 }] }, ctx));
    // Another Man's Treasure: the patterns each player marked off, in words.
    const mt = box(amt.draw({ round: 2, rounds: 5, phase: 'draw', draw_pile: 100, discard_pile: 1, hand: [], table: [],
      players: [{ seat: 0, hand_count: 8, marked: ['run8'], completed_patterns: 1, round_scores: [0], total: 0 },
        { seat: 1, hand_count: 8, marked: [], completed_patterns: 0, round_scores: [40], total: 40 }] }, ctx));
    // Artifact Stack at the end: no turn and actions left.
    const st = box(as.draw({ round: 2, direction: 'clockwise', turn: 1, actions: 0, over: true, players: [], temple: [] }, { ...ctx, over: true }));
    const wild = q.querySelector('.wilds .card');
    return { qq: q.textContent, wild: [wild?.querySelector('.note')?.textContent, wild?.getAttribute('aria-label')],
             amt: mt.textContent, as: st.textContent,
             discardTop: [...(topRow?.querySelectorAll('[aria-label]') ?? [])].map((x) => x.getAttribute('aria-label')).join(' / '),
             aq: a.innerText || a.textContent, discardBacks: a.querySelector('[aria-label="Discard pile (2 cards)"] .card.back')?.getAttribute('aria-label'),
             av: v.textContent, route: v.querySelector('.route')?.getAttribute('aria-label') };
  });
  assert(/draw pile 1 card(?!s)/.test(read.aq) && !/1 cards/.test(read.aq), `the draw pile of one: ${read.aq.slice(0, 120)}`);
  assert(read.discardBacks === '2 face-down cards', `the face-down discard pile: ${read.discardBacks}`);
  assert(/red 3/.test(read.discardTop) && /2 more face-down cards/.test(read.discardTop), `the discard pile's top card: ${read.discardTop}`);
  assert(!/mixed mixed/.test(read.aq) && /Collection 1 mixed \(yellow\) · complete, worth 250/.test(read.aq), `the collection reads: ${read.aq}`);
  assert(/castle, play thief 1/.test(read.av) && /auction, play check 8100/.test(read.av) && !/not yet/.test(read.av), `what each lord chose at the end: ${read.av}`);
  assert(/thief 7 of Ben/.test(read.av) && /Ben goes to the auction/.test(read.av) && !/Lord 1/.test(read.av), `lords by name: ${read.av}`);
  assert(/5 quiddity to spend/.test(read.qq) && /Ann \(you\): 23 glory/.test(read.qq) && !/spent of|of 20 glory/.test(read.qq),
    `the Quarriors table says: ${read.qq.slice(0, 200)}`);
  // A Wild's cost, glory and dice left break between, never inside, on a narrow card.
  assert(read.wild[0] === 'cost\u00a01 · 1\u00a0glory · 2\u00a0left' && read.wild[1] === `Assistant ${read.wild[0]}`,
    `a Wild card reads: ${JSON.stringify(read.wild)}`);
  assert(/1 \(marked off: a run of 8\)/.test(read.amt), `the patterns done read: ${read.amt}`);
  assert(/the match is over/.test(read.as) && !/actions? left|turn of/.test(read.as), `the finished Artifact Stack table says: ${read.as.slice(0, 200)}`);
  assert(/Ann \(you\) on space 12 \(castle 6\); Ben on space 9 \(castle 4\)/.test(read.route), `the route says: ${read.route}`);
});

await t.test('a spectator sees the public page, the log as sentences, and moves as they come', async () => {
  const spectator = await profile(browser, server.origin, DESKTOP);
  both.push(spectator); // its network log is checked below
  // Whatever fails, the spectator leaves the table: the later tests wait
  // for every page in both to reach each move.
  try {
    // Live: a spectator on an active match sees a player's move arrive.
    const live = openLinks.another_mans_treasure;
    await spectator.page.goto(live);
    await spectator.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
    assert(await spectator.page.$('#join') === null && await spectator.page.$('#moves') === null, 'a spectator gets controls');
    const lines = async () => spectator.page.$$eval('.log li', (l) => l.length);
    const before = await lines();
    // Whoever's turn it is.
    for (const w of [alice, bob]) {
      await w.page.goto(live);
      await w.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
    }
    const mover = await Promise.any([alice, bob].map((w) => w.page.waitForSelector('#moves #touch-confirm').then(() => w)));
    const seq = await playFirst(mover);
    await spectator.page.waitForFunction((n) => Number(document.getElementById('main').dataset.seq) >= n, {}, seq);
    assert(await lines() > before, 'the spectator\'s log did not grow');
    // Told by the match's event stream the moment it was appended, not left
    // to a poll: the stream's last item is that event.
    await spectator.page.waitForFunction((n) => Number(document.getElementById('main').dataset.streamed) >= n, { timeout: 20000 }, seq)
      .catch(async () => {
        const told = await spectator.page.evaluate(() => document.getElementById('main').dataset.streamed);
        throw new Error(`the spectator's page was not told of event ${seq} by the match's stream (its last item: ${told ?? 'none'})`);
      });
    await expectNoAxe(spectator, 'a live public match page');
    await spectator.page.goto(artifactLink);
    await spectator.page.waitForFunction(() => document.querySelectorAll('.log li').length > 3);
    const read = await spectator.page.$$eval('.log li', (l) => l.map((x) => x.textContent));
    assert(read.some((l) => /A match of Artifact Stack for 2 players was created/.test(l)), `the log does not read: ${read.slice(0, 3).join(' / ')}`);
    assert(await spectator.page.$('#moves') === null, 'a spectator gets move controls');
    await expectNoAxe(spectator, 'the public match page');
  } finally {
    both.splice(both.indexOf(spectator), 1);
    await spectator.context.close();
  }
  for (const r of spectator.requests.filter((u) => !u.startsWith('data:'))) assert(new URL(r).origin === server.origin, `the spectator's page asked ${r}`);
});

await t.test('my matches: the server\'s list, the matches waiting for this player first and marked "your turn" in words', async () => {
  let turns = 0;
  for (const w of [alice, bob]) {
    await w.page.goto(`${server.origin}/me`);
    await w.page.waitForSelector(`a[href="/matches/${artifactId}"]`);
    const theirs = (await signedByPage(w, 'GET', '/v1/players/me/matches')).matches;
    const rows = await w.page.$$eval('#main tbody tr', (trs) => trs.map((tr) => ({ id: tr.dataset.match, text: tr.innerText })));
    assert(JSON.stringify(rows.map((r) => r.id)) === JSON.stringify(theirs.map((m) => m.match_id)),
      `the page lists ${rows.map((r) => r.id).join(' ')}, the server ${theirs.map((m) => m.match_id).join(' ')}`);
    const mine = theirs.filter((m) => m.your_turn).length;
    assert(rows.slice(0, mine).every((r) => /your turn/.test(r.text)) && rows.slice(mine).every((r) => !/your turn/.test(r.text)),
      `the matches waiting for ${await who(w)} are not first and marked in words: ${rows.map((r) => r.text.replace(/\s+/g, ' ')).join(' / ')}`);
    turns += mine;
  }
  assert(turns > 0, 'no active match waits for anybody: nothing was checked');
  await expectNoAxe(bob, 'my matches at phone width');
});

await t.test('settings: notifications saved, a vacation declared and cancelled, keys listed, no accessibility finding', async () => {
  await alice.page.goto(`${server.origin}/settings`);
  await alice.page.waitForSelector('#n-digest');
  await alice.page.click('#n-digest');
  await alice.page.click('#n-quiet');
  const [answer] = await Promise.all([
    alice.page.waitForResponse((r) => r.url().endsWith('/notification-settings') && r.request().method() === 'PUT'),
    alice.page.click('#n-title ~ form button[type=submit]'),
  ]);
  assert(answer.ok(), `saving the settings failed: ${await answer.text()}`);
  await alice.page.reload();
  await alice.page.waitForSelector('#n-digest');
  assert(await alice.page.$eval('#n-digest', (e) => e.checked), 'the digest setting was not kept');
  // A vacation next week, declared and cancelled.
  const day = (n) => {
    const d = new Date(Date.now() + n * 86400000);
    d.setSeconds(0, 0);
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  };
  await alice.page.waitForSelector('#v-from'); // the sections come one after the other
  await alice.page.$eval('#v-from', (e, v) => { e.value = v; }, day(7));
  await alice.page.$eval('#v-until', (e, v) => { e.value = v; }, day(9));
  const [declared] = await Promise.all([
    alice.page.waitForResponse((r) => r.url().endsWith('/vacation') && r.request().method() === 'POST'),
    alice.page.click('#v-title ~ form button[type=submit]'),
  ]);
  assert(declared.ok(), `declaring the vacation failed: ${await declared.text()}`);
  await alice.page.waitForSelector('#v-title ~ div button');
  await Promise.all([
    alice.page.waitForResponse((r) => /\/vacation\/v_\d+$/.test(r.url()) && r.request().method() === 'DELETE'),
    alice.page.click('#v-title ~ div button'),
  ]);
  await alice.page.waitForFunction(() => document.querySelector('#v-title ~ div')?.textContent.includes('No vacation planned'));
  await expectNoAxe(alice, 'the settings page');
});

await t.test('settings: the email form and the webhook form show what the server answered', async () => {
  await alice.page.goto(`${server.origin}/settings`);
  await alice.page.waitForSelector('#e-email');
  assert(/alice@example.org/.test(await alice.page.$eval('#e-now', (e) => e.textContent)), 'the page does not show Alice\'s email');
  await alice.page.$eval('#e-email', (e) => { e.value = ''; });
  await alice.page.type('#e-email', 'alice.new@example.org');
  const [mailAnswer] = await Promise.all([
    alice.page.waitForResponse((r) => r.url().endsWith('/v1/players/me/email') && r.request().method() === 'POST'),
    alice.page.click('#e-title ~ form button[type=submit]'),
  ]);
  const mailBody = await mailAnswer.json().catch(() => null);
  if (mailAnswer.ok()) {
    await alice.page.waitForSelector('#e-title ~ form .ok:not([hidden])');
    const said = await alice.page.$eval('#e-title ~ form .ok', (e) => e.textContent);
    assert(said === (mailBody?.message ?? 'A link is on its way to alice.new@example.org: open it to confirm the address.'), `the page said: ${said}`);
  } else {
    await alice.page.waitForSelector('#e-title ~ form .error:not([hidden])');
    const said = await alice.page.$eval('#e-title ~ form .error', (e) => e.textContent);
    assert(said === mailBody?.error?.message, `the server answered ${mailAnswer.status()} "${mailBody?.error?.message}", the page said "${said}"`);
  }
  await alice.page.waitForSelector('#w-url');
  await alice.page.type('#w-url', 'http://127.0.0.1:9/pbem-hook');
  const [hookAnswer] = await Promise.all([
    alice.page.waitForResponse((r) => r.url().endsWith('/v1/players/me/webhooks') && r.request().method() === 'POST'),
    alice.page.click('#w-title ~ form button[type=submit]'),
  ]);
  const hook = await hookAnswer.json();
  if (hookAnswer.ok()) {
    await alice.page.waitForSelector('#w-secret:not([hidden])');
    assert((await alice.page.$eval('#w-secret', (e) => e.textContent)).includes(hook.webhook.secret), 'the secret is not shown');
    await alice.page.waitForFunction(() => document.querySelector('#w-title ~ div')?.textContent.includes('127.0.0.1:9/pbem-hook'));
  } else {
    await alice.page.waitForSelector('#w-title ~ form .error:not([hidden])');
    const said = await alice.page.$eval('#w-title ~ form .error', (e) => e.textContent);
    assert(said === hook.error.message, `the server answered "${hook.error.message}", the page said "${said}"`);
  }
  await expectNoAxe(alice, 'the settings page with the email and webhook answers');
});

await t.test('settings: a code to link Discord or Slack, shown with what to type', async () => {
  await alice.page.goto(`${server.origin}/settings`);
  await alice.page.waitForSelector('#c-ask');
  const [answer] = await Promise.all([
    alice.page.waitForResponse((r) => r.url().endsWith('/v1/players/me/chat-links') && r.request().method() === 'POST'),
    alice.page.click('#c-ask'),
  ]);
  assert(answer.status() === 201, `the code was refused: ${await answer.text()}`);
  const made = await answer.json();
  await alice.page.waitForSelector('#c-code:not([hidden])');
  const said = await alice.page.$eval('#c-code', (e) => e.textContent);
  assert(said.includes(`/pbem link ${made.code}`), `the page said: ${said}`);
  await expectNoAxe(alice, 'the settings page with a chat link code');
});

await t.test('settings: notices on this device: the browser\'s refusal said plainly; a pushed notice is shown by the service worker, one per match', async () => {
  await alice.context.overridePermissions(server.origin, ['notifications']);
  await alice.page.goto(`${server.origin}/settings`);
  await alice.page.waitForSelector('#p-on');
  assert(!(await alice.page.$eval('#p-on', (e) => e.checked)), 'notices are on before anyone asked for them');
  const cdp = await alice.page.createCDPSession();
  const registrations = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  await alice.page.click('#p-on');
  // Headless Chromium has no push service it may reach: it refuses the
  // subscription, and the page says so in a sentence, the switch off.
  await alice.page.waitForSelector('#p-error:not([hidden])');
  const said = await alice.page.$eval('#p-error', (e) => e.textContent);
  assert(/push service did not take the subscription/.test(said) && /still come by mail/.test(said), `the page said: ${said}`);
  assert(!(await alice.page.$eval('#p-on', (e) => e.checked)), 'the switch stays on after the refusal');
  // The worker (/sw.js) was registered on the way: a push delivered to it,
  // the notice as the server sends it once the browser has decrypted it,
  // is shown; a second for the same match replaces the first.
  const scope = `${server.origin}/`;
  await alice.page.waitForFunction(() => navigator.serviceWorker.getRegistration('/').then((r) => !!r?.active));
  const id = registrations.find((r) => !r.isDeleted && r.scopeURL === scope)?.registrationId;
  assert(id !== undefined, `no service worker registered for ${scope}: ${JSON.stringify(registrations)}`);
  const notice = (n) => ({ title: 'Your turn in Artifact Stack', body: `Bob took C3. Your turn: take a card (${n}).`, url: '/matches/m_1', tag: '/matches/m_1' });
  for (const n of [1, 2]) {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.origin, registrationId: id, data: JSON.stringify(notice(n)) });
  }
  await alice.page.waitForFunction(async () => {
    const shown = await (await navigator.serviceWorker.getRegistration('/')).getNotifications();
    return shown.length === 1 && /\(2\)/.test(shown[0].body);
  }, { timeout: 10000 });
  const shown = await alice.page.evaluate(async () => (await (await navigator.serviceWorker.getRegistration('/')).getNotifications())
    .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url })));
  assert(shown.length === 1 && shown[0].title === 'Your turn in Artifact Stack' && shown[0].url === '/matches/m_1',
    `the notices shown: ${JSON.stringify(shown)}`);
  await cdp.detach();
  await expectNoAxe(alice, 'the settings page, notices refused by the browser');
});

await t.test('offline: a mark while the server cannot be reached, the refusal cleared and the typed move kept once it answers', async () => {
  for (const x of [alice, bob]) {
    await x.page.goto(openLinks.another_mans_treasure);
    await x.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
  }
  const w = await Promise.any([alice, bob].map((x) => x.page.waitForSelector('#moves #touch-confirm').then(() => x)));
  assert(await w.page.$eval('#offline', (e) => e.hidden), 'the offline mark shows while the server answers');
  const typed = await w.page.$('#typed-move');
  assert(typed, 'the player to move has no move field');
  await w.page.setOfflineMode(true);
  try {
    await w.page.waitForSelector('#offline:not([hidden])', { timeout: 10000 });
    if (typed) {
      // The field is open already where the list only samples the moves.
      if (!(await w.page.$eval('.typed-move details', (d) => d.open))) await w.page.click('.typed-move summary');
      await w.page.type('#typed-move', 'pass');
      await w.page.click('.typed-move button[type=submit]');
      await w.page.waitForSelector('#move-error:not([hidden])');
      assert(/cannot be reached/.test(await w.page.$eval('#move-error', (e) => e.textContent)), 'the page does not say the server cannot be reached');
    }
  } finally {
    await w.page.setOfflineMode(false);
  }
  await w.page.waitForSelector('#offline[hidden]', { timeout: 10000 });
  if (typed) {
    await w.page.waitForSelector('#move-error[hidden]', { timeout: 10000 });
    assert(await w.page.$eval('#typed-move', (e) => e.value) === 'pass', 'the typed move was lost');
  }
  await expectNoAxe(w, 'a match page after being offline');
  await shot(alice, `another_mans_treasure_mid`);
  await shot(bob, `another_mans_treasure_mid_phone`);
});

await t.test('settings: forgetting the only way into an account (one key, no email) is refused with the reason', async () => {
  await bob.page.goto(`${server.origin}/settings`);
  await bob.page.waitForSelector('#k-title ~ div tbody tr');
  assert(/No email yet/.test(await bob.page.$eval('#e-now', (e) => e.textContent)), 'the page does not say Bob has no email');
  await bob.page.click('#forget-key');
  await bob.page.waitForSelector('#forget-refused:not([hidden])');
  const said = await bob.page.$eval('#forget-refused', (e) => e.textContent);
  assert(/only way into your account/.test(said) && /no email/.test(said), `the refusal: ${said}`);
  assert(await bob.page.$$eval('#k-title ~ .row button', (bs) => bs.filter((b) => !b.hidden).length) === 1, 'the page offers to forget the key anyway');
  assert(await bob.page.evaluate(async () => (await import('/js/keys.js')).load()) !== null, 'the key was forgotten');
  await expectNoAxe(bob, 'the settings page at phone width, forgetting refused');
});

// Dana is Alice on a second browser (no key there yet): she signs in by
// the mailed link, then revokes Alice's first key from it.
let dana = null;
await t.test('sign-in by a mailed link: a second browser becomes the same player and sees her matches', async () => {
  dana = await profile(browser, server.origin, DESKTOP); // its network log is checked below
  const link = await mailedLink(dana, 'alice@example.org');
  await expectNoAxe(dana, 'the start page after asking for a link');
  await dana.page.goto(link);
  await dana.page.waitForSelector('#device-name');
  await expectNoAxe(dana, 'the sign-in link page');
  await enrol(dana, link, 'second browser', 'Alice');
  await dana.page.waitForSelector(`a[href="/matches/${artifactId}"]`);
  const me = await signedByPage(dana, 'GET', '/v1/players/me');
  const alices = await signedByPage(alice, 'GET', '/v1/players/me');
  assert(me.player_id === alices.player_id, `the second browser signs for ${me.player_id}, Alice is ${alices.player_id}`);
  await expectNoAxe(dana, 'my matches after signing in by link');
  // The link works once: opened again, the page says so in the API's words.
  await dana.page.goto(link);
  await dana.page.waitForSelector('#device-name');
  const [again] = await Promise.all([
    dana.page.waitForResponse((r) => r.url().endsWith('/v1/players/me/keys') && r.request().method() === 'POST'),
    dana.page.click('#main form button[type=submit]'),
  ]);
  const refusal = await again.json();
  assert(again.status() === 409 && refusal.error.code === 'sign_in_token_spent', `a spent link: ${again.status()} ${JSON.stringify(refusal)}`);
  await dana.page.waitForSelector('#main .error:not([hidden])');
  assert(await dana.page.$eval('#main .error', (e) => e.textContent) === refusal.error.message, 'the page does not say why the link was refused');
  assert((await who(dana)).includes('Alice'), 'a refused link signed the browser out');
});

await t.test('settings: both keys listed, this one marked; revoking the other signs that browser out, and it comes back by link', async () => {
  assert(dana, 'the sign-in test did not run');
  await dana.page.goto(`${server.origin}/settings`);
  await dana.page.waitForSelector('#k-title ~ div tbody tr');
  const rows = await dana.page.$$eval('#k-title ~ div tbody tr', (trs) => trs.map((tr) => tr.innerText));
  const first = (await alice.page.evaluate(async () => (await import('/js/keys.js')).load())).keyId;
  assert(rows.length === 2, `the keys listed: ${rows.join(' / ')}`);
  assert(rows.some((r) => r.includes(first) && /active/.test(r)) && rows.some((r) => /second browser/.test(r) && /this browser/.test(r)),
    `the keys do not read as Alice's first key and this one: ${rows.join(' / ')}`);
  await expectNoAxe(dana, 'the keys in settings');
  await alice.page.goto(`${server.origin}/matches/${artifactId}`);
  await alice.page.waitForSelector('#match-status');
  const [revoked] = await Promise.all([
    dana.page.waitForResponse((r) => r.url().endsWith(`/v1/players/me/keys/${first}`) && r.request().method() === 'DELETE'),
    dana.page.click(`#k-title ~ div button`),
  ]);
  const gone = await revoked.json();
  assert(revoked.status() === 200 && gone.key?.key_id === first && gone.key.revoked_at, `revoking: ${revoked.status()} ${JSON.stringify(gone)}`);
  await dana.page.waitForFunction((k) => [...document.querySelectorAll('#k-title ~ div tbody tr')].some((tr) => tr.innerText.includes(k) && /revoked/.test(tr.innerText)), {}, first);
  // Alice's first browser, left open on a match: its next poll finds the
  // key refused, and the page says she is signed out, with the way back.
  // (The page asks with its key every few seconds; nothing is clicked.)
  assert(alice.page.url().endsWith(`/matches/${artifactId}`), 'Alice\'s page left the match');
  await alice.page.waitForSelector('#notice:not([hidden])');
  const notice = await alice.page.$eval('#notice', (e) => e.textContent);
  assert(/signed out/i.test(notice) && /revoked/.test(notice), `the page does not say Alice is signed out: ${notice}`);
  assert(!(await who(alice)).includes('Alice'), `the page still says ${await who(alice)}`);
  await expectNoAxe(alice, 'a page signed out by a revoked key');
  await alice.page.click('#sign-in-again');
  await alice.page.waitForSelector('#sign-in form[aria-labelledby=link-title]');
  assert(await alice.page.evaluate(async () => (await import('/js/keys.js')).load()) === null, 'the revoked key is still kept');
  const link = await mailedLink(alice, 'alice@example.org');
  await enrol(alice, link, 'first browser again', 'Alice');
  assert(await alice.page.$eval('#notice', (e) => e.hidden), 'the signed-out notice stays after signing in again');
  await alice.page.waitForSelector(`a[href="/matches/${artifactId}"]`);
});

await t.test('an email-only player (no key yet, as the mail path makes one) gets a first key by the link', async () => {
  // The mail path (docs/playing-by-email.md) makes such players; the
  // quickest way here is the row it writes (as tests/service/players does).
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', process.env.DATABASE_URL, '-c',
    "INSERT INTO players (player_id, name, email) VALUES (floor(random() * 1e15)::bigint + 1, 'Erin', 'erin@example.org')"]);
  const erin = await profile(browser, server.origin, PHONE);
  try {
    const link = await mailedLink(erin, 'erin@example.org');
    await enrol(erin, link, 'phone', 'Erin');
    await erin.page.waitForFunction(() => /No match yet/.test(document.getElementById('main').textContent));
    await erin.page.goto(`${server.origin}/settings`);
    await erin.page.waitForSelector('#k-title ~ div tbody tr');
    const rows = await erin.page.$$eval('#k-title ~ div tbody tr', (trs) => trs.map((tr) => tr.innerText));
    assert(rows.length === 1 && /phone/.test(rows[0]) && /this browser/.test(rows[0]), `Erin's keys: ${rows.join(' / ')}`);
    await expectNoAxe(erin, 'the settings of an email-only player at phone width');
    assert(erin.errors.length === 0 && erin.violations.length === 0, `Erin's page: ${erin.errors.concat(erin.violations).join('; ')}`);
    for (const r of erin.requests.filter((u) => !u.startsWith('data:'))) assert(new URL(r).origin === server.origin, `Erin's page asked ${r}`);
  } finally {
    await erin.context.close();
  }
});

await t.test('an unknown path is an HTML 404 page', async () => {
  const answer = await alice.page.goto(`${server.origin}/no/such/page`);
  assert(answer.status() === 404, `status ${answer.status()}`);
  assert(answer.headers()['content-type'].startsWith('text/html'), 'the 404 is not HTML');
  await expectNoAxe(alice, 'the 404 page');
});

// Whole matches of more games by touching only. Each seat plays the last
// move its page lists (the longest collection in Antiquity Quest, the
// last card in Adel Verplichtet), which ends a match in fewer moves than
// the first, with short options: one round; the two-player variant whose
// one sealed choice is place and card together.
// Adel Verplichtet has no last turn: two Lords who both always send their
// detective to the castle (the last move listed) go on for ever, as no
// rule stops them (seed 00 of `pbem rules` does it), so every third
// choice there is another listed move, spread by a fixed hash, as a
// player who varies their play. Over 40 seeds of `pbem rules` (hex 00 to 27) that
// ends every match, in 50 to 101 moves.
let step = 0;
// The Antiquity Quest match is made open, so rated: the standings check
// after these reads the ratings it moved.
let ratedMatch = null;
const lastMostly = (legal) => (++step % 3 === 0 ? Math.floor((step * 2654435761) / 128) % legal.moves.length : legal.moves.length - 1);
for (const [game, title, options, limit, choose] of [
  ['antiquity_quest', 'Antiquity Quest', { rounds: 1, open: true }, 300, (legal) => legal.moves.length - 1],
  ['adel_verplichtet', 'Adel Verplichtet', { two_player_variant: 'combined' }, 300, lastMostly],
]) {
  await t.test(`Alice and Bob play a whole ${title} match by touching the table only, and the page says who won`, async () => {
    const link = await startMatch(alice, game, 2, options);
    const id = link.split('/').pop();
    if (options.open) ratedMatch = id;
    await joinThroughLink(bob, link);
    await alice.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
    await allAt((await api(`/v1/matches/${id}`)).head.seq);
    let toast = null;
    const moves = await playUntil(async () => {
      // The toast of the move just made, while it shows, is clear of the
      // move panel and of the page's last line.
      if (toast === null) {
        for (const w of both) {
          const clear = await toastClear(w);
          if (clear !== 'no toast') toast = clear;
        }
      }
      return (await statusOf(alice)) === 'finished';
    }, limit, choose);
    assert(toast === 'clear', `the toast: ${toast}`);
    await saysWhoWon(id, game);
    // The table's talk stays to read, with a sentence and no form to send.
    if (game === 'antiquity_quest') {
      for (const w of both) await w.page.waitForSelector('#chat-list');
      for (const w of both) assert(await w.page.$('#chat-form') === null && await w.page.$('#chat-closed:not([hidden])') !== null, 'the finished match offers the talk form, or does not say its talk is kept to read');
    }
    console.log(`        (${moves} moves touched)`);
  });
}

// The rated Antiquity Quest match Alice and Bob finished, as people read
// it: the game's standings (reached from its rules page), each name a
// link to the player's page, with the match in their rating history;
// no address anywhere, no accessibility finding at either width.
await t.test('standings: the rated match just finished moves both players on the game\'s standings and on their pages', async () => {
  assert(ratedMatch, 'no rated Antiquity Quest match was finished before');
  const board = await api('/v1/games/antiquity_quest/ratings');
  const match = await api(`/v1/matches/${ratedMatch}`);
  const rows = Object.fromEntries(board.ratings.map((r) => [r.name, r]));
  for (const w of both) {
    await w.page.goto(`${w.origin}/games/antiquity_quest`);
    await w.page.waitForSelector('#standings-link');
    await Promise.all([
      w.page.waitForSelector('#standings-table'),
      w.page.click('#standings-link'),
    ]);
    assert(new URL(w.page.url()).pathname === '/games/antiquity_quest/standings', `the standings link went to ${w.page.url()}`);
    for (const [seat, name] of match.seats.map((x, i) => [i, x.name])) {
      const r = rows[name];
      assert(r && r.matches === 1, `${name} has no line with one game on the leaderboard: ${JSON.stringify(board)}`);
      const won = match.result.ranking[0].includes(seat);
      assert(r.wins === (won ? 1 : 0), `${name}'s wins: ${r.wins}`);
      if (match.result.ranking[0].length === 1) {
        assert(won ? r.rating > 1500 : r.rating < 1500, `${name}'s rating did not move by the result: ${r.rating}`);
      }
      const line = await w.page.$eval(`#standings-table tr[data-player="${r.player}"]`, (tr) => [...tr.cells].map((c) => c.innerText.replace(/^.*\n/, '').trim()));
      assert(line[0] === String(r.rank) && line[1] === name && line[2] === String(Math.round(r.rating)) &&
        line[3] === '1' && line[4] === String(r.wins) && /% of turns in time|no turns yet/.test(line[5]),
        `${name}'s line on the standings: ${JSON.stringify(line)}`);
    }
    const text = await w.page.$eval('#main', (m) => m.innerText);
    assert(!text.includes('@'), `the standings show an address: ${text}`);
    await expectNoAxe(w, `the standings at ${w.page.viewport().width} px`);
    await shot(w, `standings_${w.page.viewport().width}`);
  }
  // Bob opens Alice's page from her name there.
  const a = rows.Alice;
  await Promise.all([
    bob.page.waitForSelector('.player-game[data-game="antiquity_quest"]'),
    bob.page.click(`#standings-table tr[data-player="${a.player}"] a.player`),
  ]);
  for (const w of both) {
    if (w !== bob) {
      await w.page.goto(`${w.origin}/players/${a.player}`);
      await w.page.waitForSelector('.player-game[data-game="antiquity_quest"]');
    }
    assert(new URL(w.page.url()).pathname === `/players/${a.player}`, `Alice's name led to ${w.page.url()}`);
    const page = await w.page.$eval('#main', (m) => ({
      title: m.querySelector('h1').textContent, text: m.innerText,
      history: [...m.querySelectorAll('.player-game[data-game="antiquity_quest"] tbody tr')].map((tr) => ({
        match: tr.dataset.match, link: tr.querySelector('a')?.getAttribute('href'),
        text: tr.innerText })) }));
    assert(page.title === 'Alice' && page.text.includes(`Rating ${Math.round(a.rating)}, 1 rated game played, ${a.wins} ${a.wins === 1 ? 'win' : 'wins'}`),
      `Alice's page: ${page.text}`);
    assert(/Reliability: (\d+% of turns in time|no turns yet)/.test(page.text), `Alice's page gives no reliability: ${page.text}`);
    assert(page.history.length === 1 && page.history[0].match === ratedMatch && page.history[0].link === `/matches/${ratedMatch}` &&
      page.history[0].text.includes(`1500 → ${Math.round(a.rating)}`), `Alice's rating history: ${JSON.stringify(page.history)}`);
    assert(!page.text.includes('@'), `Alice's page shows an address: ${page.text}`);
    await expectNoAxe(w, `a player's page at ${w.page.viewport().width} px`);
    await shot(w, `player_${w.page.viewport().width}`);
  }
});

// A player of the API alone (the pbem command line, its own key in a
// directory of its own) makes an open match; a web-only player finds it on
// "Open matches" and takes the seat with the button.
await t.test('the lobby: a web-only player sees an open match an API player made, joins it with the button and lands on the match page', async () => {
  const config = mkdtempSync(join(process.env.TMPDIR || tmpdir(), 'pbem-cli-'));
  const cli = (...args) => execFileSync(process.env.PBEM_CLI, ['--url', server.origin, ...args],
    { env: { ...process.env, XDG_CONFIG_HOME: config }, encoding: 'utf8' });
  cli('keygen');
  cli('register', 'Ivo');
  const made = cli('new', 'antiquity_quest', '--seats', '2', '--open');
  const id = made.match(/m_\d+/)?.[0];
  assert(id, `pbem new said no match id: ${made}`);
  for (const w of both) {
    await w.page.goto(`${w.origin}/lobby`);
    await w.page.waitForSelector(`#lobby-table tr[data-match="${id}"]`);
    const row = await w.page.$eval(`#lobby-table tr[data-match="${id}"]`, (r) => r.textContent);
    assert(row.includes('Antiquity Quest') && row.includes('1 of 2 taken') && row.includes('Ivo'),
      `the lobby row of ${id}: ${row}`);
    // The creator's name leads to their page.
    const ivo = (await api(`/v1/matches/${id}`)).seats[0].player;
    const href = await w.page.$eval(`#lobby-table tr[data-match="${id}"] a.player`, (a) => a.getAttribute('href'));
    assert(ivo && href === `/players/${ivo}`, `Ivo's name in the lobby links to ${href}, not /players/${ivo}`);
    await expectNoAxe(w, `the lobby at ${w.page.viewport().width} px`);
  }
  await Promise.all([
    bob.page.waitForFunction((m) => location.pathname === `/matches/${m}` &&
      document.getElementById('main').dataset.status === 'active', {}, id),
    bob.page.click(`#lobby-table button[data-join="${id}"]`),
  ]);
  const match = JSON.stringify(await api(`/v1/matches/${id}`));
  assert(match.includes('"Bob"') && match.includes('"Ivo"'), `Ivo and Bob are not seated in ${id}: ${match}`);
  rmSync(config, { recursive: true, force: true });
});

await t.test('the network log: only the server was asked, every page came with the CSP, nothing was refused', async () => {
  for (const w of [alice, bob, dana].filter(Boolean)) {
    assert(w.requests.length > 20, 'too few requests were seen to judge');
    // data: URLs are no request (Chromium's own icons in date fields).
    for (const r of w.requests.filter((u) => !u.startsWith('data:'))) {
      assert(new URL(r).origin === server.origin, `a request went to ${r}`);
    }
    assert(w.documents.length > 3, 'too few page loads were seen');
    for (const d of w.documents) {
      assert(d.headers['content-security-policy'] === CSP, `${d.url} came with CSP ${d.headers['content-security-policy']}`);
      assert(d.headers['x-content-type-options'] === 'nosniff', `${d.url} lacks nosniff`);
      assert(d.headers['referrer-policy'] === 'no-referrer', `${d.url} lacks Referrer-Policy`);
    }
    assert(w.violations.length === 0, `CSP violations: ${w.violations.join('; ')}`);
    const live = await w.page.evaluate(() => window.__csp ?? []);
    assert(live.length === 0, `CSP violations: ${live.join('; ')}`);
    assert(w.errors.length === 0, `script errors: ${w.errors.join('; ')}`);
  }
});

await browser.close();
await server.stop();
process.exit(t.summary() === 0 ? 0 : 1);
