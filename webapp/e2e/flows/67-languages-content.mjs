// Languages (issue 35 #8, #9) on a 390 x 844 phone and the console at 1280 x 800: a browser
// speaking English and no choice of its own gets English (one speaking none of the six, the
// operator's default); a guest switches language on sign-in, registration and the mine tab, and
// the choice stays; an operator writes a banner's title and a notice in Simplified Chinese and
// English, and a player in each language reads theirs.
import assert from 'node:assert/strict';
import { confirmDialog, consoleSignIn, openConsole } from '../console/console.mjs';
import { loadTexts, openSession } from '../lib.mjs';
import { operatorLogin, PASSWORD, registerUser } from '../support/accounts.mjs';

export const server = { demo: true, env: { KJ_WINDOW_COUNT: '1' } };

const VIEW = { width: 390, height: 844 };
const NAMES = { 'zh-CN': '简体中文', 'en-US': 'English' };

function assertInView(box, what) {
  assert.ok(box, `${what} is not laid out`);
  assert.ok(box.x >= -0.5 && box.y >= -0.5, `${what} starts off screen: ${JSON.stringify(box)}`);
  assert.ok(box.x + box.width <= VIEW.width + 0.5 && box.y + box.height <= VIEW.height + 0.5, `${what} ends off screen: ${JSON.stringify(box)}`);
}

function apart(a, b, what) {
  assert.ok(a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5, `${what} overlap: ${JSON.stringify(a)} ${JSON.stringify(b)}`);
}

/** Signs `account` in through the login page of `page`, whose texts are `text`. */
async function signIn(t, page, text, account, redirect) {
  await page.goto(t.url(`/pages/auth/login?redirect=${encodeURIComponent(redirect)}`));
  await page.getByLabel(text('pages.login.account')).fill(account);
  await page.getByLabel(text('pages.login.password')).fill(PASSWORD);
  await page.getByRole('button', { name: text('pages.login.submit') }).tap();
  await page.waitForURL((url) => url.pathname === redirect);
}

