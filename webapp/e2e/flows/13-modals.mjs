// The pages around discover: the webview modal, the update prompts from the operator's
// manifest, a share card, the dialog pages driven by their query, the launch page, and the
// desktop frame a computer gets on launch.
import assert from 'node:assert/strict';
import { operatorLogin, PASSWORD, registerUser } from '../support/accounts.mjs';

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
    await page.getByTestId('carousel-link').first().waitFor();
    assert.equal(await page.getByTestId('carousel-link').first().getAttribute('href'), '/pages/tabBar/find');
    await page.goto(t.url(`/pages/modal/webview?url=${encodeURIComponent('/files/demo/banner-2.png')}&title=Banner`));
    await page.getByRole('heading', { level: 1, name: 'Banner' }).waitFor();
    const frame = page.getByTestId('webview-frame');
    assert.match(await frame.getAttribute('src'), /\/files\/demo\/banner-2\.png$/);
    assert.equal(await frame.getAttribute('sandbox'), 'allow-popups', 'no scripts for pages of this server');
    await page.frameLocator('[data-testid="webview-frame"]').locator('img').waitFor();
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

  const dialogPage = (path, query) => t.url(`${path}?${new URLSearchParams(query).toString()}`);
  const modal = (query) => dialogPage('/pages/modal/modal', query);
  const notice = (query) => dialogPage('/pages/modal/modal_n', query);

  await t.test('the dialog page shows its query as text; confirm opens its app page', async () => {
    await page.goto(modal({
      title: 'Heads up',
      content: '<b>not bold</b>\nsecond line',
      confirmText: 'Open mine',
      cancelText: 'Stay',
      url: '/pages/tabBar/mine',
    }));
    const dialog = page.getByRole('dialog', { name: 'Heads up' });
    await dialog.waitFor();
    await dialog.getByText('<b>not bold</b>', { exact: false }).waitFor();
    assert.equal(await dialog.locator('b').count(), 0, 'query text is never HTML');
    const buttons = dialog.getByRole('button');
    assert.deepEqual(await buttons.allTextContents(), ['Stay', 'Open mine']);
    for (const box of await buttons.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) {
      assert.ok(box >= 44, `touch target ${box} px`);
    }
    await t.screenshot('modal');
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await t.screenshot('modal-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await dialog.getByRole('button', { name: 'Open mine' }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/tabBar/mine');
    await page.getByRole('heading', { level: 1, name: t.text('pages.mine.title') }).waitFor();
  });

  await t.test('the dialog page refuses a javascript: url; cancel and Escape go back (home without history)', async () => {
    const alerts = [];
    const onDialog = (browserDialog) => {
      alerts.push(browserDialog.message());
      void browserDialog.dismiss();
    };
    page.on('dialog', onDialog);
    try {
      await page.goto(modal({ content: 'Run it?', url: 'javascript:alert(1)' }));
      const dialog = page.getByRole('dialog', { name: t.text('modal.dialog.title') });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: t.text('modal.dialog.confirm') }).tap();
      await page.waitForURL((url) => url.pathname === '/');
      assert.deepEqual(alerts, [], 'the javascript: url never ran');
    } finally {
      page.off('dialog', onDialog);
    }
    await page.goto(modal({ content: 'Cancel me' }));
    await page.getByRole('dialog').getByRole('button', { name: t.text('modal.dialog.cancel') }).tap();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(modal({ content: 'Escape me' }));
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.pathname === '/');
  });

  await t.test('the notice dialog has one button and closes only with it', async () => {
    await page.goto(notice({ title: 'Maintenance', content: 'Tonight from 2:00 to 3:00.', showCancel: 'true', cancelText: 'No' }));
    const dialog = page.getByRole('dialog', { name: 'Maintenance' });
    await dialog.waitFor();
    assert.deepEqual(await dialog.getByRole('button').allTextContents(), [t.text('modal.dialog.acknowledge')]);
    await t.screenshot('modal-notice');
    await page.keyboard.press('Escape');
    await page.locator('.dialog-backdrop').tap({ position: { x: 8, y: 8 } });
    assert.equal(new URL(page.url()).pathname, '/pages/modal/modal_n');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: t.text('modal.dialog.acknowledge') }).tap();
    await page.waitForURL((url) => url.pathname === '/');
  });

  await t.test('the launch page opens its redirect, only a path of this app', async () => {
    await page.goto(t.url(`/pages/init/init?redirect=${encodeURIComponent('/pages/tabBar/find')}`));
    await page.waitForURL((url) => url.pathname === '/pages/tabBar/find');
    await page.getByRole('heading', { level: 1, name: t.text('pages.find.title') }).waitFor();
    await page.goto(t.url(`/pages/init/init?redirect=${encodeURIComponent('https://example.com/')}`));
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1, name: t.text('pages.chat.title') }).waitFor();
  });

  await t.test('signed in, the launch page shows its splash until the user info is in', async () => {
    const user = await registerUser(t, `i${t.language.slice(0, 2)}`);
    const { page: own } = await t.openSession();
    await own.goto(t.url(`/pages/auth/login?redirect=${encodeURIComponent('/pages/tabBar/mine')}`));
    await own.getByLabel(t.text('pages.login.account')).fill(user.account);
    await own.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
    await own.getByRole('button', { name: t.text('pages.login.submit') }).tap();
    await own.waitForURL((url) => url.pathname === '/pages/tabBar/mine');
    // Hold the guard's user-info request so the splash stays up for a look.
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await own.route('**/api/user/mine', async (route) => {
      await held;
      await route.continue();
    });
    // The demo's launch image, once its answer is in, replaces the name and the spinner
    // (43-operator-brand covers the image); this check is about the wait for the user info,
    // so the launch page is told there is no image.
    await own.route('**/api/onloadImg', (route) =>
      route.fulfill({ json: { code: 0, message: '', data: { image: '', link: '', seconds: 0 } } }),
    );
    try {
      await own.goto(t.url(`/pages/init/init?redirect=${encodeURIComponent('/pages/tabBar/find')}`));
      await own.getByRole('heading', { level: 1, name: t.text('app.title') }).waitFor();
      await own.getByRole('progressbar', { name: t.text('common.loading') }).waitFor();
      assert.equal(new URL(own.url()).pathname, '/pages/init/init');
      await t.screenshot('init', own);
      release();
      await own.waitForURL((url) => url.pathname === '/pages/tabBar/find');
      await own.getByRole('heading', { level: 1, name: t.text('pages.find.title') }).waitFor();
    } finally {
      release();
      await own.unrouteAll({ behavior: 'ignoreErrors' });
    }
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
      const inner = pc.frameLocator('[data-testid="iframe-frame"]');
      await inner.locator('[data-city]').first().waitFor();
      const box = await pc.getByTestId('iframe-frame').boundingBox();
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
