// push-service.mjs: a Web Push service (RFC 8030) for the notification
// tests, standing in for the browser vendors' services, which cannot be
// reached here. It makes one subscription as a browser would (a P-256 key
// pair and a 16-byte auth secret, kept here like a browser keeps them) and
// writes it as the first JSON line of --out: {"subscription": {endpoint,
// keys: {p256dh, auth}}}. Every push to it is checked the way a push
// service and a browser check it, with Node's own crypto, independently of
// the service's C code:
//   - the VAPID signature (RFC 8292): "Authorization: vapid t=JWT, k=KEY",
//     an ES256 JWT verified with k, its "aud" this service's origin, its
//     "exp" in the future and within 24 hours, its "sub" a mailto: or
//     https: contact;
//   - Content-Encoding aes128gcm and a TTL header (RFC 8030);
//   - the payload decrypted with the subscription's private key and auth
//     secret (RFC 8291, RFC 8188).
// Each push appends a JSON line: {n, verified, error, notice (the
// decrypted JSON), ttl, status}.
//   --status CODE   answer every push with CODE instead of 201 (410: the
//                   subscription is gone)
// Prints "listening PORT" once it accepts connections.
import crypto from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const out = opt('out');
const answer = Number(opt('status', '201'));

const browser = crypto.createECDH('prime256v1');
browser.generateKeys();
const auth = crypto.randomBytes(16);
let count = 0;

const b64u = (s) => Buffer.from(s, 'base64url');

function checkVapid(header, origin) {
  const m = /^vapid t=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`Authorization is not "vapid t=…, k=…": ${header}`);
  const [, h, c, s, k] = m;
  const jose = JSON.parse(b64u(h).toString('utf8'));
  if (jose.alg !== 'ES256' || jose.typ !== 'JWT') throw new Error(`JWT header ${JSON.stringify(jose)}`);
  const point = b64u(k);
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, b64u(s));
  if (!ok) throw new Error('the VAPID signature does not verify with k');
  const claims = JSON.parse(b64u(c).toString('utf8'));
  const now = Date.now() / 1000;
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud}, not ${origin}`);
  if (!(claims.exp > now && claims.exp <= now + 86400)) throw new Error(`exp ${claims.exp} is not within 24 hours`);
  if (!/^(mailto:|https?:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub} is no contact`);
  return { claims, vapid_key: k };
}

// The browser's side of RFC 8291 section 3.4 and RFC 8188.
function decrypt(body) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  if (idlen !== 65) throw new Error(`key id of ${idlen} bytes`);
  const asPublic = body.subarray(21, 86);
  const record = body.subarray(86);
  if (rs < 18 || record.length > rs) throw new Error(`record of ${record.length} bytes, record size ${rs}`);
  const ecdh = browser.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), browser.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdh, auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record has no delimiter 0x02');
  return JSON.parse(padded.subarray(0, end).toString('utf8'));
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const n = ++count;
    const origin = `http://127.0.0.1:${server.address().port}`;
    const line = { n, at: Date.now(), method: req.method, url: req.url, ttl: req.headers.ttl, status: answer };
    try {
      if (req.method !== 'POST' || req.url !== '/push/1') throw new Error(`${req.method} ${req.url}`);
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${req.headers['content-encoding']}`);
      if (!/^\d+$/.test(req.headers.ttl ?? '')) throw new Error('no TTL header');
      Object.assign(line, checkVapid(req.headers.authorization, origin));
      line.notice = decrypt(Buffer.concat(chunks));
      line.verified = true;
    } catch (e) {
      line.verified = false;
      line.error = String(e.message || e);
    }
    appendFileSync(out, JSON.stringify(line) + '\n');
    res.writeHead(line.verified ? answer : 400);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  const subscription = {
    endpoint: `http://127.0.0.1:${server.address().port}/push/1`,
    expirationTime: null,
    keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
  appendFileSync(out, JSON.stringify({ subscription }) + '\n');
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