export default async function languagesContent(t) {
  const { page } = t;
  const other = t.language === 'zh-CN' ? 'en-US' : 'zh-CN';
  const otherText = loadTexts(other);
  const browser = page.context().browser();

  await t.test('a browser in English with no choice of its own gets English; one in none of the six the default', async () => {
    for (const [locale, want] of [['en-US', 'en-US'], ['en-GB', 'en-US'], ['fr-FR', 'zh-CN']]) {
      const context = await browser.newContext({ baseURL: t.baseURL, locale, viewport: VIEW, isMobile: true, hasTouch: true });
      try {
        const fresh = await context.newPage();
        await fresh.goto(t.url('/pages/auth/login'));
        await fresh.getByRole('heading', { level: 1, name: loadTexts(want)('pages.login.title'), exact: true }).waitFor();
        assert.equal(await fresh.evaluate(() => document.documentElement.lang), want, `html lang for a ${locale} browser`);
        assert.equal(await fresh.evaluate(() => window.localStorage.getItem('user_language')), null, 'not stored as a choice');
      } finally {
        await context.close();
      }
    }
  });

  await t.test('a guest switches language on sign-in and registration, and the choice stays', async () => {
    await page.goto(t.url('/pages/auth/login'));
    const title = page.getByRole('heading', { level: 1 });
    await title.filter({ hasText: t.text('pages.login.title') }).waitFor();
    const choose = page.getByRole('combobox', { name: t.text('pages.languageSetting.title') });
    assertInView(await choose.boundingBox(), 'the language switch');
    apart(await choose.boundingBox(), await title.boundingBox(), 'the language switch and the title');
    await t.screenshot('sign-in-switch');
    await choose.selectOption({ label: NAMES[other] });
    await page.getByRole('heading', { level: 1, name: otherText('pages.login.title'), exact: true }).waitFor();
    await page.getByRole('tab', { name: otherText('auth.registerTab') }).tap();
    await page.getByRole('heading', { level: 1, name: otherText('auth.registerTab'), exact: true }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: otherText('auth.registerTab'), exact: true }).waitFor();
    const again = page.getByRole('combobox', { name: otherText('pages.languageSetting.title') });
    assert.equal(await again.inputValue(), other);
    await t.screenshot('register-switched');
    await again.selectOption({ label: NAMES[t.language] });
    await page.getByRole('heading', { level: 1, name: t.text('auth.registerTab'), exact: true }).waitFor();
  });

  await t.test('a guest\'s mine tab has the switch', async () => {
    await page.goto(t.url('/pages/tabBar/mine'));
    const title = page.getByRole('heading', { level: 1, name: t.text('pages.mine.title'), exact: true });
    await title.waitFor();
    const choose = page.getByRole('combobox', { name: t.text('pages.languageSetting.title') });
    assertInView(await choose.boundingBox(), 'the language switch');
    apart(await choose.boundingBox(), await title.boundingBox(), 'the language switch and the title');
    await choose.selectOption({ label: NAMES[other] });
    await page.getByRole('heading', { level: 1, name: otherText('pages.mine.title'), exact: true }).waitFor();
    // Into sign-in and back without a reload, switching on each page.
    await page.getByRole('link', { name: otherText('pages.mine.signIn') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/auth/login');
    await page.getByRole('combobox', { name: otherText('pages.languageSetting.title') }).selectOption({ label: NAMES[t.language] });
    await page.getByRole('heading', { level: 1, name: t.text('pages.login.title'), exact: true }).waitFor();
    await page.getByRole('button', { name: t.text('common.back') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/tabBar/mine');
    await title.waitFor();
    await page.getByRole('combobox', { name: t.text('pages.languageSetting.title') }).selectOption({ label: NAMES[other] });
    await page.getByRole('heading', { level: 1, name: otherText('pages.mine.title'), exact: true }).waitFor();
    assert.equal(await page.evaluate(() => window.localStorage.getItem('user_language')), other);
    await page.getByRole('combobox', { name: otherText('pages.languageSetting.title') }).selectOption({ label: NAMES[t.language] });
    await title.waitFor();
  });

  await t.test('a banner\'s title is written per language; each player\'s carousel reads theirs', async () => {
    const operator = await operatorLogin(t);
    const password = /account "[^"]+", password "([^"]+)"/.exec(t.server.seedOutput)[1];
    const desk = await openConsole(t);
    const stamp = `${t.language} ${Date.now()}`;
    const titles = { 'zh-CN': `横幅 ${stamp}`, 'en-US': `Banner ${stamp}` };
    try {
      await consoleSignIn(t, desk, { account: operator.account, password });
      await desk.page.goto(t.url('/admin/content'));
      await desk.page.getByRole('tab', { name: desk.text('content.banners') }).click();
      await desk.page.getByRole('button', { name: desk.text('content.edit'), exact: true }).first().click();
      const dialog = desk.page.getByRole('dialog');
      const title = dialog.locator('input[name="title"]');
      await title.fill(titles['zh-CN']);
      await dialog.getByRole('tab', { name: NAMES['en-US'] }).click();
      await title.fill(titles['en-US']);
      await desk.screenshot('banner-two-languages');
      await dialog.getByRole('button', { name: desk.text('common.save'), exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      desk.check();
    } finally {
      await desk.close();
    }
    for (const language of ['zh-CN', 'en-US']) {
      const session = language === t.language ? { page } : await openSession(browser, { baseURL: t.baseURL, language });
      try {
        await session.page.goto(t.url('/pages/tabBar/find'));
        await session.page.locator('img[data-testid="carousel-image"]').first().waitFor();
        const alts = await session.page.locator('img[data-testid="carousel-image"]').evaluateAll((els) => els.map((el) => el.alt));
        assert.ok(alts.includes(titles[language]), `a ${language} player's banners: ${alts.join(' | ')}`);
        const otherTitle = titles[language === 'zh-CN' ? 'en-US' : 'zh-CN'];
        assert.ok(!alts.includes(otherTitle), `a ${language} player sees the other language's title`);
      } finally {
        if (session.context) await session.context.close();
      }
    }
  });

  await t.test('an operator writes a notice in two languages; a player in each reads theirs', async () => {
    const operator = await operatorLogin(t);
    const password = /account "[^"]+", password "([^"]+)"/.exec(t.server.seedOutput)[1];
    const desk = await openConsole(t);
    const stamp = `${t.language} ${Date.now()}`;
    const texts = { 'zh-CN': { title: `维护通知 ${stamp}`, content: `今晚维护 ${stamp}` }, 'en-US': { title: `Maintenance ${stamp}`, content: `Down tonight ${stamp}` } };
    try {
      await consoleSignIn(t, desk, { account: operator.account, password });
      await desk.page.goto(t.url('/admin/content'));
      const title = desk.page.locator('input[name="noticeTitle"]');
      const body = desk.page.locator('textarea[name="noticeContent"]');
      await title.fill(texts['zh-CN'].title);
      await body.fill(texts['zh-CN'].content);
      await desk.page.getByRole('tab', { name: NAMES['en-US'] }).click();
      assert.equal(await title.inputValue(), '', 'English starts empty');
      assert.equal(await title.getAttribute('placeholder'), texts['zh-CN'].title, 'falling back to the Chinese');
      await title.fill(texts['en-US'].title);
      await body.fill(texts['en-US'].content);
      await desk.page.getByRole('tab', { name: `${NAMES['en-US']} ✓` }).waitFor();
      await desk.screenshot('notice-two-languages');
      await desk.page.getByRole('tab', { name: NAMES['zh-CN'] }).click();
      assert.equal(await title.inputValue(), texts['zh-CN'].title, 'the Chinese is kept');
      await desk.page.getByRole('button', { name: desk.text('content.publish'), exact: true }).click();
      await confirmDialog(desk);
      await desk.page.getByRole('cell', { name: texts['zh-CN'].title }).waitFor();
      desk.check();
    } finally {
      await desk.close();
    }

    for (const language of ['zh-CN', 'en-US']) {
      const text = loadTexts(language);
      const session = language === t.language ? { page } : await openSession(browser, { baseURL: t.baseURL, language });
      try {
        const player = await registerUser(t, `nl${language.slice(0, 2)}`);
        await signIn(t, session.page, text, player.account, '/pages/my/notice');
        const mine = texts[language];
        const theirs = texts[language === 'zh-CN' ? 'en-US' : 'zh-CN'];
        const row = session.page.getByRole('link').filter({ hasText: mine.title });
        await row.waitFor();
        assert.ok((await row.textContent()).includes(mine.content), `the ${language} text`);
        assert.equal(await session.page.getByText(theirs.title).count(), 0, `a ${language} player sees the other language's title`);
        assertInView(await row.boundingBox(), 'the notice');
        await session.page.screenshot({ path: t.screenshotPath(`notice-${language}`) });
      } finally {
        if (session.context) await session.context.close();
      }
    }
  });
}
