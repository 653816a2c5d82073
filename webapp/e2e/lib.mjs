// Shared helpers for the browser tests: start the real `kj serve` on a free port with a
// fresh data directory, launch Debian's Chromium through playwright-core, and give each flow
// a small test API (test, screenshot, text) that fails on any page or console error.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const e2eDir = dirname(fileURLToPath(import.meta.url));
export const screenshotsDir = join(e2eDir, 'screenshots');
const localesDir = join(e2eDir, '..', 'src', 'i18n', 'locales');

/**
 * Server settings the flows rely on: USDT deposit addresses so the recharge screen has its
 * protocols, and X-Forwarded-For trusted so a flow can give its requests their own client
 * address (per-address limits, e.g. 10 registrations an hour, then count per flow).
 */
export const SERVER_ENV = {
  KJ_USDT_TRC20_ADDRESS: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  KJ_USDT_ERC20_ADDRESS: '0x4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b',
  KJ_TRUST_PROXY: 'true',
};

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not pick a free port'));
      });
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `<bin> args...` with the environment given; resolves with its standard output. */
export function runKj(bin, args, env = {}) {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`kj ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * Starts `<bin> serve` with KJ_ADDR=127.0.0.1:<port> and KJ_DATA_DIR=<fresh temp dir> and
 * waits until /healthz answers 200 (30 s deadline); "{port}" in an `env` value becomes the
 * port. `stop()` always kills it. With `demo`,
 * `kj seed --demo` fills the fresh store first; its output (the operator's password) is
 * `seedOutput`. `run(args)` runs another kj command on the same store.
 */
export async function startServer(bin, { deadlineMs = 30_000, env: envTemplate = {}, demo = false } = {}) {
  const port = await freePort();
  // "{port}" in a value is the port the server listens on (addresses of the server itself).
  const env = Object.fromEntries(Object.entries(envTemplate).map(([key, value]) => [key, String(value).replaceAll('{port}', String(port))]));
  const dataDir = mkdtempSync(join(tmpdir(), 'kj-e2e-'));
  const storeEnv = { ...env, KJ_DATA_DIR: dataDir };
  const run = (args) => runKj(bin, args, storeEnv);
  let seedOutput = '';
  if (demo) {
    try {
      seedOutput = await run(['seed', '--demo']);
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const logPath = join(dataDir, 'server.log');
  const log = createWriteStream(logPath);
  const child = spawn(bin, ['serve'], {
    env: { ...process.env, ...env, KJ_ADDR: `127.0.0.1:${port}`, KJ_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
    child.on('error', (error) => {
      exited = { code: null, signal: null, error };
      resolve();
    });
  });

  const baseURL = `http://127.0.0.1:${port}`;
  const logTail = (lines = 40) => {
    try {
      return readFileSync(logPath, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exitPromise.then(() => true), sleep(5_000).then(() => false)]);
      if (!killed && !exited) {
        child.kill('SIGKILL');
        await exitPromise;
      }
    }
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (exited) {
      const reason = exited.error ? exited.error.message : `exit code ${exited.code} signal ${exited.signal}`;
      const tail = logTail();
      await stop();
      throw new Error(`kj serve stopped before it was healthy (${reason})\n${tail}`);
    }
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const tail = logTail();
      await stop();
      throw new Error(`kj serve was not healthy at ${baseURL}/healthz within ${deadlineMs} ms\n${tail}`);
    }
    await sleep(200);
  }
  return { baseURL, port, dataDir, stop, logTail, pid: child.pid, seedOutput, run };
}

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Reads a translation from the app's own locale files (so flows run in every language). */
export function loadTexts(language) {
  // One file per feature namespace (locales/<namespace>/<language>.json); their top-level groups never overlap.
  const tree = Object.assign(
    {},
    ...readdirSync(localesDir).map((namespace) => JSON.parse(readFileSync(join(localesDir, namespace, `${language}.json`), 'utf8'))),
  );
  const lookup = (key) => {
    let node = tree;
    for (const part of key.split('.')) {
      node = node && typeof node === 'object' ? node[part] : undefined;
    }
    return node;
  };
  const plural = new Intl.PluralRules(language === 'zh-HANT' ? 'zh-Hant' : language);
  return (key, values = {}) => {
    let node = lookup(key);
    // Plural keys (key_one, key_other ...) are chosen by `count`, as i18next does.
    if (node === undefined && typeof values.count === 'number') {
      node = lookup(`${key}_${plural.select(values.count)}`) ?? lookup(`${key}_other`);
    }
    if (typeof node !== 'string') throw new Error(`no translation ${key} in ${language}`);
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => String(values[name] ?? ''));
  };
}

/** i18next keys zh-HANT as zh-Hant; <html lang> carries the i18next code. */
export function htmlLang(language) {
  return language === 'zh-HANT' ? 'zh-Hant' : language;
}

