#!/usr/bin/env node
// bot.mjs: a pbem bot that plays a random legal move whenever it is the
// turn of the player who granted its key. It follows the player's event
// stream with its own Ed25519 key (a delegated key, docs/bots.md), signs
// every request per RFC 9421 itself, and resumes the stream where it left
// off after a dropped connection or a restart.
//
//   node bot.mjs key KEYFILE                 make the key if missing, print
//                                            its public key and key id
//   node bot.mjs play URL PLAYER KEYFILE [STATEFILE] [--matches N]
//
// KEYFILE holds the key's 32-byte seed in hex. STATEFILE (default
// KEYFILE.last-id) keeps the last stream id read. With --matches N the bot
// stops after N "match.over" items; SIGTERM or SIGINT stop it at once.
import { ed25519 } from '@noble/curves/ed25519';
import { blake2b } from '@noble/hashes/blake2b';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const log = (...words) => console.error('bot:', ...words);

function loadKey(file) {
    if (!existsSync(file)) {
        writeFileSync(file, bytesToHex(randomBytes(32)) + '\n', { mode: 0o600 });
    }
    const seed = hexToBytes(readFileSync(file, 'utf8').trim());
    const publicKey = ed25519.getPublicKey(seed);
    // The key id the service gives a key: k_ + hex of an 8-byte BLAKE2b.
    return { seed, publicKey, keyId: 'k_' + bytesToHex(blake2b(publicKey, { dkLen: 8 })) };
}

// The headers of a request signed per RFC 9421 by the bot's key, acting for
// player: the signature covers the method, the path, the body's digest and
// the Pbem-On-Behalf-Of header that names the player.
function sign(key, player, method, path, body) {
    const headers = { 'pbem-on-behalf-of': player };
    const components = [['@method', method], ['@path', path]];
    if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-digest'] = `sha-256=:${b64(sha256(body))}:`;
        components.push(['content-digest', headers['content-digest']]);
    }
    components.push(['pbem-on-behalf-of', player]);
    const params = `(${components.map(([name]) => `"${name}"`).join(' ')})` +
        `;created=${Math.floor(Date.now() / 1000)};keyid="${key.keyId}"` +
        `;alg="ed25519";nonce="${bytesToHex(randomBytes(16))}"`;
    const base = components.map(([name, value]) => `"${name}": ${value}`)
        .concat(`"@signature-params": ${params}`).join('\n');
    headers['signature-input'] = `sig=${params}`;
    headers['signature'] = `sig=:${b64(ed25519.sign(new TextEncoder().encode(base), key.seed))}:`;
    return headers;
}

class Bot {
    constructor(url, player, key, stateFile, matches) {
        Object.assign(this, { url, player, key, stateFile, matches });
        this.lastId = existsSync(stateFile) ? readFileSync(stateFile, 'utf8').trim() : '';
        this.done = new Set();   // "match/seq" turns already played
        this.over = 0;
        this.stopping = false;
    }

    async call(method, path, body) {
        const text = body === undefined ? undefined : JSON.stringify(body);
        const headers = sign(this.key, this.player, method, path, text);
        headers.prefer = 'return=representation';   // a move's answer holds our new view
        const res = await fetch(this.url + path, { method, body: text, headers });
        return { status: res.status, json: await res.json().catch(() => null) };
    }

    // A random legal move from a seat's view (GET .../view, or a move's
    // seat_view); null when the seat has nothing to do or played it already.
    pick(match, view) {
        const legal = view?.legal?.moves ?? [];
        if (legal.length === 0 || this.done.has(`${match}/${view.head.seq}`)) return null;
        this.done.add(`${match}/${view.head.seq}`);
        return { seq: view.head.seq, action: legal[Math.floor(Math.random() * legal.length)] };
    }

    async view(match) {
        return (await this.call('GET', `/v1/matches/${match}/view`)).json;
    }

