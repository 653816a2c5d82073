// The demo content (`kj seed --demo`) in the user's language: banners, city names, listing
// intros and live-highlights titles show one language, the run's, never two joined by " · ".
import assert from 'node:assert/strict';

export const server = { demo: true, env: { KJ_WINDOW_COUNT: '1' } };

/** What the seed writes, per language (internal/seed/texts.go). */
const EXPECTED = {
  'zh-CN': {
    cities: ['上海', '广州', '深圳', '吉隆坡'],
    banner: '欢迎来到 kj',
    highlight: '清晨精选',
    intro: '喜欢徒步和咖啡',
  },
  'en-US': {
    cities: ['Shanghai', 'Guangzhou', 'Shenzhen', 'Kuala Lumpur'],
    banner: 'Welcome to kj',
    highlight: 'Morning highlights',
    intro: 'Enjoys hiking and good coffee',
  },
};

const HAN = /[\u4e00-\u9fff]/;

export default async function demoContent(t) {
  const { page } = t;
  const want = EXPECTED[t.language];

  await t.test('same city: city names and intros in the user\'s language', async () => {
    assert.ok(want, `no expectations for ${t.language}`);
    await page.goto(t.url('/pages/tabBar/city'));
    const cities = page.locator('[data-city]');
    await cities.first().waitFor();
    const names = (await cities.allTextContents()).map((s) => s.replace(/\d+/g, '').trim());
    assert.deepEqual(names, want.cities);
    await page.locator('[data-listing]').first().waitFor();
    const cards = await page.locator('[data-listing]').allInnerTexts();
    assert.ok(cards.some((text) => text.includes(want.intro)), `a listing says "${want.intro}": ${cards.join(' | ')}`);
    for (const text of cards) {
      assert.ok(!text.includes(' · '), `one language per text: ${text}`);
      if (t.language === 'en-US') assert.ok(!HAN.test(text), `no Chinese in en-US: ${text}`);
    }
    await t.screenshot('city');
  });

  await t.test('discover banners and live highlights in the user\'s language', async () => {
    await page.goto(t.url('/pages/tabBar/find'));
    const banner = page.getByTestId('carousel-image').first();
    await banner.waitFor();
    assert.equal(await banner.getAttribute('alt'), want.banner);
    await t.screenshot('find');
    await page.goto(t.url('/pages/tabBar/love'));
    const tiles = page.locator('.video-tile');
    await tiles.first().waitFor();
    const titles = (await tiles.allInnerTexts()).map((text) => text.trim());
    assert.ok(titles.some((title) => title.includes(want.highlight)), `highlights ${titles.join(' | ')}`);
    await t.screenshot('highlights');
    for (const title of titles) {
      assert.ok(!title.includes(' · '), `one language per title: ${title}`);
      if (t.language === 'en-US') assert.ok(!HAN.test(title), `no Chinese in en-US: ${title}`);
    }
  });
}
