// Watch video and live highlights: a non-activated account watches its free videos, hits the
// daily limit, and reaches customer service from the limit message; an activated one is
// unlimited; the full-screen highlights feed swipes and offers chat, forward and save.
import assert from 'node:assert/strict';
import { operatorLogin, registerUser, signInThroughUi } from '../support/accounts.mjs';

const LIMIT = 2;

export const server = {
  demo: true,
  env: { KJ_VIDEO_DAILY_LIMIT: String(LIMIT), KJ_WINDOW_COUNT: '1' },
};

export default async function videos(t) {
  const { page } = t;
  const user = await registerUser(t, `v${t.language.slice(0, 2)}`);
  const allowance = page.locator('.video-allowance');

  await t.test('discover leads to the videos with today’s allowance', async () => {
    await signInThroughUi(t, user.account, '/pages/tabBar/find');
    const entry = page.getByTestId('video-entry');
    await entry.getByText(t.text('discover.video.remaining', { remaining: LIMIT, limit: LIMIT })).waitFor();
    await entry.tap();
    await page.waitForURL((url) => url.pathname === '/pages/find/watch-video');
    await page.locator('.video-tile').first().waitFor();
    assert.equal(await page.locator('.video-tile').count(), 3);
    assert.equal(await allowance.getAttribute('data-remaining'), String(LIMIT));
    await t.screenshot('watch-video');
  });

  await t.test('each video opened counts one view and plays', async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      await page.locator('.video-tile').nth(i).tap();
      const player = page.getByRole('dialog');
      const video = player.locator('video');
      await video.waitFor();
      assert.match(await video.getAttribute('src'), /^\/files\/demo\/.+\.mp4$/);
      // The demo videos are real H.264: the browser decodes the first frame.
      await page.waitForFunction(() => (document.querySelector('.video-player video')?.readyState ?? 0) >= 2, null, {
        timeout: 10_000,
      });
      if (i === 0) await t.screenshot('video-player');
      await player.getByRole('button', { name: t.text('discover.close') }).tap();
      await player.waitFor({ state: 'detached' });
      assert.equal(await allowance.getAttribute('data-remaining'), String(LIMIT - i - 1));
    }
  });

  await t.test('past the limit the server refuses and points to customer service', async () => {
    await page.locator('.video-tile').nth(LIMIT).tap();
    const notice = page.locator('.video-limit');
    await notice.waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0, 'no player opened');
    assert.equal(await notice.locator('.video-limit__title').textContent(), t.text('videos.limit.title'));
    assert.ok((await notice.locator('.video-limit__text').textContent()).length > 0);
    await t.screenshot('video-limit');
    await notice.getByRole('link', { name: t.text('videos.limit.contact') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/customer/customer');
    const field = page.getByRole('textbox', { name: t.text('customer.message') });
    assert.equal(await field.inputValue(), t.text('videos.limit.draft'));
    await page.locator('.bubble--welcome').waitFor();
  });

  await t.test('an activated account is unlimited', async () => {
    const operator = await operatorLogin(t);
    const activated = await t.api('/admin/activateUser', { userId: user.userId, isActivation: 1 }, operator.token);
    assert.equal(activated.code, 0, activated.message);
    await page.goto(t.url('/pages/find/watch-video'));
    await page.locator('.video-allowance[data-remaining="unlimited"]').waitFor();
    await page.locator('.video-tile').nth(LIMIT).tap();
    await page.getByRole('dialog').locator('video').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: t.text('discover.close') }).tap();
  });

  await t.test('live highlights: full screen, swipe, chat, forward and save', async () => {
    await page.goto(t.url('/pages/tabBar/love'));
    await page.locator('.video-tile').first().tap();
    await page.waitForURL((url) => url.pathname === '/pages/love/video');
    const slides = page.locator('.highlights__slide');
    await slides.first().waitFor();
    assert.equal(await slides.count(), 3);
    const first = slides.first();
    const box = await first.boundingBox();
    assert.equal(Math.round(box.height), 844, 'a slide fills the screen');
    await first.getByRole('link', { name: t.text('videos.chat') }).waitFor();
    // Asking about a video goes to customer service with the video beside it (issue 35 #5).
    assert.match(await first.getByRole('link', { name: t.text('videos.chat') }).getAttribute('href'), /^\/pages\/customer\/customer\?draft=.+&about=video%3A\d+$/);
    assert.match(await first.getByRole('link', { name: t.text('videos.save') }).getAttribute('href'), /\.mp4$/);
    await page.waitForFunction(() => {
      const v = document.querySelector('.highlights__slide[data-index="0"] video');
      return v !== null && !v.paused;
    });
    await t.screenshot('highlights');
    // Swipe up: the feed snaps to the next video, which plays.
    await page.locator('.highlights__feed').evaluate((el) => {
      el.scrollBy({ top: el.clientHeight });
    });
    await page.waitForFunction(() => {
      const v = document.querySelector('.highlights__slide[data-index="1"] video');
      return v !== null && !v.paused;
    });
    // Forward: no share sheet in this browser, so the share card opens with a QR code.
    await slides.nth(1).getByRole('button', { name: t.text('videos.forward') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/modal/share-image');
    await page.locator('canvas[data-ready="true"]').waitFor();
    await page.getByRole('link', { name: t.text('modal.share.save') }).waitFor();
    await t.screenshot('share-image');
  });
}
