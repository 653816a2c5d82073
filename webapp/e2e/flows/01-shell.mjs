// The app shell: tab bar, tab switching, direct loads, unknown paths, the route guard.
import assert from 'node:assert/strict';

const ACTIVE_TAB_COLOUR = 'rgb(49, 90, 255)'; // #315aff
const INACTIVE_TAB_COLOUR = 'rgb(161, 161, 161)'; // #a1a1a1

export default async function shell(t) {
  const { page } = t;
  const nav = page.getByRole('navigation', { name: t.text('tabs.navigation') });
  const tab = (id) => nav.locator(`a[data-tab="${id}"]`);
  const heading = () => page.getByRole('heading', { level: 1 });

  await t.test('/ shows the chat tab and a tab bar with three tabs', async () => {
    await page.goto(t.url('/'));
    await nav.waitFor();
    assert.equal(await nav.getByRole('link').count(), 3);
    const labels = await nav.getByRole('link').evaluateAll((links) => links.map((l) => l.getAttribute('aria-label')));
    assert.deepEqual(labels, [t.text('tabs.chat'), t.text('tabs.find'), t.text('tabs.mine')]);
    assert.equal(await tab('chat').getAttribute('aria-current'), 'page');
    assert.equal(await heading().textContent(), t.text('pages.chat.title'));
    assert.equal(await page.locator('html').getAttribute('lang'), t.htmlLang);

    const bar = await nav.locator('ul').boundingBox();
    assert.ok(bar, 'tab bar has a box');
    assert.equal(Math.round(bar.height), 50, 'tab bar is 50 px high');
    assert.equal(await tab('chat').evaluate((el) => getComputedStyle(el).color), ACTIVE_TAB_COLOUR);
    assert.equal(await tab('find').evaluate((el) => getComputedStyle(el).color), INACTIVE_TAB_COLOUR);
    await t.screenshot('chat');
  });

  await t.test('tapping the mine tab goes to /pages/tabBar/mine', async () => {
    await tab('mine').tap();
    await page.waitForURL((url) => url.pathname === '/pages/tabBar/mine');
    await heading().filter({ hasText: t.text('pages.mine.title') }).waitFor();
    assert.equal(await tab('mine').getAttribute('aria-current'), 'page');
    await page.getByText(t.text('pages.mine.signedOutTitle')).waitFor();
    await t.screenshot('mine');
  });

  await t.test('/pages/tabBar/find loads directly', async () => {
    await page.goto(t.url('/pages/tabBar/find'));
    await heading().filter({ hasText: t.text('pages.find.title') }).waitFor();
    assert.equal(await tab('find').getAttribute('aria-current'), 'page');
    assert.equal(new URL(page.url()).pathname, '/pages/tabBar/find');
    await t.screenshot('find');
  });

  await t.test('an unknown path redirects to /', async () => {
    await page.goto(t.url('/no/such/page'));
    await page.waitForURL((url) => url.pathname === '/');
    await heading().filter({ hasText: t.text('pages.chat.title') }).waitFor();
  });

  await t.test('a protected page sends a guest to login and keeps the way back', async () => {
    // (The language page is open to guests: they choose a language before signing in.)
    await page.goto(t.url('/pages/my/safety-setting'));
    await page.waitForURL((url) => url.pathname === '/pages/auth/login');
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/pages/my/safety-setting');
    await page.getByLabel(t.text('pages.login.account')).waitFor();
    await page.getByLabel(t.text('pages.login.password')).waitFor();
    await t.screenshot('login');
  });

  await t.test('dark mode follows prefers-color-scheme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await page.goto(t.url('/'));
      await nav.waitFor();
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, 'rgb(15, 17, 21)');
      await t.screenshot('chat-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
}
