// mixed-doors.test.mjs: one rated match of strangers who come in by three
// different doors (issues #38 and #39). Ada plays through the API alone
// (her own Ed25519 key, every request signed here) and opens the match to
// anyone; Wim plays in the browser alone and takes a seat from "Open
// matches"; Mona plays by mail alone and takes the last seat with "join
// m_…". They talk at the table all through the match, to everyone and
// privately to one seat, each by their own door (Ada's POST, Wim's chat
// panel, Mona's "say" paragraphs); each reads what they should where they
// read (Ada's messages and player stream, Wim's chat panel and his
// browser's stream, Mona's mail), and a private message between two seats
// never reaches the third by any of these, nor the public log or the
// spectators' talk. A free-text line by mail is answered with the hint to
// use "say". The match ends; every player's rating and reliability have
// moved, the leaderboard lists them, and Wim's page says who won.
//
// Run by scripts/test.sh (PBEM_BIN, PBEM_CLI, DATABASE_URL set); prints
// one line per check and "[browser] Tested: N | Passing: P | Failing: F".
import { generateKeyPairSync, createHash, randomBytes, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { startServer } from './server.mjs';
import { assert, launch, profile, runner } from './harness.mjs';

const require = createRequire(new URL('../node/package.json', import.meta.url));
const { blake2b } = require('@noble/hashes/blake2b');

const GAME = 'antiquity_quest';
const t = runner();
// Mona's mails are answers to the service, so it needs the mail key; she
// mails every move, far past the default answers an hour.
const server = await startServer({ mailIn: true, env: { PBEM_MAIL_ANSWERS_PER_HOUR: '1000' } });
// However a browser or a server hangs, make test goes on: after 3 minutes
// the run ends with what it has and one more failure saying where it was;
// pbemd and the mail receiver go with it.
let at = 'starting';
const stage = (name) => { at = name; };
// A test's failure says the stage it was in.
const staged = (fn) => async () => {
  try {
    await fn();
  } catch (e) {
    throw new Error(`while ${at}: ${e.stack ?? e}`);
  }
};
setTimeout(async () => {
  console.log(`[FAIL] the mixed-doors test did not finish within 3 minutes (it was ${at})`);
  t.summary(1);
  await Promise.race([server.stop(), new Promise((r) => setTimeout(r, 5000))]);
  process.exit(1);
}, 180000).unref();
const browser = await launch();
const wim = await profile(browser, server.origin, { width: 1280, height: 900 });

// Bounded polling: until check() gives something truthy, or fails saying
// what it waited for.
async function until(what, check, seconds = 20) {
  for (const end = Date.now() + seconds * 1000; ;) {
    const got = await check();
    if (got) return got;
    if (Date.now() > end) throw new Error(`waited ${seconds} s for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function pub(path) {
  const r = await fetch(`${server.origin}${path}`);
  const text = await r.text();
  assert(r.ok, `GET ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
}

// ---- Ada: the API alone --------------------------------------------------

// A player of the API: her key made here, each request signed per RFC 9421
// as docs/api.md says ("@method", "@path", "@query" when there is one,
// "content-digest" with a body; created, keyid, alg, nonce).
function apiPlayer() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url');
  const player = { keyId: `k_${Buffer.from(blake2b(raw, { dkLen: 8 })).toString('hex')}`, id: null };
  player.fetch = (method, path, body, more = {}) => {
    const url = new URL(path, server.origin);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = { Accept: 'application/json', ...more };
    const components = ['"@method"', '"@path"'];
    const lines = [`"@method": ${method}`, `"@path": ${url.pathname}`];
    if (url.search) {
      components.push('"@query"');
      lines.push(`"@query": ${url.search}`);
    }
    if (text !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Digest'] = `sha-256=:${createHash('sha256').update(text).digest('base64')}:`;
      components.push('"content-digest"');
      lines.push(`"content-digest": ${headers['Content-Digest']}`);
    }
    const params = `(${components.join(' ')});created=${Math.floor(Date.now() / 1000)};keyid="${player.keyId}"` +
      `;alg="ed25519";nonce="${randomBytes(16).toString('hex')}"`;
    lines.push(`"@signature-params": ${params}`);
    headers['Signature-Input'] = `sig=${params}`;
    headers.Signature = `sig=:${sign(null, Buffer.from(lines.join('\n')), privateKey).toString('base64')}:`;
    return fetch(url, { method, headers, body: text });
  };
  // The answer's JSON when its status is one of ok, else a failure that
  // quotes it.
  player.call = async (method, path, body, ok = [200, 201]) => {
    const r = await player.fetch(method, path, body);
    const answer = await r.text();
    assert(ok.includes(r.status), `Ada's ${method} ${path}: ${r.status} ${answer}`);
    return answer ? JSON.parse(answer) : null;
  };
  player.register = async (name) => {
    const made = await player.call('POST', '/v1/players', { name, public_key: raw.toString('base64') });
    player.id = made.id;
    player.keyId = made.key_id;
  };
  return player;
}

// Her notifications as they come (GET /v1/players/me/stream, one JSON
// item a line): everything read so far is in stream.text.
async function follow(player) {
  const r = await player.fetch('GET', '/v1/players/me/stream', undefined, { Accept: 'application/x-ndjson' });
  if (r.status !== 200) throw new Error(`Ada's stream: ${r.status} ${await r.text()}`);
  // ended: why the stream stopped, when it did before the test stopped it.
  const stream = { text: '', ended: null, stopped: false };
  stream.stop = () => { stream.stopped = true; return r.body.cancel().catch(() => {}); };
  (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of r.body) stream.text += decoder.decode(chunk, { stream: true });
      if (!stream.stopped) stream.ended = 'pbemd ended it';
    } catch (e) {
      if (!stream.stopped) stream.ended = `it failed: ${e.message}`;
    }
  })();
  return stream;
}

