// The account side end to end: register with an invite code, sign out,
// sign in, see the balance, add a bank card (the mismatch error first), ask for an exchange
// without enough points (the server's error), switch the language to en-US and see every
// label change, read a notice an operator published.
import assert from 'node:assert/strict';
import {
  apiData,
  flowAddress,
  operatorSession,
  publishNotice,
  registerUser,
  signInThroughUi,
  uniqueName,
} from '../helpers/accounts.mjs';
import { loadTexts } from '../lib.mjs';

const PASSWORD = 'abc12345';
const FUND_PASSWORD = '246810';
const CARD = '6222020200112233445';

/** The mine page's labels that must all change with the language. */
const MINE_LABELS = [
  'pages.mine.title',
  'mine.pointsBalance',
  'mine.recharge',
  'mine.exchange',
  'mine.clickRecords',
  'mine.pointsDetails',
  'mine.exchangeRecords',
  'mine.safetySettings',
  'mine.notices',
  'pages.mine.languageSetting',
  'mine.editProfile',
  'mine.changeAvatar',
  'mine.shareQrcode',
  'mine.switchAccount',
  'mine.downloadApp',
  'mine.checkVersion',
  'pages.mine.signOut',
  'mine.notActivated',
  'tabs.chat',
  'tabs.find',
];

