// Installable: the manifest carries the operator's app name, the service worker takes the page,
// Chromium's installability check finds nothing missing, and a launch without the network
// starts from the cached app shell instead of the browser's error page.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../lib.mjs';

export default async function install(t) {
  const { page } = t;

  await t.test('the manifest names the app as the operator set it, with icons, portrait and standalone', async () => {
    const base = await t.api('/getBaseData', {});
    const response = await page.request.get(t.url('/manifest.webmanifest'));
    assert.equal(response.status(), 200);
    assert.match(response.headers()['content-type'], /application\/manifest\+json/);
    const manifest = await response.json();
    assert.equal(manifest.name, base.data.appName);
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.orientation, 'portrait');
    assert.equal(manifest.start_url, '/');
    assert.ok(manifest.theme_color);
    assert.deepEqual(
      manifest.icons.map((i) => i.sizes),
      ['192x192', '512x512', '512x512'],
    );
    for (const icon of manifest.icons) {
      const png = await page.request.get(t.url(icon.src));
      assert.equal(png.status(), 200);
      assert.equal(png.headers()['content-type'], 'image/png');
    }
  });

  // Chromium never offers to install from an incognito context (what every flow's fresh
  // context is), so these checks run in a profile of their own. Its page is not watched for
  // console errors: offline, the app's own API calls fail as they should.
  const profile = mkdtempSync(join(tmpdir(), 'kj-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 390, height: 844 },
    locale: t.language,
  });
  const own = context.pages()[0] ?? (await context.newPage());
  const pageErrors = [];
  own.on('pageerror', (error) => pageErrors.push(error.message));
  try {
    await t.test("Chromium's installability check passes", async () => {
      await own.goto(t.url('/'));
      await own.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      const cdp = await context.newCDPSession(own);
      let errors = null;
      // The check reads the manifest and the worker the page found; ask until both are in.
      for (const until = Date.now() + 15_000; Date.now() < until; await own.waitForTimeout(250)) {
        ({ installabilityErrors: errors } = await cdp.send('Page.getInstallabilityErrors'));
        if (errors.length === 0) break;
      }
      assert.deepEqual(errors, []);
      const manifest = await cdp.send('Page.getAppManifest');
      assert.ok(manifest.url.endsWith('/manifest.webmanifest'));
      await cdp.detach();
      await t.screenshot('installable', own);
    });

    await t.test('without the network the app starts from its cached shell', async () => {
      for (const until = Date.now() + 10_000; Date.now() < until; await own.waitForTimeout(100)) {
        if (await own.evaluate(() => navigator.serviceWorker.controller !== null)) break;
      }
      assert.ok(await own.evaluate(() => navigator.serviceWorker.controller !== null), 'the worker controls the page');
      // Every asset of the build is cached before the worker takes over.
      const assets = await (await own.request.get(t.url('/sw-assets.json'))).json();
      const cached = await own.evaluate((list) => Promise.all(list.map((a) => caches.match(a).then(Boolean))), assets);
      assert.ok(cached.every(Boolean), 'an asset is missing from the cache');
      await context.setOffline(true);
      try {
        await own.goto(t.url('/pages/auth/login'));
        await own.locator('#root form, #root main').first().waitFor();
        const offline = await own.evaluate(() => caches.match('/offline.html').then((r) => (r ? r.text() : '')));
        assert.match(offline, /class="offline"/);
        await t.screenshot('offline-launch', own);
        assert.deepEqual(pageErrors, []);
      } finally {
        await context.setOffline(false);
      }
    });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
