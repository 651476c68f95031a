// verify.js: a finished match checked in the browser from its public log
// alone, without trusting the server's own check (GET …/verify):
// - the hash chain: each event's hash is BLAKE2b-256(previous hash ‖ RFC
//   8785 JSON of the event without hash and prev_hash), 32 zero bytes
//   before the first (service/ledger/chain.h);
// - every revealed or voided choice opens its seat's commitment:
//   BLAKE2b-256("pbem/choice-commitment/v1" 0 match 0 decision 0 seat 0
//   choice 0 nonce) (service/ledger/seal.c);
// - the revealed seed opens the created event's seed_commitment:
//   BLAKE2b-256("pbem/seed-commitment/v1" ‖ seed).
import { blake2b } from '/vendor/@noble/hashes/blake2.js';
import { canonicalize } from './jcs.js';
import { hex } from './keys.js';

const utf8 = new TextEncoder();

function fromHex(text) {
  if (typeof text !== 'string' || !/^([0-9a-f]{2})*$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (b) => parseInt(b, 16));
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// The chain of events (oldest first, from seq 1): {ok, checked, problem}.
export function checkChain(events) {
  let prev = new Uint8Array(32);
  for (const event of events) {
    const { hash, prev_hash: prevHash, text, ...body } = event;
    if (prevHash !== hex(prev)) {
      return { ok: false, checked: event.seq - 1,
               problem: `event ${event.seq}: its prev_hash is not the hash of the event before it` };
    }
    // An old mailed move whose public form withholds the sender's address
    // cannot be hashed again without it: its recorded hash stands.
    if (Array.isArray(body.withheld) && body.withheld.length > 0 && /^[0-9a-f]{64}$/.test(hash)) {
      prev = fromHex(hash);
      continue;
    }
    const computed = blake2b(concat([prev, utf8.encode(canonicalize(body))]), { dkLen: 32 });
    if (hex(computed) !== hash) {
      return { ok: false, checked: event.seq - 1,
               problem: `event ${event.seq} (${event.kind}): its content hashes to ${hex(computed)}, the log says ${hash}` };
    }
    prev = computed;
  }
  return { ok: true, checked: events.length, problem: null };
}

export function choiceCommitment(match, decision, seat, action, nonceHex) {
  const zero = new Uint8Array([0]);
  const parts = [];
  for (const text of ['pbem/choice-commitment/v1', match, decision, String(seat), canonicalize(action)]) {
    parts.push(utf8.encode(text), zero);
  }
  parts.push(fromHex(nonceHex) ?? new Uint8Array(0));
  return hex(blake2b(concat(parts), { dkLen: 32 }));
}

// Commitments and the seed: {ok, checked, problem}.
export function checkSeals(events) {
  const commitments = new Map(); // "decision/seat" → commitment
  let checked = 0;
  let seedCommitment = null;
  for (const e of events) {
    const d = e.data ?? {};
    if (e.kind === 'created') seedCommitment = d.seed_commitment ?? null;
    if (e.kind === 'committed') commitments.set(`${d.decision}/${e.seat}`, d.commitment);
    if (e.kind === 'revealed' || e.kind === 'voided') {
      const expected = commitments.get(`${d.decision}/${e.seat}`);
      const opened = choiceCommitment(e.match, d.decision, e.seat, d.action, d.nonce);
      if (expected === undefined || opened !== expected) {
        return { ok: false, checked, problem: `event ${e.seq}: seat ${e.seat}'s revealed choice does not open its commitment` };
      }
      checked++;
    }
    if ((e.kind === 'finished' || e.kind === 'aborted') && d.seed !== undefined) {
      const seed = fromHex(d.seed);
      const opened = seed && hex(blake2b(concat([utf8.encode('pbem/seed-commitment/v1'), seed]), { dkLen: 32 }));
      if (opened !== seedCommitment) {
        return { ok: false, checked, problem: `event ${e.seq}: the revealed seed does not open the seed commitment` };
      }
      checked++;
    }
  }
  return { ok: true, checked, problem: null };
}

// Every event of a match's public log, page by page.
export async function allEvents(call, match) {
  const events = [];
  for (let after = 0; ;) {
    const page = await call('GET', `/v1/matches/${match}/events?after=${after}&limit=500`);
    events.push(...page.events);
    if (page.events.length === 0 || after >= page.head) break;
    after = page.events[page.events.length - 1].seq;
    if (after >= page.head) break;
  }
  return events;
}
