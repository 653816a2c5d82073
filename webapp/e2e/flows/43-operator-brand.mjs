// What the operator sets through /api/admin/ shows in the app: the app name (/getDomainInfo)
// on the launch page and as the document title, the launch image (/onloadImg) on the launch
// page; and the statistics beacons (/zztj) the app sends while a user browses show up in
// /api/admin/stats/list.
import assert from 'node:assert/strict';
import { flowAddress, operatorSession } from '../helpers/accounts.mjs';

/** Its own server: the operator's settings change what every other flow would see. */
export const server = { env: {} };

export default async function operatorBrand(t) {
  const { page } = t;
  const address = flowAddress();
  const operator = await operatorSession(t, address);
  const admin = async (path, body) => {
    const envelope = await t.api(`/admin${path}`, body, operator.token);
    assert.equal(envelope.code, 0, `${path}: ${envelope.code} ${envelope.message}`);
    return envelope.data;
  };
  const appName = t.language === 'zh-CN' ? '星河聊天' : 'Starlight Chat';

  await t.test("the operator's app name shows on the launch page and as the title", async () => {
    await admin('/settings/save', { appName, splashImage: '' });
    await page.goto(t.url(`/pages/init/init?redirect=${encodeURIComponent('/pages/tabBar/find')}`));
    await page.waitForFunction((name) => document.title === name, appName);
    // The launch page moves on by itself; the name it showed stays in storage for the next launch.
    assert.equal(await page.evaluate(() => window.localStorage.getItem('appName')), appName);
    // The next launch names the operator's app from its first frame. The launch page may be
    // on screen for only a few frames before it moves on, so the page records every title
    // heading it shows rather than the test hoping to look while it is there.
    await page.addInitScript(() => {
      window.__launchTitles = [];
      new MutationObserver(() => {
        const title = document.querySelector('h1')?.textContent ?? '';
        if (title !== '' && window.__launchTitles.at(-1) !== title) window.__launchTitles.push(title);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(t.url('/pages/init/init'), { waitUntil: 'commit' });
    await page.waitForURL((url) => url.pathname === '/');
    const titles = await page.evaluate(() => window.__launchTitles);
    assert.equal(titles[0], appName, `launch page titles shown: ${JSON.stringify(titles)}`);
    assert.equal(await page.title(), appName);
  });

  await t.test("the operator's launch image shows on the launch page for its seconds, skip ends it", async () => {
    await admin('/settings/save', { appName, splashImage: '/icons/icon-512.png', splashSeconds: 5 });
    await page.goto(t.url(`/pages/init/init?redirect=${encodeURIComponent('/pages/tabBar/mine')}`));
    const image = page.getByTestId('launch-image');
    await image.waitFor();
    assert.equal(await image.getAttribute('src'), '/icons/icon-512.png');
    assert.equal(await image.getAttribute('alt'), appName);
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="launch-image"]');
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
    });
    await t.screenshot('launch-image');
    assert.equal(new URL(page.url()).pathname, '/pages/init/init', 'the image holds the launch page');
    await page.getByRole('button', { name: new RegExp(`^${t.text('app.skip', { seconds: '' }).trim()}`) }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/tabBar/mine');
    await admin('/settings/save', { appName, splashImage: '' });
  });

  await t.test('the beacons of a browser session show up in the statistics', async () => {
    const count = (list, event) => list.filter((row) => row.event === event).reduce((sum, row) => sum + row.count, 0);
    // What the browser sends from here on and the server accepts, event by event. The counts
    // are compared with that, not with a number of pages: a page left before it has rendered
    // (its route loads lazily) is rightly never counted, and a beacon of the previous test
    // may still land after `before` is read.
    const accepted = [];
    await page.route('**/api/zztj', async (route) => {
      const event = route.request().postDataJSON()?.event;
      const response = await route.fetch();
      const envelope = await response.json().catch(() => ({}));
      if (envelope.code === 0) accepted.push(event);
      await route.fulfill({ response });
    });
    const before = (await admin('/stats/list', { days: 1 })).list;
    await page.goto(t.url('/pages/tabBar/find'));
    await page.locator('.tab-bar').waitFor();
    for (const path of ['/pages/tabBar/mine', '/pages/customer/customer']) {
      await page.evaluate((to) => {
        window.history.pushState(window.history.state, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      }, path);
      await page.waitForURL((url) => url.pathname === path);
    }
    const sent = (event) => accepted.filter((e) => e === event).length;
    await page.waitForFunction(() => document.readyState === 'complete');
    let after = before;
    const deadline = Date.now() + 15_000;
    const enough = () =>
      ['launch', 'page', 'customer'].every((event) => sent(event) > 0 && count(after, event) >= count(before, event) + sent(event));
    while (Date.now() < deadline) {
      after = (await admin('/stats/list', { days: 1 })).list;
      if (enough()) break;
      await page.waitForTimeout(200);
    }
    // Waits for a beacon still in the handler: removed under it, the request goes on without it and
    // the handler's fulfil throws later, in whichever flow the shared browser is running by then.
    await page.unrouteAll({ behavior: 'wait' });
    for (const event of ['launch', 'page', 'customer']) {
      assert.ok(sent(event) > 0, `the browser sent no ${event} beacon: ${JSON.stringify(accepted)}`);
      assert.ok(
        count(after, event) >= count(before, event) + sent(event),
        `${sent(event)} ${event} beacons accepted, counted ${count(after, event) - count(before, event)}: ${JSON.stringify(after)}`,
      );
    }
  });
}
