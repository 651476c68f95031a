// server.mjs: the real pbemd for the browser tests, started like
// tests/support/e2e.c does: $PBEM_BIN on a free loopback port against
// $DATABASE_URL, its key file in the run's TMPDIR; it dies with the test.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export async function startServer() {
  const bin = process.env.PBEM_BIN;
  if (!bin) throw new Error('PBEM_BIN is not set: run the tests with make test');
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run the tests with make test');
  const dir = mkdtempSync(join(process.env.TMPDIR || tmpdir(), 'pbem-web-'));
  const child = spawn(bin, [], {
    env: { ...process.env, PBEM_LISTEN: '127.0.0.1:0', PBEM_KEY_FILE: join(dir, 'service.key'), PBEM_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`pbemd exited (${code}) before serving; see its stderr above`)));
    lines.once('line', resolve);
  });
  const m = first.match(/http:\/\/127\.0\.0\.1:(\d+)/);
  if (!m) throw new Error(`unexpected first line from pbemd: ${first}`);
  child.stdout.resume();
  return {
    origin: `http://127.0.0.1:${m[1]}`,
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}