// ---- Wim: the browser alone ----------------------------------------------

// What Wim's page reads with the key his browser keeps (it signs; the key
// cannot be read out of the browser).
function wimReads(path) {
  return wim.page.evaluate(async (p) => {
    const { call } = await import('/js/api.js');
    return call('GET', p, { key: await (await import('/js/keys.js')).load() });
  }, path);
}

// Wim's player stream, read by a second tab of his browser with the key
// it keeps; text() gives whatever came so far.
async function followInBrowser(w) {
  const tab = await w.context.newPage();
  await tab.goto(`${w.origin}/games`);
  await tab.waitForSelector('.games article');
  const status = await tab.evaluate(async () => {
    const { signatureHeaders } = await import('/js/api.js');
    const key = await (await import('/js/keys.js')).load();
    const url = new URL('/v1/players/me/stream', location.origin);
    const r = await fetch(url, { headers: { Accept: 'application/x-ndjson', ...(await signatureHeaders(key, 'GET', url)) } });
    window.streamText = '';
    if (r.ok) {
      (async () => {
        const decoder = new TextDecoder();
        const reader = r.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          window.streamText += decoder.decode(value, { stream: true });
        }
      })();
    }
    return r.status;
  });
  assert(status === 200, `Wim's stream: ${status}`);
  // The match page in front again: a hidden page stops updating itself.
  await w.page.bringToFront();
  return { text: () => tab.evaluate(() => window.streamText), close: () => tab.close() };
}

// A wait of Wim's page that says, when it runs out, what it waited for
// and what the page showed then.
async function wimWaits(what, waiting) {
  try {
    return await waiting;
  } catch (e) {
    const shown = await wim.page.evaluate(() => {
      const main = document.getElementById('main');
      const to = [...document.querySelectorAll('#chat-to option')].map((o) => o.value || 'everyone');
      return `${location.pathname}, seq ${main?.dataset.seq}, status ${main?.dataset.status}, ` +
        `move field ${document.getElementById('typed-move') ? 'shown' : 'absent'}, chat to [${to}]`;
    }).catch((e2) => `unreadable: ${e2.message}`);
    throw new Error(`Wim's page: waited for ${what}: ${e.message} (the page: ${shown})`);
  }
}

