// A guest's first visit on a slow phone network (1.6 Mbit/s down, 150 ms round trips, through
// Chromium's network emulation): the shell (header, list skeleton, tab bar) paints from the
// HTML and its inline critical CSS within 1.5 s, before the app's stylesheet and scripts, with
// its header and tab bar inside the viewport; when the app replaces it, the header and the tab
// bar are where the shell drew them (no jump), in the same theme (zh-CN runs light, en-US
// dark). Issue 35 #23.
import assert from 'node:assert/strict';

const BUDGET_FIRST_PAINT_MS = 1_500;
/** Chrome's throughputs are bytes per second. */
const SLOW_PHONE = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1_000_000) / 8,
  uploadThroughput: (750 * 1_000) / 8,
};

/** A box rounded to the pixel, for comparing. */
const rounded = (b) => b && { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };

/** Its time budget needs the box to itself: the runner runs it after the lanes (run.mjs). */
export const alone = true;

export default async function firstPaint(t) {
  const { page } = t;
  page.setDefaultTimeout(30_000);
  const scheme = t.language === 'en-US' ? 'dark' : 'light';
  await page.emulateMedia({ colorScheme: scheme });
  // At the first contentful paint: what was on screen (the shell's boxes, whether the app had
  // rendered yet, the stylesheets loaded so far).
  await page.addInitScript(() => {
    new PerformanceObserver((list, observer) => {
      const fcp = list.getEntries().find((e) => e.name === 'first-contentful-paint');
      if (!fcp) return;
      observer.disconnect();
      const box = (selector) => {
        const el = document.querySelector(selector);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height, background: getComputedStyle(el).backgroundColor };
      };
      window.__kjFirstPaint = {
        at: fcp.startTime,
        shell: document.querySelector('[data-boot-shell]') !== null,
        header: box('.boot__header'),
        tabs: box('.boot__tabs'),
        appRendered: document.querySelector('nav a[data-tab]') !== null,
        stylesheets: [...document.styleSheets].filter((s) => s.href).length,
        viewport: { width: innerWidth, height: innerHeight },
      };
    }).observe({ type: 'paint', buffered: true });
  });

  await t.test(`the shell paints within 1.5 s at 1.6 Mbit/s, 150 ms, in the viewport, and the app takes its place without a jump (${scheme})`, async () => {
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Network.enable');
      await cdp.send('Network.clearBrowserCache');
      await cdp.send('Network.emulateNetworkConditions', SLOW_PHONE);
      await page.goto(t.url('/'), { waitUntil: 'commit' });
      await page.waitForFunction(() => window.__kjFirstPaint !== undefined);
      const first = await page.evaluate(() => window.__kjFirstPaint);
      console.log(`     first paint (${t.language}, ${scheme}): ${Math.round(first.at)} ms, shell ${first.shell}, app ${first.appRendered}, stylesheets ${first.stylesheets}`);
      assert.ok(first.shell, 'the first paint is the shell from index.html');
      assert.equal(first.appRendered, false, 'painted before the app rendered');
      assert.ok(first.at <= BUDGET_FIRST_PAINT_MS, `first contentful paint at ${Math.round(first.at)} ms, budget ${BUDGET_FIRST_PAINT_MS} ms`);

      const { width, height } = first.viewport;
      for (const [name, b] of [['header', first.header], ['tab bar', first.tabs]]) {
        assert.ok(b && b.width > 0 && b.height > 0, `the shell's ${name} has a box`);
        assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= width + 0.5 && b.y + b.height <= height + 0.5, `the shell's ${name} is inside the ${width}×${height} viewport: ${JSON.stringify(b)}`);
      }
      assert.equal(Math.round(first.header.y), 0, 'the header is at the top');
      assert.equal(Math.round(first.tabs.y + first.tabs.height), height, 'the tab bar is at the bottom');
      assert.ok(first.header.y + first.header.height <= first.tabs.y, 'header and tab bar do not overlap');
      await t.screenshot('shell');

      // The app replaces the shell: its header and tab bar take the same boxes and colours.
      const nav = page.getByRole('navigation', { name: t.text('tabs.navigation') });
      await nav.waitFor();
      await page.locator('[data-boot-shell]').waitFor({ state: 'detached' });
      const app = await page.evaluate(() => {
        const box = (el) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height, background: getComputedStyle(el).backgroundColor };
        };
        return { header: box(document.querySelector('.page-header')), tabs: box(document.querySelector('nav.tab-bar')) };
      });
      assert.deepEqual(rounded(app.header), rounded(first.header), 'the header does not move when the app renders');
      assert.deepEqual(rounded(app.tabs), rounded(first.tabs), 'the tab bar does not move when the app renders');
      assert.equal(app.header.background, first.header.background, `the shell's header is in the app's ${scheme} colours`);
      assert.equal(app.tabs.background, first.tabs.background, `the shell's tab bar is in the app's ${scheme} colours`);
      await t.screenshot('app');
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }).catch(() => undefined);
      await cdp.detach().catch(() => undefined);
      await page.emulateMedia({ colorScheme: null });
    }
  });
}
