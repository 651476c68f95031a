// server.mjs: the real pbemd for the browser tests, started like
// tests/support/e2e.c does: $PBEM_BIN on a loopback port against
// $DATABASE_URL, its key file in the run's TMPDIR; it dies with the test.
// Its mail goes to tests/node/smtp-receiver.mjs (a real SMTP server on
// loopback), so a test can read the sign-in link a person would get, and
// PBEM_PUBLIC_URL is the server's own address, so that link opens as is.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The first line a child prints, or a refusal when it exits first.
function firstLine(child, what) {
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before serving; see its stderr above`)));
    lines.once('line', (line) => {
      child.stdout.resume();
      resolve(line);
    });
  });
}

// A loopback port nobody listens on right now (the kernel's choice).
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startMailReceiver(dir) {
  const out = join(dir, 'mail.jsonl');
  const script = new URL('../node/smtp-receiver.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, '--out', out], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await firstLine(child, 'the SMTP receiver');
  const m = line.match(/^listening (\d+)$/);
  if (!m) throw new Error(`unexpected first line from the SMTP receiver: ${line}`);
  // Whole lines only: the receiver may be writing the next one as this
  // reads, and its unfinished tail is no mail yet.
  const mails = () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').slice(0, -1).filter(Boolean).map((l) => JSON.parse(l)) : []);
  return {
    url: `smtp://127.0.0.1:${m[1]}`,
    mails,
    // The newest mail to address whose subject matches, once it has come
    // (the outbox worker polls every 500 ms here).
    async waitFor(address, subject, after = 0, seconds = 20) {
      for (const end = Date.now() + seconds * 1000; Date.now() < end;) {
        const found = mails().slice(after).filter((x) => x.to?.some((t) => t.address === address) && subject.test(x.subject ?? ''));
        if (found.length) return found[found.length - 1];
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail "${subject}" to ${address} within ${seconds} s`);
    },
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

// A mail handed in as a mail server's pipe would: `pbem mail-in` signed
// with the mail key (made by `pbem keygen --mail`, its public half given
// to pbemd). Resolves to its exit status and what it said on stderr.
function mailInto(origin, keyFile) {
  return (raw) => new Promise((resolve, reject) => {
    const child = spawn(process.env.PBEM_CLI, ['mail-in', '--url', origin, '--key', keyFile],
      { stdio: ['pipe', 'ignore', 'pipe'] });
    let said = '';
    child.stderr.on('data', (c) => { said += c; });
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, said }));
    child.stdin.end(raw);
  });
}

function mailKey(dir) {
  const file = join(dir, 'mail.key');
  const said = execFileSync(process.env.PBEM_CLI, ['keygen', '--mail', file], { encoding: 'utf8' });
  const key = said.match(/^PBEM_MAIL_INBOUND_KEY=(\S+)$/m)?.[1];
  if (!key) throw new Error(`pbem keygen --mail printed no PBEM_MAIL_INBOUND_KEY line: ${said}`);
  return { file, key };
}

// options.mailIn: people may also write to the service (its address
// pbem@example.org): server.mailIn(raw) hands a mail in. options.env:
// more variables for pbemd (not those set below, which stay).
export async function startServer(options = {}) {
  const bin = process.env.PBEM_BIN;
  if (!bin) throw new Error('PBEM_BIN is not set: run the tests with make test');
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run the tests with make test');
  const dir = mkdtempSync(join(process.env.TMPDIR || tmpdir(), 'pbem-web-'));
  const mail = await startMailReceiver(dir);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const inbound = options.mailIn ? mailKey(dir) : null;
  const more = { ...(inbound ? { PBEM_MAIL_INBOUND_KEY: inbound.key, PBEM_MAIL_REPLY_TO: 'pbem@example.org' } : {}),
                 ...(options.env ?? {}) };
  const child = spawn(bin, [], {
    env: { ...process.env, ...more, PBEM_LISTEN: `127.0.0.1:${port}`, PBEM_KEY_FILE: join(dir, 'service.key'), PBEM_QUIET: '1',
           PBEM_PUBLIC_URL: origin, PBEM_SMTP_URL: mail.url, PBEM_MAIL_FROM: 'pbem <turns@pbem.example>',
           PBEM_NOTIFY_POLL_MS: '500', PBEM_NOTIFY_BACKOFF_MS: '200' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await firstLine(child, 'pbemd');
  if (!first.includes(origin)) throw new Error(`unexpected first line from pbemd: ${first}`);
  return {
    origin,
    mail,
    mailIn: inbound ? mailInto(origin, inbound.file) : null,
    stop: async () => {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      await mail.stop();
    },
  };
}