// Wim's page has drawn head seq at least, and what (a selector) if given
// (asked to look now, as a page brought back to the screen does, instead
// of waiting out its poll).
async function pageAt(w, seq, what = null) {
  await w.page.evaluate((s) => {
    if (Number(document.getElementById('main').dataset.seq) < s) document.dispatchEvent(new Event('visibilitychange'));
  }, seq);
  await wimWaits(`seq ${seq}${what ? ` and ${what}` : ''}`, w.page.waitForFunction((s, q) =>
    Number(document.getElementById('main').dataset.seq) >= s && (q === null || document.querySelector(q) !== null),
  { timeout: 20000 }, seq, what));
}

// Clicks selector on Wim's page as a person would; a button the page is
// drawing again at that very moment is clicked again once drawn (ten
// tries, 100 ms apart), as a finger would touch it again.
async function press(selector) {
  for (let tries = 1; ; tries++) {
    try {
      await wim.page.click(selector);
      return;
    } catch (e) {
      if (tries >= 10 || !/not clickable|detached|No node found/.test(e.message)) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// Clicks the button selector on Wim's page that POSTs to a URL passing
// goesTo, and gives the answer. The page is live: news it draws (a
// message, the board growing, "since your last turn") can move the button
// between the moment a click aims at it and the moment it lands, and the
// click then falls beside it. As a person whose tap did nothing, Wim
// clicks again when no request went (five tries, each given 3 s to leave);
// a click that did go is never repeated, so nothing is sent twice.
async function submit(selector, goesTo, what) {
  const sent = (r) => goesTo(r.url()) && r.method() === 'POST';
  const answer = wimWaits(`the answer to ${what}`, wim.page.waitForResponse((r) => sent(r.request()), { timeout: 30000 }));
  answer.catch(() => {}); // awaited below, unless no click went
  for (let tries = 1; ; tries++) {
    const went = wim.page.waitForRequest(sent, { timeout: 3000 }).then(() => true, () => false);
    await press(selector);
    if (await went) return answer;
    if (tries === 5) throw new Error(`Wim clicked ${selector} five times for ${what}, and no request went`);
    console.log(`        (Wim's click on ${selector} for ${what} sent nothing: he clicks again)`);
  }
}

// Wim plays the last move his seat has (the longest collection, which
// ends a round sooner) by typing it in the page's move field.
async function wimMoves(id) {
  const view = await wimReads(`/v1/matches/${id}/view`);
  const text = view.legal.texts[view.legal.texts.length - 1];
  await pageAt(wim, view.head.seq, '#typed-move');
  // The field, emptied and focused (its fold opened the first time); the
  // move put in at once, as a paste is: typed key by key it doubles the
  // match's time on a busy machine and tells nothing more.
  const open = await wim.page.$eval('#typed-move', (e) => {
    e.value = '';
    e.focus();
    return e.closest('details').open;
  });
  if (!open) {
    await press('.typed-move summary');
    await wim.page.focus('#typed-move');
  }
  await wim.page.keyboard.sendCharacter(text);
  const answer = await submit('.typed-move button[type=submit]', (u) => u.endsWith('/moves'), `his move "${text}"`);
  assert(answer.ok(), `Wim's move "${text}" was refused: ${answer.status()} ${await answer.text()}`);
}

// Wim writes text on the page's chat panel, to seat `to` (null: everyone).
async function wimSays(text, to = null) {
  // The panel lists a player to write to alone once it has seen them sit
  // down (it looks every few seconds).
  const value = to === null ? '' : String(to);
  await wimWaits(`"${value || 'everyone'}" to write to`, wim.page.waitForSelector(`#chat-form #chat-to option[value="${value}"]`));
  const chosen = await wim.page.select('#chat-to', value);
  assert(chosen.length === 1 && chosen[0] === value, `Wim's page cannot choose "${value}" to write to: ${chosen}`);
  await wim.page.type('#chat-text', text);
  const answer = await submit('#chat-send', (u) => u.includes('/messages'), `his message "${text}"`);
  assert(answer.status() === 201, `Wim's message was refused: ${answer.status()} ${await answer.text()}`);
  await wimWaits('the message field emptied once sent', wim.page.waitForFunction(() => document.getElementById('chat-text').value === ''));
}

const chatText = () => wim.page.$eval('#chat-list', (l) => [...l.querySelectorAll('li')].map((li) => li.textContent).join('\n'));

// ---- Mona: mail alone ----------------------------------------------------

const MONA = 'mona@example.org';
const mona = { seen: 0, latest: null, answered: true, mails: [] };

// The mail's words across its 72-column breaks.
const says = (mail, words) => (mail.text ?? '').replace(/\s+/g, ' ').includes(words.replace(/\s+/g, ' '));

function monaReads() {
  const all = server.mail.mails();
  for (; mona.seen < all.length; mona.seen++) {
    const m = all[mona.seen];
    if (!m.envelope_to?.includes(MONA)) continue;
    mona.mails.push(m);
    if (m.reply_to?.length) {
      mona.latest = m;
      mona.answered = false;
    }
  }
}

// The moves a mail offers, as notify/seat_text.h lists them: "  move"
// lines, or "  form:" headings with "    move" examples.
function offered(mail) {
  const text = mail?.text ?? '';
  const at = text.search(/oves you can make now|Your moves/);
  if (at < 0) return [];
  const moves = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (!line.startsWith(' ')) break;
    const l = line.trimEnd();
    if (l.startsWith('    ')) moves.push(l.slice(4));
    else if (l[2] !== ' ' && !l.endsWith(':') && !l.startsWith('  \u2026')) moves.push(l.slice(2));
  }
  return moves;
}

let mailCounter = 0;
function compose(to, subject, body, inReplyTo) {
  const id = `mona.${process.pid}.${++mailCounter}@client.example`;
  const head = [`From: Mona <${MONA}>`, `To: ${to}`, `Subject: ${subject}`, `Message-ID: <${id}>`,
    `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`, 'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8'];
  if (inReplyTo) head.push(`In-Reply-To: ${inReplyTo}`, `References: ${inReplyTo}`);
  return { id, raw: `${head.join('\r\n')}\r\n\r\n${body.replace(/\n/g, '\r\n')}\r\n` };
}

// Mona writes body (to the service's address, or as an answer to her
// latest mail) and gets the service's answer, threaded under it.
async function monaWrites(body, fresh = false) {
  monaReads();
  const to = fresh ? 'pbem@example.org' : mona.latest.reply_to[0];
  const mail = compose(to, fresh ? 'hello' : `Re: ${mona.latest.subject}`, body, fresh ? null : mona.latest.message_id);
  mona.answered = true;
  const handed = await server.mailIn(mail.raw);
  assert(handed.status === 0, `pbem mail-in refused Mona's mail (${handed.status}): ${handed.said}`);
  return until(`the answer to Mona's mail "${body.split('\n')[0]}"`, () => {
    monaReads();
    return mona.mails.find((m) => (m.in_reply_to ?? '').includes(mail.id));
  });
}

// Mona's turn: the newest mail she has not answered that lists her moves;
// she answers with talk (if any) and the last move listed.
async function monaMoves(talk = '') {
  const turn = await until('a mail to Mona listing her moves', () => {
    monaReads();
    return !mona.answered && offered(mona.latest).length ? mona.latest : null;
  });
  const moves = offered(turn);
  const answer = await monaWrites(`${talk}${moves[moves.length - 1]}`);
  assert(!says(answer, 'Refused:'), `Mona's mailed move was refused:\n${answer.text}`);
  assert(!talk || (says(answer, 'Message sent to everyone at the table.') && says(answer, 'Message sent privately to Ada')),
    `the answer to Mona's mail does not say her messages went:\n${answer.text}`);
}

// ---- the scene -----------------------------------------------------------

const ada = apiPlayer();
let adaStream = null;
let wimStream = null;
let id = null;
const seatOf = {}; // name → seat
const before = {}; // name → their ratings page before the match

// What each says, by marker: public to all, or private from → to.
// (Plain words: each is looked for as written in pages, JSON and mail.)
const PUBLIC = ['Ada says hello to the table', 'Wim waves from the page', 'Mona writes to all by mail',
  'Ada halfway: still anyone can win', 'Wim halfway: nice draws', 'Mona halfway: what a game'];
const PRIVATE = {
  ada_wim: ['Ada to Wim alone: shall we block Mona?', 'Ada to Wim alone: keep the red cards'],
  wim_mona: ['Wim to Mona alone: watch the treasures of Ada', 'Wim to Mona alone: I hold two masks'],
  mona_ada: ['Mona to Ada alone: between us two', 'Mona to Ada alone: I go out soon'],
};
const all = (...keys) => keys.flatMap((k) => PRIVATE[k]);

await t.test('Ada (API) opens a rated match, Wim (web) joins from Open matches, Mona (mail) joins by "join m_…"', staged(async () => {
  stage('Ada registers and opens the match');
  await ada.register('Ada');
  const made = await ada.call('POST', '/v1/matches',
    { game: GAME, seats: 3, open: true, options: { rounds: 1 }, deadline: { turn_hours: 48 } });
  id = made.match.id;
  stage('Ada follows her stream');
  adaStream = await follow(ada);
  stage('Wim registers');

  await wim.page.goto(`${server.origin}/`);
  await wim.page.waitForSelector('#sign-in form');
  await wim.page.type('#sign-in input[name=name]', 'Wim');
  await wim.page.click('#sign-in form button[type=submit]');
  await wim.page.waitForFunction(() => document.getElementById('who').textContent.includes('Wim'));
  stage('Wim joins from the lobby');
  await wim.page.goto(`${server.origin}/lobby`);
  await wim.page.waitForSelector(`#lobby-table tr[data-match="${id}"]`);
  const row = await wim.page.$eval(`#lobby-table tr[data-match="${id}"]`, (r) => r.textContent);
  assert(row.includes('Antiquity Quest') && row.includes('1 of 3 taken') && row.includes('rated') && row.includes('Ada'),
    `the lobby row of ${id}: ${row}`);
  await Promise.all([
    wim.page.waitForFunction((m) => location.pathname === `/matches/${m}` && document.getElementById('main').dataset.status, {}, id),
    wim.page.click(`#lobby-table button[data-join="${id}"]`),
  ]).catch(async (e) => {
    const page = await wim.page.evaluate(() => `${location.pathname}: ${document.getElementById('main').innerText}`);
    throw new Error(`Wim's join did not land on the match page (${e.message}); the page: ${page}`);
  });

  stage('Wim follows his stream');
  wimStream = await followInBrowser(wim);
  // Mona knows nobody: she writes to the service's address, confirms it
  // is her (a stranger's first mail asks), and is seated.
  stage('Mona joins by mail');
  const asked = await monaWrites(`join ${id}`, true);
  assert(says(asked, 'To go ahead, answer this mail'), `Mona's first mail is not asked to be confirmed:\n${asked.text}`);
  const seated = await monaWrites('yes');
  assert(says(seated, `You have seat 2 in match ${id}. Every seat is taken: the match has started.`),
    `Mona was not seated:\n${seated.text}`);

  const match = await pub(`/v1/matches/${id}`);
  assert(match.status === 'active', `the match is ${match.status}`);
  for (const s of match.seats) seatOf[s.name] = s.seat;
  assert(seatOf.Ada === 0 && seatOf.Wim === 1 && seatOf.Mona === 2, `the seats: ${JSON.stringify(match.seats)}`);
  for (const s of match.seats) {
    before[s.name] = await pub(`/v1/players/${s.player}/ratings`);
    assert(before[s.name].reliability === null && before[s.name].games.length === 0,
      `${s.name} has a standing before any match: ${JSON.stringify(before[s.name])}`);
  }
  await pageAt(wim, match.head.seq);
}));

// Who plays next, by the match's public state; null once it is over.
async function next() {
  const m = await pub(`/v1/matches/${id}`);
  return m.status === 'active' ? m.pending.seats[0] : null;
}

// Ada plays the last of her moves (the answer to a move is her view).
async function adaMoves() {
  const view = await ada.call('GET', `/v1/matches/${id}/view`);
  await ada.call('POST', `/v1/matches/${id}/moves`,
    { seq: view.head.seq, action: view.legal.moves[view.legal.moves.length - 1] });
}

// Each seat's say, by their own door: wave 0 at the start, wave 1 halfway.
async function talk(wave, seat) {
  if (seat === seatOf.Ada) {
    await ada.call('POST', `/v1/matches/${id}/messages`, { text: PUBLIC[3 * wave] });
    await ada.call('POST', `/v1/matches/${id}/messages`, { text: PRIVATE.ada_wim[wave], to: seatOf.Wim });
    return '';
  }
  if (seat === seatOf.Wim) {
    await wimSays(PUBLIC[3 * wave + 1]);
    await wimSays(PRIVATE.wim_mona[wave], seatOf.Mona);
    return '';
  }
  // Mona's talk rides in the mail of her move, before it.
  return `say ${PUBLIC[3 * wave + 2]}\n\nsay to Ada: ${PRIVATE.mona_ada[wave]}\n\n`;
}

let moves = 0;
await t.test('they play the whole match, each by their door, talking all through it', staged(async () => {
  assert(id, 'the match was not made');
  const talked = [new Set(), new Set()];
  let hinted = false;
  const doors = ['by the API', 'on the page', 'by mail'].map((door) => ({ door, moves: 0, ms: 0 }));
  for (let seat = await next(); seat !== null; seat = await next()) {
    assert(moves < 400, `still not over after ${moves} moves`);
    // Each talks at their first turn, and again at their first turn
    // after 20 moves.
    const wave = moves < 20 ? 0 : 1;
    stage(`move ${moves + 1}, by seat ${seat}`);
    let said = '';
    if (!talked[wave].has(seat)) {
      talked[wave].add(seat);
      said = await talk(wave, seat);
    }
    const began = Date.now();
    if (seat === seatOf.Ada) await adaMoves();
    else if (seat === seatOf.Wim) await wimMoves(id);
    else {
      if (!hinted) {
        // A line that is no command: the answer says how to talk.
        hinted = true;
        await until('Mona\'s turn mail', () => {
          monaReads();
          return !mona.answered && offered(mona.latest).length;
        });
        const answer = await monaWrites('Cheers, nice game so far');
        assert(says(answer, 'Not a move: this line is neither a command nor a move of this game') &&
          says(answer, '"say" and your words to write to the other players'),
        `the answer to a free-text line does not suggest "say":\n${answer.text}`);
      }
      await monaMoves(said);
    }
    doors[seat].moves++;
    doors[seat].ms += Date.now() - began;
    moves++;
  }
  const took = (d) => `${d.moves} ${d.door} in ${(d.ms / 1000).toFixed(1)} s`;
  console.log(`        (${moves} moves: Ada ${took(doors[0])}, Wim ${took(doors[1])}, Mona ${took(doors[2])})`);
  assert(talked[1].size === 3, `only seats ${[...talked[1]]} talked in the second half`);
}));

await t.test('each door reads the talk it should, and no private message reaches the third seat', async () => {
  const match = await pub(`/v1/matches/${id}`);
  assert(match.status === 'finished', `the match is ${match.status}`);
  // Ada: her messages and her stream hold the public talk, hers with Wim
  // and Mona's to her; never Wim's to Mona, nor does her view.
  const adaReads = JSON.stringify(await ada.call('GET', `/v1/matches/${id}/messages`));
  const adaShould = [...PUBLIC, ...all('ada_wim', 'mona_ada')];
  await until('Ada\'s stream to carry every message she may read',
    () => adaShould.every((x) => adaStream.text.includes(x)))
    .catch((e) => {
      const lacks = adaShould.filter((x) => !adaStream.text.includes(x));
      const lines = adaStream.text.split('\n').filter((l) => l.trim());
      // What the stream sent, by id, and what the database holds for her:
      // a missing row and a skipped one are different bugs.
      const ids = lines.map((l) => { try { return JSON.parse(l).stream_id; } catch { return undefined; } })
        .filter((x) => x !== undefined);
      const psql = (sql) => {
        try {
          return execFileSync('psql', ['-X', '-A', '-t', process.env.DATABASE_URL, '-c', sql], { encoding: 'utf8' });
        } catch (x) {
          return `(psql: ${x.message})`;
        }
      };
      const rows = psql(`SELECT stream_id || ' ' || reason || ' ' || created_at FROM player_stream
        WHERE player_id = ${/^p_\d+$/.test(ada.id) ? ada.id.slice(2) : 0} ORDER BY stream_id`);
      const talk = psql(`SELECT message_id || ' from seat ' || from_seat || ' to ' || coalesce(to_seat::text, 'all') ||
        ' at seq ' || seq || ' ' || created_at FROM match_messages ORDER BY created_at`);
      console.log(`        (Ada's stream sent the ids ${ids.join(',')}; her rows in player_stream:\n${rows}` +
        `        the messages at the table:\n${talk})`);
      throw new Error(`${e.message}: it lacks ${JSON.stringify(lacks)}; ` +
        `${adaStream.ended ? `the stream ended early (${adaStream.ended})` : 'the stream is still open'}; ` +
        `its last lines:\n${lines.slice(-6).join('\n')}`);
    });
  const adaView = JSON.stringify(await ada.call('GET', `/v1/matches/${id}/view`));
  for (const x of adaShould) assert(adaReads.includes(x), `Ada's messages lack "${x}": ${adaReads}`);
  for (const x of all('wim_mona')) {
    for (const [door, text] of [['messages', adaReads], ['stream', adaStream.text], ['view', adaView]]) {
      assert(!text.includes(x), `Ada's ${door} holds Wim's private "${x}"`);
    }
  }
  // Wim: his chat panel, his browser's stream and view; never Mona's to Ada.
  const wimShould = [...PUBLIC, ...all('ada_wim', 'wim_mona')];
  const panel = await until('Wim\'s chat panel to show every message he may read', async () => {
    const text = await chatText();
    return wimShould.every((x) => text.includes(x)) ? text : null;
  });
  for (const x of PRIVATE.ada_wim) assert(panel.includes(`Ada to you alone: ${x}`), `Wim's panel does not say "${x}" was to him alone:\n${panel}`);
  for (const x of PRIVATE.wim_mona) assert(panel.includes(`You to Mona alone: ${x}`), `Wim's panel does not say "${x}" went to Mona alone:\n${panel}`);
  const wimStreamed = await until('Wim\'s stream to carry every message he may read', async () => {
    const text = await wimStream.text();
    return wimShould.every((x) => text.includes(x)) ? text : null;
  });
  const wimView = JSON.stringify(await wimReads(`/v1/matches/${id}/view`));
  for (const x of all('mona_ada')) {
    for (const [door, text] of [['chat panel', panel], ['stream', wimStreamed], ['view', wimView]]) {
      assert(!text.includes(x), `Wim's ${door} holds Mona's private "${x}"`);
    }
  }
  // Mona: her mails, the result's included, carry the public talk of the
  // others and Wim's to her; never Ada's to Wim.
  const monaShould = [PUBLIC[0], PUBLIC[1], PUBLIC[3], PUBLIC[4], ...PRIVATE.wim_mona];
  await until('Mona\'s mails to carry every message of the others she may read', () => {
    monaReads();
    return monaShould.every((x) => mona.mails.some((m) => says(m, x)));
  });
  for (const x of PRIVATE.wim_mona) {
    assert(mona.mails.some((m) => says(m, `Wim, to you alone: ${x}`)), `Mona's mail does not say "${x}" was to her alone`);
  }
  for (const x of all('ada_wim')) {
    const leak = mona.mails.find((m) => says(m, x) || (typeof m.html === 'string' && m.html.includes(x)));
    assert(!leak, `Mona's mail "${leak?.subject}" holds Ada's private "${x}"`);
  }
  // Nor do the public log, the replay and the spectators' talk of the
  // finished match hold any private word.
  const spectators = JSON.stringify(await pub(`/v1/matches/${id}/messages`));
  const events = JSON.stringify(await pub(`/v1/matches/${id}/events`)) +
    JSON.stringify(await pub(`/v1/matches/${id}/replay?seq=${match.head.seq}`));
  for (const x of PUBLIC) assert(spectators.includes(x), `the spectators do not read "${x}"`);
  for (const x of all('ada_wim', 'wim_mona', 'mona_ada')) {
    assert(!spectators.includes(x) && !events.includes(x), `the public record holds the private "${x}"`);
  }
  // Wim's replay page shows the table's public talk, and no private word,
  // not even his own.
  const replay = await wim.context.newPage();
  try {
    await replay.goto(`${wim.origin}/matches/${id}/replay`);
    const replayTalk = await until('the replay page to show the public talk', async () => {
      const text = await replay.$eval('#chat-list', (e) => e.innerText).catch(() => '');
      return PUBLIC.every((x) => text.includes(x)) ? text : null;
    });
    for (const x of all('ada_wim', 'wim_mona', 'mona_ada')) {
      assert(!replayTalk.includes(x), `the replay page shows the private "${x}"`);
    }
    assert(await replay.$('#chat-form') === null, 'the replay page offers a form to talk');
  } finally {
    await replay.close();
  }
  await wim.page.bringToFront();
  // The finished match takes no more talk.
  const late = await ada.fetch('POST', `/v1/matches/${id}/messages`, { text: 'one more thing' });
  const refusal = await late.json();
  assert(late.status === 409 && refusal.error?.code === 'match_over', `a message after the end: ${late.status} ${JSON.stringify(refusal)}`);
});

await t.test('the match finished: ratings and reliability moved for all three, and Wim\'s page says who won', async () => {
  const match = await pub(`/v1/matches/${id}`);
  assert(match.status === 'finished', `the match is ${match.status}`);
  const first = match.result.ranking[0];
  const last = match.result.ranking[match.result.ranking.length - 1];
  const board = (await pub(`/v1/games/${GAME}/ratings`)).ratings;
  for (const s of match.seats) {
    const now = await pub(`/v1/players/${s.player}/ratings`);
    const game = now.games.find((g) => g.game === GAME);
    assert(now.reliability === 1, `${s.name}'s reliability after a match of turns all taken in time: ${now.reliability} (was ${before[s.name].reliability})`);
    assert(game && game.matches === 1 && game.deviation < 350 && game.history[0]?.match === id && game.history[0].before === 1500,
      `${s.name}'s standing in ${GAME}: ${JSON.stringify(game)}`);
    if (first.length === 1 && first[0] === s.seat) assert(game.rating > 1500 && game.wins === 1, `the winner ${s.name}: ${JSON.stringify(game)}`);
    if (last.length === 1 && last[0] === s.seat) assert(game.rating < 1500 && game.wins === 0, `the last, ${s.name}: ${JSON.stringify(game)}`);
    const row = board.find((r) => r.player === s.player);
    assert(row && row.rating === game.rating, `the leaderboard's row of ${s.name}: ${JSON.stringify(row)}`);
  }
  if (first.length === 1) {
    assert(board[0].player === match.seats[first[0]].player, `the leaderboard is not led by the winner: ${JSON.stringify(board)}`);
  }
  await pageAt(wim, match.head.seq);
  await wim.page.waitForFunction(() => document.getElementById('main').dataset.status === 'finished');
  const status = await wim.page.$eval('#match-status', (e) => e.textContent);
  const winners = first.map((s) => (s === seatOf.Wim ? 'You' : match.seats[s].name));
  assert(first.length === 1 ? status.startsWith(`${winners[0]} won.`) : status.includes('share the win'),
    `Wim's page does not say who won (${JSON.stringify(match.result.ranking)}): ${status}`);
});

adaStream?.stop();
await wimStream?.close();
await browser.close();
await server.stop();
process.exit(t.summary() === 0 ? 0 : 1);
