// jcs-check.mjs: the hash chain checked with an independent RFC 8785 (JCS)
// implementation (the npm `canonicalize` package) and BLAKE2b-256 from
// `@noble/hashes`, none of pbem's code.
//
//   node jcs-check.mjs chain EVENTS.json   a match's public log (a JSON array
//       of events as GET /v1/matches/{id}/events answers them): each hash is
//       BLAKE2b-256(previous hash || JCS(event without hash and prev_hash));
//       prints "ok N" or the first event that does not chain, exit 1.
//   node jcs-check.mjs values VALUES.json  a JSON array: prints each
//       element's JCS text on a line of its own (as JSON strings, so any
//       byte survives the line).
import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { blake2b } from '@noble/hashes/blake2b';

const [mode, file] = process.argv.slice(2);
const input = JSON.parse(readFileSync(file, 'utf8'));
const hex = (bytes) => Buffer.from(bytes).toString('hex');

if (mode === 'values') {
  for (const value of input) console.log(JSON.stringify(canonicalize(value)));
} else if (mode === 'chain') {
  let prev = new Uint8Array(32);
  for (const event of input) {
    const { hash, prev_hash: prevHash, text, ...body } = event;
    if (prevHash !== hex(prev)) {
      console.log(`event ${event.seq}: prev_hash is not the previous hash`);
      process.exit(1);
    }
    const bytes = new TextEncoder().encode(canonicalize(body));
    const joined = new Uint8Array(32 + bytes.length);
    joined.set(prev, 0);
    joined.set(bytes, 32);
    const computed = blake2b(joined, { dkLen: 32 });
    if (hex(computed) !== hash) {
      console.log(`event ${event.seq} (${event.kind}): JCS hashes to ${hex(computed)}, the log says ${hash}`);
      process.exit(1);
    }
    prev = computed;
  }
  console.log(`ok ${input.length}`);
} else {
  console.error('usage: node jcs-check.mjs chain|values FILE');
  process.exit(2);
}
