// No page is ever wider than the screen and no control label wraps or overflows: every route of
// the app's route table (read from webapp/src/app/routes.tsx, so a new route is checked too),
// entered the way the app enters it (an in-app navigation with the 300 ms route animation), at
// 320, 390 and 480 px. The document width is sampled every frame while the page enters and
// once after; the labels of buttons, tabs and chips are checked once the page settled, in the
// run's language and two more of the six (zh-CN runs add zh-HANT and vi-VN, en-US runs es-ES
// and ms-MY), at the narrowest and widest widths.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { e2eDir } from '../lib.mjs';
import { registerUser, signInThroughUi } from '../support/accounts.mjs';

// A server of its own: this flow opens every route many times, and each page view sends a /zztj
// beacon; on the shared server the other flows' beacons from the same address would add up past
// the server's per-address limit, and the refused beacons show as console errors.
export const server = { env: {} };

const WIDTHS = [320, 390, 480];
const LABEL_WIDTHS = [320, 480];
const MORE_LANGUAGES = { 'zh-CN': ['zh-HANT', 'vi-VN'], 'en-US': ['es-ES', 'ms-MY'] };

/** Every path of the route table, as the router knows it (E2E_LAYOUT_ROUTES: only those, comma-separated). */
function appRoutes() {
  const only = (process.env.E2E_LAYOUT_ROUTES ?? '').split(',').filter(Boolean);
  if (only.length > 0) return only;
  const source = readFileSync(join(e2eDir, '..', 'src', 'app', 'routes.tsx'), 'utf8');
  const paths = new Set(['/']);
  for (const [, path] of source.matchAll(/path: '([^'*:]+)'/g)) {
    if (path !== '/') paths.add(`/${path}`);
  }
  return [...paths].sort();
}

/**
 * Navigates inside the app (history push and popstate, as a link does) and samples the widest
 * the document got in every frame while the page entered, then once after it settled.
 */
async function enter(page, path) {
  return page.evaluate(async (to) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const widest = { during: 0, viewport: window.innerWidth };
    window.history.pushState(window.history.state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    const start = performance.now();
    // The lazy page loads, then animates for 300 ms: sample until no route animation runs
    // (at least 450 ms, at most 3 s).
    for (;;) {
      widest.during = Math.max(widest.during, document.documentElement.scrollWidth);
      const running = document.getAnimations().some((a) => a.animationName === 'route-enter' && a.playState === 'running');
      const elapsed = performance.now() - start;
      if ((!running && elapsed > 450) || elapsed > 3_000) break;
      await frame();
    }
    widest.after = document.documentElement.scrollWidth;
    widest.path = window.location.pathname;
    return widest;
  }, path);
}

/** Buttons, tabs and chips whose label takes more than one line or runs out of the control. */
async function badLabels(page) {
  return page.evaluate(() => {
    const out = [];
    const controls = document.querySelectorAll('button, a.button, [role="button"], [role="tab"], [role="radio"], .tab-bar__link');
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // A control may stack several texts (a row's title over its subtitle); a label wraps when
      // one text runs over more than one line.
      const rects = [];
      let lines = 1;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const own = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        // A value cut with an ellipsis on purpose (a long version number) is not a label running out.
        if (getComputedStyle(node.parentElement).textOverflow !== 'ellipsis') rects.push(...own);
        const middles = own.map((r) => r.top + r.height / 2).sort((a, b) => a - b);
        let count = own.length > 0 ? 1 : 0;
        for (let i = 1; i < middles.length; i += 1) if (middles[i] - middles[i - 1] > own[0].height / 2) count += 1;
        lines = Math.max(lines, count);
      }
      if (rects.length === 0 && lines === 1) continue;
      const label = el.innerText.trim().replace(/\s+/g, ' ');
      const left = Math.min(box.left, ...rects.map((r) => r.left));
      const right = Math.max(box.right, ...rects.map((r) => r.right));
      const overflow = left < box.left - 1 || right > box.right + 1 || el.scrollWidth > el.clientWidth + 1;
      if (lines > 1 || overflow) {
        out.push(`"${label}" (${lines > 1 ? `${lines} lines` : 'overflows'}, ${Math.round(box.width)} px wide)`);
      }
    }
    return out;
  });
}

/** Waits until the page shows no loading state (queries answered), at most 5 s. */
async function settle(page) {
  await page
    .waitForFunction(() => !document.querySelector('.page-loading, [aria-busy="true"]'), null, { timeout: 5_000 })
    .catch(() => undefined);
}

export default async function layout(t) {
  const { page } = t;
  const routes = appRoutes();
  if (!process.env.E2E_LAYOUT_ROUTES) assert.ok(routes.length > 50, `the route table lists ${routes.length} paths`);
  const user = await registerUser(t, `lay${t.language.slice(0, 2)}`);
  await signInThroughUi(t, user.account, '/pages/tabBar/mine');
  // The sessions of the flows prefer reduced motion; this flow checks the motion itself.
  await page.emulateMedia({ reducedMotion: 'no-preference' });

  for (const width of WIDTHS) {
    await t.test(`no route is wider than the screen while or after it enters at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(t.url('/pages/tabBar/mine'));
      await page.locator('.tab-bar').waitFor();
      const wide = [];
      for (const path of routes) {
        // From a page of another kind each time, so every route plays its enter animation.
        const from = path === '/pages/tabBar/mine' ? '/pages/my/notice' : '/pages/tabBar/mine';
        await enter(page, from);
        const seen = await enter(page, path);
        assert.equal(seen.viewport, width);
        if (seen.during > width || seen.after > width) wide.push(`${path} (shown ${seen.path}): ${seen.during} px entering, ${seen.after} px after`);
      }
      assert.deepEqual(wide, [], `pages wider than ${width} px`);
      await t.screenshot(`enter-${width}`);
    });
  }

  for (const language of [t.language, ...(MORE_LANGUAGES[t.language] ?? [])]) {
    await t.test(`no control label wraps or overflows in ${language} at 320 and 480 px`, async () => {
      await page.evaluate((lng) => {
        window.localStorage.setItem('user_language', lng);
      }, language);
      const bad = [];
      for (const width of LABEL_WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(t.url('/pages/tabBar/mine'));
        await page.locator('.tab-bar').waitFor();
        for (const path of routes) {
          await enter(page, path);
          await settle(page);
          for (const problem of await badLabels(page)) bad.push(`${width} px ${path}: ${problem}`);
        }
      }
      await page.evaluate((lng) => {
        window.localStorage.setItem('user_language', lng);
      }, t.language);
      assert.deepEqual(bad, [], `labels that wrap or overflow in ${language}`);
    });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}