    // One turn: a random move among those the item lists (text notation),
    // else among the legal moves of the seat's view; then, while the turn
    // stays ours (draw, then play), the next from the answer's seat_view:
    // the stream tells of a turn only when it comes to us. A stale seq (409)
    // means the turn was played already (by us before a restart) or moved
    // on: the view says whether it is still ours.
    async play(turn) {
        let move = null;
        if (!turn.moves?.length) {
            move = this.pick(turn.match, await this.view(turn.match));
        } else if (!this.done.has(`${turn.match}/${turn.seq}`)) {
            this.done.add(`${turn.match}/${turn.seq}`);
            move = { seq: turn.seq, move: turn.moves[Math.floor(Math.random() * turn.moves.length)] };
        }
        while (move) {
            const res = await this.call('POST', `/v1/matches/${turn.match}/moves`, move);
            log(`${turn.match} seq ${move.seq}: ${move.move ?? JSON.stringify(move.action)} -> ${res.status}`,
                res.json?.error?.code ?? '');
            if (res.status === 200) move = this.pick(turn.match, res.json.seat_view);
            else if (res.status === 409) move = this.pick(turn.match, await this.view(turn.match));
            else move = null;
        }
    }

    async handle(item) {
        if (item.type === 'match.your_turn') await this.play(item.data);
        if (item.type === 'match.over' && ++this.over >= this.matches) this.stop();
        // The id is saved once the item is handled, so a bot killed in
        // between reads the item again (and its move, then stale, is refused).
        if (item.stream_id !== undefined) {
            this.lastId = String(item.stream_id);
            writeFileSync(this.stateFile + '.tmp', this.lastId + '\n');
            renameSync(this.stateFile + '.tmp', this.stateFile);
        }
    }

    // Reads the stream (one JSON object per line) until it ends or stays
    // silent past two heartbeats; the caller reconnects.
    async follow() {
        const path = '/v1/players/me/stream';
        this.abort = new AbortController();
        const headers = { ...sign(this.key, this.player, 'GET', path), accept: 'application/x-ndjson' };
        if (this.lastId) headers['last-event-id'] = this.lastId;
        const res = await fetch(this.url + path, { headers, signal: this.abort.signal });
        if (res.status === 410) this.lastId = '';   // resume point too old: start afresh
        if (res.status !== 200) {
            log(`stream: ${res.status} ${await res.text()}`);
            const wait = Number(res.headers.get('retry-after') ?? 2);
            return new Promise((resolve) => setTimeout(resolve, wait * 1000));
        }
        log(`following ${this.player}'s stream` + (this.lastId ? ` after ${this.lastId}` : ''));
        let silence;
        const listen = () => {   // a stream silent past two heartbeats is dead
            clearTimeout(silence);
            silence = setTimeout(() => this.abort.abort(), 40_000);
        };
        try {
            listen();
            let text = '';
            for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
                listen();
                text += chunk;
                let end;
                while ((end = text.indexOf('\n')) >= 0 && !this.stopping) {
                    const line = text.slice(0, end).trim();
                    text = text.slice(end + 1);
                    if (line) await this.handle(JSON.parse(line));
                }
            }
        } finally {
            clearTimeout(silence);
        }
    }

    async run() {
        while (!this.stopping) {
            await this.follow().catch((e) => this.stopping || log(`stream: ${e.message}`));
            if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, 1000));
        }
    }

    stop() {
        this.stopping = true;
        this.abort?.abort();
    }
}

const [command, ...args] = process.argv.slice(2);
if (command === 'key' && args.length === 1) {
    const key = loadKey(args[0]);
    console.log(JSON.stringify({ public_key: b64(key.publicKey), key_id: key.keyId }));
} else if (command === 'play' && args.length >= 3) {
    const at = args.indexOf('--matches');
    const matches = at >= 0 ? Number(args.splice(at, 2)[1]) : Infinity;
    const [url, player, keyFile, stateFile = keyFile + '.last-id'] = args;
    const bot = new Bot(url.replace(/\/$/, ''), player, loadKey(keyFile), stateFile, matches);
    process.on('SIGTERM', () => bot.stop());
    process.on('SIGINT', () => bot.stop());
    await bot.run();
} else {
    console.error('usage: bot.mjs key KEYFILE\n' +
                  '       bot.mjs play URL PLAYER KEYFILE [STATEFILE] [--matches N]');
    process.exit(2);
}
