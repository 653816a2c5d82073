// A guest's first visit on a slow phone network: the whole first screen within 250 KiB on the
// wire and the app shell on screen within 2 s at 1.6 Mbit/s down and 150 ms round trips, one
// language's texts only, the scripts precompressed; switching the language later loads the new
// one on that network without ever showing a bare translation key.
import assert from 'node:assert/strict';
import { registerUser, signInThroughUi, uniqueName, flowAddress } from '../helpers/accounts.mjs';

const BUDGET_BYTES = 250 * 1024;
const BUDGET_SHELL_MS = 2_000;
/** Chrome's throughputs are bytes per second. */
const SLOW_PHONE = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1_000_000) / 8,
  uploadThroughput: (750 * 1_000) / 8,
};
const LANGUAGES = ['zh-CN', 'zh-HANT', 'en-US', 'es-ES', 'ms-MY', 'vi-VN'];
/** A language pack is a chunk named after its language (webapp/src/i18n/packs). */
const packOf = (url) => LANGUAGES.find((language) => new RegExp(`/assets/${language}-[\\w-]+\\.js$`).test(url));

/**
 * Records what the page downloads over CDP: per request its URL, its encoding and the bytes
 * that crossed the network (encodedDataLength: headers and body as sent).
 */
async function recordNetwork(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', SLOW_PHONE);
  const requests = new Map();
  const entry = (id) => {
    if (!requests.has(id)) requests.set(id, { url: '', encoding: '', bytes: 0, done: false, start: 0, end: 0 });
    return requests.get(id);
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    entry(e.requestId).url = e.request.url;
    entry(e.requestId).start = e.timestamp;
  });
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    entry(e.requestId).encoding = headers['content-encoding'] ?? '';
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = entry(e.requestId);
    r.bytes = e.encodedDataLength;
    r.end = e.timestamp;
    r.done = true;
  });
  cdp.on('Network.loadingFailed', (e) => {
    entry(e.requestId).done = true;
  });
  const list = () => [...requests.values()];
  return {
    cdp,
    list,
    total: () => list().reduce((sum, r) => sum + r.bytes, 0),
    /** Resolves once nothing has been in flight for `quietMs`. */
    async settled(quietMs = 700) {
      let quietSince = Date.now();
      for (;;) {
        if (list().some((r) => !r.done)) quietSince = Date.now();
        else if (Date.now() - quietSince >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Its time budget needs the box to itself: the runner runs it after the lanes (run.mjs). */
export const alone = true;

export default async function firstLoad(t) {
  const { page } = t;
  page.setDefaultTimeout(30_000);
  // When the tab bar first has a box, in the page's own clock (0 = navigation start).
  await page.addInitScript(() => {
    const seen = () => {
      const nav = document.querySelector('nav a[data-tab]');
      if (!nav || nav.getBoundingClientRect().height === 0) return false;
      requestAnimationFrame(() => {
        window.__kjShellVisibleAt ??= performance.now();
      });
      return true;
    };
    new MutationObserver((_, observer) => {
      if (seen()) observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });

  await t.test('a guest\'s first screen: ≤ 250 KiB transferred and the shell within 2 s at 1.6 Mbit/s, 150 ms', async () => {
    const network = await recordNetwork(page);
    try {
      await page.goto(t.url('/'), { waitUntil: 'commit' });
      const nav = page.getByRole('navigation', { name: t.text('tabs.navigation') });
      await nav.waitFor();
      await page.waitForFunction(() => typeof window.__kjShellVisibleAt === 'number');
      await network.settled();
      const shellMs = await page.evaluate(() => window.__kjShellVisibleAt);
      const total = network.total();
      const t0 = Math.min(...network.list().map((r) => r.start));
      const ms = (ts) => String(Math.round((ts - t0) * 1000)).padStart(5);
      const rows = network
        .list()
        .filter((r) => r.bytes > 0)
        .sort((a, b) => a.start - b.start)
        .map((r) => `${ms(r.start)}-${ms(r.end)} ms ${String(r.bytes).padStart(7)} ${r.encoding || '-'} ${new URL(r.url).pathname}`);
      console.log(`     first screen (${t.language}): ${(total / 1024).toFixed(1)} KiB, shell at ${Math.round(shellMs)} ms\n     ${rows.join('\n     ')}`);
      assert.ok(total <= BUDGET_BYTES, `${(total / 1024).toFixed(1)} KiB transferred, budget 250 KiB`);
      assert.ok(shellMs <= BUDGET_SHELL_MS, `shell visible after ${Math.round(shellMs)} ms, budget ${BUDGET_SHELL_MS} ms`);

      const packs = network.list().map((r) => packOf(r.url)).filter(Boolean);
      assert.deepEqual(packs, [t.language], 'only the language shown is downloaded');
      // Files under 1 KiB are sent as they are (the build compresses from 1 KiB up).
      const scripts = network.list().filter((r) => /\/assets\/.+\.(js|css)$/.test(r.url) && r.bytes > 2048);
      assert.ok(scripts.length >= 3, 'the page loads its scripts');
      for (const r of scripts) {
        assert.equal(r.encoding, 'br', `${new URL(r.url).pathname} travels brotli-compressed`);
      }
      await t.screenshot('first-screen');
    } finally {
      await network.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await network.cdp.detach().catch(() => undefined);
    }
  });

  await t.test('switching the language on the slow network loads its texts and never shows a bare key', async () => {
    const account = uniqueName('load_');
    const password = 'loadPass123';
    await registerUser(t.baseURL, { account, password, address: flowAddress() });
    await page.goto(t.url('/pages/auth/login'));
    await signInThroughUi(t, { account, password });
    await page.waitForURL((url) => url.pathname !== '/pages/auth/login');
    await page.goto(t.url('/pages/my/language-setting'));
    await page.getByRole('heading', { level: 1, name: t.text('pages.languageSetting.title'), exact: true }).waitFor();

    const target = t.language === 'vi-VN' ? 'es-ES' : 'vi-VN';
    const network = await recordNetwork(page);
    try {
      // Every text the page ever shows from here on, to catch a key shown for a moment.
      await page.evaluate(() => {
        window.__kjTexts = new Set();
        const collect = () => {
          for (const line of document.body.innerText.split('\n')) window.__kjTexts.add(line.trim());
        };
        collect();
        new MutationObserver(collect).observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      await page.getByRole('radio', { name: { 'vi-VN': 'Tiếng Việt', 'es-ES': 'Español' }[target] }).check();
      await page.waitForFunction((lang) => document.documentElement.lang === lang, target);
      await network.settled();
      const texts = await page.evaluate(() => [...window.__kjTexts]);
      const keys = texts.filter((line) => /^[a-z][A-Za-z]*(\.[A-Za-z0-9_]+){1,}$/.test(line));
      assert.deepEqual(keys, [], 'no translation key shown');
      const packs = network.list().map((r) => packOf(r.url)).filter(Boolean);
      assert.deepEqual(packs, [target], `only ${target}'s texts are downloaded on the switch`);
      await t.screenshot(`switched-${target}`);
    } finally {
      await network.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await network.cdp.detach().catch(() => undefined);
      await page.evaluate((lng) => localStorage.setItem('user_language', lng), t.language);
    }
  });
}
