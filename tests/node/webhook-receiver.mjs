// webhook-receiver.mjs: a Standard Webhooks receiver for the notification
// tests. Verifies every delivery with the official `standardwebhooks`
// library against the secrets in --secrets FILE (one whsec_ per line, read
// on every request, so a test can add them after registering), and appends
// one JSON line per request to --out FILE.
//   --fail N         answer the first N requests with --status (default 500)
//   --status CODE    the failure status (410, 503, 302 …)
//   --retry-after S  add Retry-After: S to failures
//   --hang N         never answer the first N requests (the service is
//                    killed meanwhile)
// Prints "listening PORT" once it accepts connections. With PBEM_E2E_RECORD
// set (scripts/test.sh), each Standard Webhooks delivery's body and headers
// are appended there too, for check-responses.mjs to hold against
// openapi.yaml's webhooks.
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const out = opt('out');
const secretsFile = opt('secrets');
const fail = Number(opt('fail', '0'));
const failStatus = Number(opt('status', '500'));
const retryAfter = opt('retry-after');
const hang = Number(opt('hang', '0'));
let count = 0;

function verify(body, headers) {
  let secrets = [];
  try {
    secrets = readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean);
  } catch {
    return { verified: false, error: 'no secrets file' };
  }
  let error = 'no secret';
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, headers);
      return { verified: true };
    } catch (e) {
      error = String(e.message || e);
    }
  }
  return { verified: false, error };
}

const recordFile = process.env.PBEM_E2E_RECORD;
function record(body, headers) {
  if (!recordFile || headers['webhook-id'] === undefined) return;
  let json;
  try { json = JSON.parse(body); } catch { json = null; }
  appendFileSync(recordFile, JSON.stringify({ item: 'webhook', json, headers }) + '\n');
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const n = ++count;
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': req.headers['webhook-id'],
      'webhook-timestamp': req.headers['webhook-timestamp'],
      'webhook-signature': req.headers['webhook-signature'],
    };
    const check = verify(body, headers);
    let status = 204;
    if (n <= hang) status = 0;
    else if (n <= hang + fail) status = failStatus;
    const line = {
      n, at: Date.now(), method: req.method, url: req.url,
      content_type: req.headers['content-type'], ...headers, ...check,
      status, body,
    };
    appendFileSync(out, JSON.stringify(line) + '\n');
    record(body, headers);
    if (status === 0) return; // hang: never answer
    const extra = {};
    if (status !== 204 && retryAfter) extra['Retry-After'] = retryAfter;
    if (status >= 300 && status < 400) extra.Location = `http://127.0.0.1:${server.address().port}/elsewhere`;
    res.writeHead(status, extra);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
