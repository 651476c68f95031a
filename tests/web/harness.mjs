// harness.mjs: what every browser scenario uses: Chromium driven by
// puppeteer-core, each page's network log (every request must go to the
// server, every page answer must carry the CSP), CSP violations reported
// by the page itself, and axe-core's accessibility check.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync } from 'node:fs';

const require = createRequire(new URL('../node/package.json', import.meta.url));
const puppeteer = require('puppeteer-core');
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export async function launch() {
  return puppeteer.launch({
    executablePath: process.env.PBEM_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--disable-default-apps', '--disable-extensions', '--metrics-recording-only'],
  });
}

// A browser profile of its own (cookies, IndexedDB: its own key) with one
// page watched: net holds every request the page made.
export async function profile(browser, origin, viewport) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(viewport);
  page.setDefaultTimeout(20000);
  const watch = { page, context, requests: [], documents: [], violations: [], errors: [] };
  page.on('request', (r) => watch.requests.push(r.url()));
  page.on('response', (r) => {
    if (r.request().resourceType() === 'document') watch.documents.push({ url: r.url(), headers: r.headers(), status: r.status() });
  });
  page.on('pageerror', (e) => watch.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) watch.violations.push(m.text());
  });
  await page.evaluateOnNewDocument(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  watch.origin = origin;
  return watch;
}

// axe-core in the page (evaluated through the DevTools protocol, which the
// page's CSP does not govern): every finding, whatever its impact.
export async function axe(page) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

export function screenshotDir() {
  const dir = new URL('../../build/screenshots/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  return dir;
}

// Tiny test runner: named checks, a count like Criterion's synthesis.
export function runner() {
  const results = [];
  return {
    async test(name, fn) {
      const began = Date.now();
      try {
        await fn();
        results.push({ name, ok: true });
        console.log(`[PASS] ${name} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
      } catch (e) {
        results.push({ name, ok: false });
        console.log(`[FAIL] ${name}: ${e.stack ?? e}`);
      }
    },
    // extra: checks that failed outside any test (a timeout of the run).
    summary(extra = 0) {
      const passing = results.filter((r) => r.ok).length;
      const tested = results.length + extra;
      console.log(`[browser] Tested: ${tested} | Passing: ${passing} | Failing: ${tested - passing}`);
      return tested - passing;
    },
  };
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}