/** Counts passes and failures and prints one line per test. */
export function createReport() {
  const report = { passed: 0, failed: 0, failures: [] };
  report.pass = (name) => {
    report.passed += 1;
    console.log(`ok   ${name}`);
  };
  report.fail = (name, error) => {
    report.failed += 1;
    report.failures.push({ name, error });
    console.log(`FAIL ${name}`);
    console.log(indent(error instanceof Error ? (error.stack ?? error.message) : String(error)));
  };
  return report;
}

/**
 * One attempt of a flow: results are kept, not printed, until the runner knows whether the
 * attempt counts (see runFlow in run.mjs); then they go to the run's report in order.
 */
export function createAttempt() {
  const entries = [];
  const attempt = {
    failures: [],
    pass: (name) => entries.push({ name }),
    fail: (name, error) => {
      entries.push({ name, error, failed: true });
      attempt.failures.push({ name, error });
    },
    replayInto: (report) => {
      for (const e of entries) (e.failed ? report.fail(e.name, e.error) : report.pass(e.name));
    },
  };
  return attempt;
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');
}

/**
 * A fresh mobile browser context (390 x 844, touch) in `language`, with a collector of page
 * errors and console errors. Every test fails when one shows up while it runs.
 */
export async function openSession(browser, { baseURL, language, colorScheme = 'light' }) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    screen: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: language === 'zh-HANT' ? 'zh-TW' : language,
    colorScheme,
    // Screenshots should not catch a page mid-animation; this also exercises the
    // prefers-reduced-motion path of the route animation.
    reducedMotion: 'reduce',
  });
  // The app reads its language from local storage (the user_language key).
  await context.addInitScript((lng) => {
    try {
      if (!window.localStorage.getItem('user_language')) window.localStorage.setItem('user_language', lng);
    } catch {
      // A sandboxed frame (the webview modal) has no storage; the app itself always does.
    }
  }, language);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors = [];
  page.on('pageerror', (error) => {
    errors.push(`page error: ${error.message}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const location = message.location();
      // Every browser of a run comes from one address, so the server's per-address limit on
      // /zztj statistics beacons (deliberate: 120 a minute) refuses some of them over a long run,
      // and Chromium logs each refused request. A refused beacon is not a failure of the page.
      if (location.url?.endsWith('/api/zztj') && message.text().includes('429')) return;
      errors.push(`console error: ${message.text()}${location.url ? ` (${location.url}:${location.lineNumber})` : ''}`);
    }
  });
  return { context, page, errors };
}

/**
 * The object a flow receives. `t.test(name, fn)` runs one check; `t.page` is the flow's page;
 * `t.text(key)` a translation in the run's language; `t.screenshot(name)` saves a PNG;
 * `t.kjBin` and `t.dataDir` are the server's binary and KJ_DATA_DIR (for `kj admin ...`).
 */
export function createFlowContext({ flowName, language, baseURL, session, report, server = null, kjBin, dataDir, browser }) {
  const texts = loadTexts(language);
  mkdirSync(screenshotsDir, { recursive: true });
  // More browser contexts (other users) a flow opens; their errors fail the test too.
  const sessions = [session];
  return {
    language,
    baseURL,
    /** The server this flow runs against: seedOutput, run(args) for kj commands on its store. */
    server,
    /** POST /api<path> with a JSON body (and the token header); resolves with the envelope. */
    api: (path, body = {}, token = '') => apiCall(baseURL, path, body, token),
    kjBin,
    dataDir,
    page: session.page,
    context: session.context,
    text: texts,
    htmlLang: htmlLang(language),
    url: (path) => new URL(path, baseURL).toString(),
    /** Where `screenshot(name)` saves, for pages of other contexts. */
    screenshotPath: (name) => join(screenshotsDir, `${flowName}-${name}-${language}.png`),
    async screenshot(name, page = session.page) {
      const file = join(screenshotsDir, `${flowName}-${name}-${language}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
    /** Another user: a fresh context and page in the run's language, closed by dispose(). */
    async openSession() {
      const extra = await openSession(browser, { baseURL, language });
      sessions.push(extra);
      return extra;
    },
    async dispose() {
      for (const extra of sessions.slice(1)) await extra.context.close().catch(() => undefined);
    },
    async test(name, fn) {
      const fullName = `[${language}] ${flowName}: ${name}`;
      const errorsBefore = sessions.map((s) => s.errors.length);
      try {
        await fn();
        const fresh = sessions.flatMap((s, i) => s.errors.slice(errorsBefore[i] ?? 0));
        if (fresh.length > 0) throw new Error(fresh.join('\n'));
        report.pass(fullName);
      } catch (error) {
        report.fail(fullName, error);
      }
    },
  };
}

/** One call of the real API from the test runner (not the browser): the `{code, message, data}` envelope. */
export async function apiCall(baseURL, path, body = {}, token = '') {
  const headers = { 'Content-Type': 'application/json', 'Accept-Language': 'en-US' };
  if (token) headers.token = token;
  const response = await fetch(new URL(`/api${path}`, baseURL), {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`POST /api${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
}