export default async function accounts(t) {
  const { page } = t;
  const address = flowAddress();
  await t.context.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
  const account = uniqueName('u_');
  const alert = () => page.getByRole('alert');
  const heading = (key) => page.getByRole('heading', { level: 1, name: t.text(key), exact: true });
  const exact = (key) => ({ name: t.text(key), exact: true });
  let inviter;
  let operator;

  const goToMine = async () => {
    await page.goto(t.url('/pages/tabBar/mine'));
    await page.getByTestId('points-balance').waitFor();
  };

  await t.test('an invitation link opens the register tab with the code filled in', async () => {
    const inviterAccount = uniqueName('inv_');
    inviter = await registerUser(t.baseURL, { account: inviterAccount, password: PASSWORD, address });
    assert.match(inviter.inviteCode, /^pro_/);
    await page.goto(t.url(`/pages/auth/login?inviteCode=${inviter.inviteCode}`));
    const tab = page.getByRole('tab', exact('auth.registerTab'));
    await tab.waitFor();
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByLabel(t.text('auth.inviteCodeOptional'), { exact: true }).inputValue(), inviter.inviteCode);
    // Spec section 4: kept as the superior.
    assert.equal(await page.evaluate(() => localStorage.getItem('superior')), inviter.inviteCode);
    await t.screenshot('register');
  });

  await t.test('the password rules answer with the product messages before anything is sent', async () => {
    await page.getByLabel(t.text('pages.login.account'), { exact: true }).fill(account);
    const password = page.getByLabel(t.text('pages.login.password'), { exact: true });
    const confirm = page.getByLabel(t.text('auth.confirmPassword'), { exact: true });
    const submit = page.getByRole('button', exact('auth.register'));
    await password.fill('abcdefg');
    await submit.tap();
    await alert().filter({ hasText: t.text('validation.passwordNoDigit') }).waitFor();
    await password.fill('1234567');
    await submit.tap();
    await alert().filter({ hasText: t.text('validation.passwordNoLetter') }).waitFor();
    await password.fill('ab1');
    await submit.tap();
    await alert().filter({ hasText: t.text('validation.passwordLength') }).waitFor();
    await password.fill(PASSWORD);
    await confirm.fill(`${PASSWORD}x`);
    await submit.tap();
    await alert().filter({ hasText: t.text('validation.passwordMismatch') }).waitFor();
    await t.screenshot('register-rules');
  });

  await t.test('registering signs in and the inviter becomes the superior', async () => {
    await page.getByLabel(t.text('auth.confirmPassword'), { exact: true }).fill(PASSWORD);
    await page.getByRole('button', exact('auth.register')).tap();
    await page.waitForURL((url) => url.pathname === '/');
    assert.ok(await page.evaluate(() => localStorage.getItem('access_token')));
    operator = await operatorSession(t, address);
    const user = await apiData(t.baseURL, '/admin/user', { account }, { token: operator.token, address });
    const inviterUser = await apiData(t.baseURL, '/admin/user', { account: inviter.account }, { token: operator.token, address });
    assert.equal(user.superiorId, inviterUser.userId);
  });

  await t.test('the mine tab shows the profile and a zero balance', async () => {
    await page.getByRole('navigation', { name: t.text('tabs.navigation') }).locator('a[data-tab="mine"]').tap();
    await page.getByText(t.text('mine.account', { account })).waitFor();
    // The balance loads after the page shows: wait for it rather than read it once.
    await page.getByTestId('points-balance').and(page.getByText('0.00', { exact: true })).waitFor();
    await page.getByText(t.text('mine.notActivated'), { exact: true }).waitFor();
    await t.screenshot('mine');
  });

  await t.test('sign out from edit information, then sign in again', async () => {
    await page.getByRole('link', exact('mine.editProfile')).tap();
    await heading('profile.title').waitFor();
    // New accounts are nicknamed after themselves: both rows show it.
    assert.equal(await page.getByText(account, { exact: true }).count(), 2);
    await t.screenshot('edit-information');
    await page.getByRole('button', exact('pages.mine.signOut')).tap();
    await page.waitForURL((url) => url.pathname === '/pages/auth/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('access_token')), null);
    await signInThroughUi(t, { account, password: 'wrong123' });
    await alert().filter({ hasText: /\S/ }).waitFor();
    await t.screenshot('login-refused');
    await signInThroughUi(t, { account, password: PASSWORD });
    await page.waitForURL((url) => url.pathname === '/');
    await goToMine();
    // The balance loads after the page shows: wait for it rather than read it once.
    await page.getByTestId('points-balance').and(page.getByText('0.00', { exact: true })).waitFor();
  });

  await t.test('set the fund password, then add a bank card: the mismatch is refused first', async () => {
    await page.getByRole('link', exact('mine.safetySettings')).tap();
    await heading('safety.title').waitFor();
    await t.screenshot('safety-settings');
    await page.getByRole('link', { name: new RegExp(t.text('safety.fundPassword')) }).tap();
    await heading('safety.setFundPassword').waitFor();
    await page.getByLabel(t.text('safety.newFundPassword'), { exact: true }).fill(FUND_PASSWORD);
    await page.getByLabel(t.text('safety.confirmFundPassword'), { exact: true }).fill(FUND_PASSWORD);
    await page.getByRole('button', exact('kit.confirm')).tap();
    await heading('safety.title').waitFor();
    await page.getByRole('link', { name: new RegExp(t.text('safety.set')) }).waitFor();

    await page.getByRole('link', { name: new RegExp(t.text('safety.bankCards')) }).tap();
    await heading('bank.title').waitFor();
    await page.getByText(t.text('bank.emptyTitle')).waitFor();
    await page.getByRole('link', exact('bank.add')).tap();
    await heading('bank.addTitle').waitFor();
    await page.getByLabel(t.text('bank.holder'), { exact: true }).fill('Test Holder');
    const bank = page.getByLabel(t.text('bank.bank'), { exact: true });
    const firstBank = await bank.locator('option').nth(1).getAttribute('value');
    await bank.selectOption(firstBank);
    await page.getByLabel(t.text('bank.cardNumber'), { exact: true }).fill(CARD);
    await page.getByLabel(t.text('bank.confirmCardNumber'), { exact: true }).fill(`${CARD.slice(0, -1)}9`);
    await page.getByLabel(t.text('bank.fundPassword'), { exact: true }).fill(FUND_PASSWORD);
    await page.getByRole('button', exact('bank.submit')).tap();
    await alert().filter({ hasText: t.text('validation.cardMismatch') }).waitFor();
    await t.screenshot('add-bank-mismatch');

    await page.getByLabel(t.text('bank.confirmCardNumber'), { exact: true }).fill(CARD);
    await page.getByRole('button', exact('bank.submit')).tap();
    const dialog = page.getByRole('dialog', { name: t.text('bank.confirmTitle') });
    await dialog.waitFor();
    await dialog.getByText(t.text('bank.confirmNumber', { number: '6222 0202 0011 2233 445' })).waitFor();
    await t.screenshot('add-bank-confirm');
    await dialog.getByRole('button', exact('kit.confirm')).tap();
    await heading('bank.title').waitFor();
    await page.getByText('3445').waitFor();
    await t.screenshot('bank-management');
  });

  await t.test('an exchange without enough points shows the server refusal', async () => {
    await goToMine();
    await page.getByRole('link', exact('mine.exchange')).tap();
    await heading('exchange.title').waitFor();
    assert.equal(await page.getByTestId('exchange-balance').textContent(), '0.00');
    await page.getByLabel(t.text('exchange.amount'), { exact: true }).fill('100');
    await page.getByLabel(t.text('bank.fundPassword'), { exact: true }).fill(FUND_PASSWORD);
    await page.getByRole('button', exact('exchange.submit')).tap();
    const insufficient = { 'zh-CN': '余额不足', 'en-US': 'Insufficient balance' }[t.language] ?? /\S/;
    await alert().filter({ hasText: insufficient }).waitFor();
    await t.screenshot('exchange-refused');
  });

  await t.test('switching the language to en-US changes every label at once and is remembered', async () => {
    const target = t.language === 'en-US' ? ['zh-CN', 'en-US'] : ['en-US'];
    for (const language of target) {
      const name = { 'zh-CN': '简体中文', 'en-US': 'English' }[language];
      const texts = loadTexts(language);
      await page.goto(t.url('/pages/my/language-setting'));
      await page.getByRole('radio', { name }).check();
      await page.getByRole('heading', { level: 1, name: texts('pages.languageSetting.title'), exact: true }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), language);
      await t.screenshot(`language-${language}`);
      await page.getByRole('button', { name: texts('common.back') }).tap();
      await page.goto(t.url('/pages/tabBar/mine'));
      await page.getByTestId('points-balance').waitFor();
      const body = await page.locator('body').innerText();
      for (const key of MINE_LABELS) {
        assert.ok(body.includes(texts(key)), `${language}: mine page shows ${key} = "${texts(key)}"`);
      }
      assert.equal(await page.evaluate(() => localStorage.getItem('user_language')), language);
    }
    await page.reload();
    await page.getByTestId('points-balance').waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'en-US');
    await page.getByRole('heading', { level: 1, name: loadTexts('en-US')('pages.mine.title'), exact: true }).waitFor();
    await t.screenshot('mine-en-US');
    // Back to the run's language for the rest of the flow.
    await page.evaluate((lng) => {
      localStorage.setItem('user_language', lng);
    }, t.language);
  });

  await t.test('a published notice shows as unread, opens, and read-all clears the badge', async () => {
    const stamp = uniqueName('');
    const first = await publishNotice(t, operator, {
      title: `${t.language} notice ${stamp}`,
      content: `Maintenance tonight (${stamp}).\nThe app stays available.`,
      address,
    });
    await publishNotice(t, operator, { title: `${t.language} second ${stamp}`, content: 'Second notice.', address });
    await goToMine();
    const unread = await apiData(t.baseURL, '/user/mine', {}, { token: await page.evaluate(() => localStorage.getItem('access_token')), address });
    assert.ok(unread.notice >= 2);
    const notices = page.getByRole('link', { name: new RegExp(`^${t.text('mine.notices')}`) });
    await notices.getByText(String(unread.notice > 99 ? '99+' : unread.notice), { exact: true }).waitFor();
    await t.screenshot('mine-unread');
    await notices.tap();
    await heading('notices.title').waitFor();
    const row = page.getByRole('link', { name: new RegExp(first.title) });
    await row.waitFor();
    assert.equal(await row.getAttribute('data-unread'), 'true');
    await t.screenshot('notices');
    await row.tap();
    await heading('notices.detailTitle').waitFor();
    await page.getByRole('heading', { level: 2, name: first.title }).waitFor();
    await page.getByText(`Maintenance tonight (${stamp}).`).waitFor();
    await t.screenshot('notice-detail');
    await page.getByRole('button', { name: t.text('common.back') }).tap();
    await heading('notices.title').waitFor();
    await page.waitForFunction((title) => {
      const link = [...document.querySelectorAll('a')].find((a) => a.textContent?.includes(title));
      return link && !link.hasAttribute('data-unread');
    }, first.title);
    await page.getByRole('button', exact('notices.readAll')).tap();
    await page.waitForFunction(() => document.querySelectorAll('a[data-unread]').length === 0);
    await page.getByRole('button', { name: t.text('common.back') }).tap();
    await page.getByTestId('points-balance').waitFor();
    assert.equal(await notices.locator('.menu__badge').count(), 0);
  });
}
