// The pages around discover: the webview modal, the update prompts from the operator's
// manifest, a share card, and the desktop frame a computer gets on launch.
import assert from 'node:assert/strict';
import { operatorLogin } from '../support/accounts.mjs';

export const server = { demo: true, env: { KJ_WINDOW_COUNT: '1' } };

export default async function modals(t) {
  const { page } = t;
  const operator = await operatorLogin(t);
  const saveManifest = async (manifest) => {
    const answer = await t.api('/admin/manifest/save', manifest, operator.token);
    assert.equal(answer.code, 0, answer.message);
  };
  const none = { version: '', path: '', remark: '' };

  await t.test('a banner opens its app page; the webview shows a page of this server', async () => {
    await page.goto(t.url('/pages/tabBar/find'));
    await page.locator('.carousel__link').first().waitFor();
    assert.equal(await page.locator('.carousel__link').first().getAttribute('href'), '/pages/tabBar/find');
    await page.goto(t.url(`/pages/modal/webview?url=${encodeURIComponent('/files/demo/banner-2.png')}&title=Banner`));
    await page.getByRole('heading', { level: 1, name: 'Banner' }).waitFor();
    const frame = page.locator('iframe.webview-page__frame');
    assert.match(await frame.getAttribute('src'), /\/files\/demo\/banner-2\.png$/);
    assert.equal(await frame.getAttribute('sandbox'), 'allow-popups', 'no scripts for pages of this server');
    await page.frameLocator('iframe.webview-page__frame').locator('img').waitFor();
    await t.screenshot('webview');
    await page.goto(t.url(`/pages/modal/webview?url=${encodeURIComponent('javascript:alert(1)')}`));
    await page.getByText(t.text('modal.webview.invalid')).waitFor();
    assert.equal(await page.locator('iframe').count(), 0);
  });

  await t.test('the update prompt page offers an optional update, which can be ignored', async () => {
    await saveManifest({
      package: { normal: { version: '9.9.9', path: 'https://example.com/kj.apk', remark: 'Faster chat' }, force: none },
      resource: { version: '', path: '' },
    });
    await page.goto(t.url('/pages/modal/update-alert'));
    const prompt = page.getByRole('dialog', { name: t.text('appUpdate.title', { version: '9.9.9' }) });
    await prompt.waitFor();
    await prompt.getByText('Faster chat').waitFor();
    assert.equal(await prompt.getByRole('link', { name: t.text('appUpdate.updateNow') }).getAttribute('href'), 'https://example.com/kj.apk');
    await t.screenshot('update-optional');
    await prompt.getByRole('button', { name: t.text('appUpdate.ignore') }).tap();
    await page.waitForURL((url) => url.pathname !== '/pages/modal/update-alert');
    assert.equal(await page.evaluate(() => localStorage.getItem('ignore_app_version')), '9.9.9');
    // Asked for on purpose, the page offers even the ignored version.
    await page.goto(t.url('/pages/modal/update-alert'));
    await prompt.waitFor();
  });

  await t.test('a forced update cannot be closed; an up-to-date app says so', async () => {
    await saveManifest({
      package: {
        normal: { version: '9.9.9', path: 'https://example.com/kj.apk', remark: '' },
        force: { version: '9.9.0', path: 'https://example.com/kj.apk', remark: 'Security fix' },
      },
      resource: { version: '', path: '' },
    });
    await page.goto(t.url('/pages/modal/update-alert'));
    const prompt = page.getByRole('dialog', { name: t.text('appUpdate.title', { version: '9.9.0' }) });
    await prompt.getByText(t.text('appUpdate.forcedText')).waitFor();
    assert.equal(await prompt.getByRole('button').count(), 0, 'no close, later or ignore');
    await t.screenshot('update-forced');
    await saveManifest({ package: { normal: none, force: none }, resource: { version: '', path: '' } });
    await page.goto(t.url('/pages/modal/update-alert'));
    await page.getByRole('status').getByText(t.text('appUpdate.latest')).waitFor();
    await page.waitForURL((url) => url.pathname === '/');
  });

  await t.test('a share card draws its QR code', async () => {
    const json = JSON.stringify({ title: 'KJ', text: 'Scan me', url: t.url('/pages/tabBar/find'), image: '/files/demo/banner-1.png' });
    await page.goto(t.url(`/pages/modal/share-image?json=${encodeURIComponent(json)}`));
    await page.locator('canvas[data-ready="true"]').waitFor();
    const href = await page.getByRole('link', { name: t.text('modal.share.save') }).getAttribute('href');
    assert.match(href, /^data:image\/png;base64,/);
    await page.goto(t.url('/pages/modal/share-image?json=not-json'));
    await page.getByText(t.text('modal.share.invalid')).waitFor();
  });

  await t.test('a desktop browser gets the app inside the phone frame', async () => {
    const desktop = await t.context.browser().newContext({
      viewport: { width: 1280, height: 900 },
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      reducedMotion: 'reduce',
    });
    try {
      await desktop.addInitScript((lng) => {
        window.localStorage.setItem('user_language', lng);
      }, t.language);
      const pc = await desktop.newPage();
      const errors = [];
      pc.on('pageerror', (error) => errors.push(error.message));
      await pc.goto(t.url('/pages/tabBar/city'));
      await pc.waitForURL((url) => url.pathname === '/pages/iframe/iframe');
      assert.equal(new URL(pc.url()).searchParams.get('path'), '/pages/tabBar/city');
      const inner = pc.frameLocator('iframe.iframe-page__frame');
      await inner.locator('.city-picker__city').first().waitFor();
      const box = await pc.locator('iframe.iframe-page__frame').boundingBox();
      assert.ok(box.width <= 390 && box.width >= 360, `phone-sized frame: ${box.width}`);
      // Moving inside the frame is followed in the address bar.
      await inner.locator('nav a[data-tab="find"]').click();
      await pc.waitForURL((url) => url.searchParams.get('path') === '/pages/tabBar/find');
      await pc.screenshot({ path: t.screenshotPath('desktop-iframe') });
      assert.deepEqual(errors, []);
    } finally {
      await desktop.close();
    }
  });
}
