#!/usr/bin/env node
// sign-request.mjs: signs one HTTP request per RFC 9421 (alg="ed25519") with
// the npm package http-message-signatures, an implementation independent of
// service/ledger/httpsig.c, so tests can check that the two agree.
//
// Input: one JSON object, as the first argument or on stdin:
//   seed_hex    64 hex digits, the Ed25519 seed (libsodium's seed, RFC 8032's
//               private key)                                        (required)
//   keyid       the key id to put in keyid="..."                     (required)
//   method      "POST", "GET", ...                                   (required)
//   url         the full URL, e.g. "http://127.0.0.1:8080/v1/a%20b?x=1"
//                                                                    (required)
//   body        the body as a UTF-8 string; absent or null: no body
//   created     unix seconds; default: now
//   nonce       default: 16 random bytes in hex
//   components  the covered components; default: "@method", "@path", then
//               "@query" when the URL has a query, then "content-digest"
//               when there is a body
//   headers     other request headers ({name: value}) that components may
//               name
//   label       the signature's label; default "sig"
//
// Output on stdout: {"headers": {"content-digest": ..., "signature-input":
// ..., "signature": ...}} (no content-digest without a body). Errors go to
// stderr with a non-zero exit status. The seed is never printed.
import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSigner, httpbis } from 'http-message-signatures';

function fail(message) {
    process.stderr.write(`sign-request: ${message}\n`);
    process.exit(1);
}

function readInput() {
    const text = process.argv.length > 2 ? process.argv[2]
                                         : readFileSync(0, 'utf8');
    try {
        return JSON.parse(text);
    } catch (e) {
        fail(`the input is not JSON: ${e.message}`);
    }
}

// An Ed25519 seed becomes a private key object through its PKCS #8 DER form:
// a fixed 16-byte prefix (RFC 8410) followed by the 32 seed bytes.
function privateKeyFromSeed(seedHex) {
    if (typeof seedHex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(seedHex)) {
        fail('seed_hex must be 64 hex digits');
    }
    const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
    const der = Buffer.concat([prefix, Buffer.from(seedHex, 'hex')]);
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

async function main() {
    const input = readInput();
    for (const name of ['keyid', 'method', 'url']) {
        if (typeof input[name] !== 'string') {
            fail(`${name} must be a string`);
        }
    }
    const key = privateKeyFromSeed(input.seed_hex);
    const url = new URL(input.url);
    const hasBody = typeof input.body === 'string';
    const headers = { ...(input.headers ?? {}) };
    if (hasBody) {
        // The library signs the Content-Digest field but does not compute it.
        const digest = createHash('sha256').update(input.body, 'utf8')
                                           .digest('base64');
        headers['content-digest'] = `sha-256=:${digest}:`;
    }
    let components = input.components;
    if (!Array.isArray(components)) {
        components = ['@method', '@path'];
        if (url.search !== '') {
            components.push('@query');
        }
        if (hasBody) {
            components.push('content-digest');
        }
    }
    const created = input.created ?? Math.floor(Date.now() / 1000);
    const nonce = input.nonce ?? randomBytes(16).toString('hex');
    const signed = await httpbis.signMessage({
        key: createSigner(key, 'ed25519', input.keyid),
        name: input.label ?? 'sig',
        fields: components,
        params: ['created', 'keyid', 'alg', 'nonce'],
        paramValues: { created: new Date(created * 1000), nonce },
    }, { method: input.method, url: input.url, headers });
    const out = {};
    for (const [name, value] of Object.entries(signed.headers)) {
        const lower = name.toLowerCase();
        if (['content-digest', 'signature-input', 'signature'].includes(lower)) {
            out[lower] = value;
        }
    }
    process.stdout.write(JSON.stringify({ headers: out }) + '\n');
}

main().catch((e) => fail(e.message));
