// The rest of the account screens against the real server: recharge (confirmed by an
// operator), exchange (failed by an operator with a remark), the three record screens with
// tabs and day filters, nickname, avatar upload, share QR code, password and phone, switch
// account, and the update prompts (normal and forced version).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  apiCall,
  apiData,
  flowAddress,
  operatorSession,
  registerUser,
  signInThroughUi,
  uniqueName,
} from '../helpers/accounts.mjs';

const PASSWORD = 'abc12345';
const NEW_PASSWORD = 'xyz98765';
const FUND_PASSWORD = '135790';
const CARD = '6217000010001234567';
// A 1 x 1 PNG: the server decodes and re-encodes every avatar, so it must be a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const EMPTY_PACKAGE = { version: '', path: '', remark: '' };

export default async function accountScreens(t) {
  const { page } = t;
  const address = flowAddress();
  await t.context.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
  const heading = (key, values) => page.getByRole('heading', { level: 1, name: t.text(key, values), exact: true });
  const exact = (key, values) => ({ name: t.text(key, values), exact: true });
  const toast = (key, values) => page.getByRole('status').filter({ hasText: t.text(key, values) });
  const account = uniqueName('a_');
  const other = uniqueName('b_');
  let operator;
  const token = () => page.evaluate(() => localStorage.getItem('access_token'));
  const goToMine = async () => {
    await page.goto(t.url('/pages/tabBar/mine'));
    await page.getByTestId('points-balance').waitFor();
  };

  await t.test('sign in, set a fund password and a bank card', async () => {
    await registerUser(t.baseURL, { account, password: PASSWORD, address });
    await registerUser(t.baseURL, { account: other, password: PASSWORD, address });
    operator = await operatorSession(t, address);
    await page.goto(t.url('/pages/auth/login'));
    await signInThroughUi(t, { account, password: PASSWORD });
    await page.waitForURL((url) => url.pathname === '/');
    // The fund password and card go in through the API: 03-accounts covers their screens.
    await apiData(t.baseURL, '/user/setWalletPwd', { password: FUND_PASSWORD }, { token: await token(), address });
    const banks = await apiData(t.baseURL, '/user/getBankList', {}, { token: await token(), address });
    await apiData(
      t.baseURL,
      '/user/setBankCard',
      { name: 'Screen Tester', bank: banks.list[0].id, cardNumber: CARD, confirmCardNumber: CARD, fundPassword: FUND_PASSWORD },
      { token: await token(), address },
    );
  });

  await t.test('recharge: protocol, address with QR and copy, minimum, hash; confirmed by an operator', async () => {
    await goToMine();
    await page.getByRole('link', exact('mine.recharge')).tap();
    await heading('recharge.title').waitFor();
    const chains = await apiData(t.baseURL, '/user/getChainTypes', {}, { token: await token(), address });
    // Customer service is the first method; the USDT transfer is the other.
    await page.getByRole('radio', { name: chains.currency, exact: true }).tap();
    assert.equal(await page.getByTestId('deposit-address').textContent(), chains.list[0].address);
    await page.getByRole('radio', { name: chains.list[1].name }).tap();
    assert.equal(await page.getByTestId('deposit-address').textContent(), chains.list[1].address);
    await page.getByRole('radio', { name: chains.list[0].name }).tap();
    await page.locator('canvas.qr-code:not([data-failed])').waitFor();
    await t.screenshot('recharge');
    const amount = page.getByLabel(t.text('recharge.amount', { currency: chains.currency }), { exact: true });
    await amount.fill('0.5');
    await page.getByRole('button', exact('recharge.submit')).tap();
    await page.getByRole('alert').filter({ hasText: t.text('validation.rechargeMin', { min: '10.00' }) }).waitFor();
    await amount.fill('50');
    const hash = randomBytes(32).toString('hex');
    await page.getByLabel(t.text('recharge.txHash'), { exact: true }).fill(hash);
    await page.getByRole('button', exact('recharge.submit')).tap();
    await page.getByRole('heading', { level: 2, name: t.text('recharge.submittedTitle') }).waitFor();
    await t.screenshot('recharge-submitted');
    const pending = await apiData(t.baseURL, '/admin/recharge/list', { status: 0 }, { token: operator.token, address });
    const order = pending.list.find((o) => o.txHash === hash);
    assert.ok(order, 'the operator sees the recharge under review');
    await apiData(t.baseURL, '/admin/recharge/confirm', { orderId: order.id }, { token: operator.token, address });
    await goToMine();
    // The balance loads after the page shows: wait for it rather than read it once.
    await page.getByTestId('points-balance').and(page.getByText('50.00', { exact: true })).waitFor();
  });

  await t.test('exchange 20 points; the operator fails it with a remark and refunds', async () => {
    await page.getByRole('link', exact('mine.exchange')).tap();
    await heading('exchange.title').waitFor();
    await page.getByLabel(t.text('exchange.amount'), { exact: true }).fill('20');
    await page.getByLabel(t.text('bank.fundPassword'), { exact: true }).fill(FUND_PASSWORD);
    await page.getByRole('button', exact('exchange.submit')).tap();
    await page.waitForURL((url) => url.pathname === '/pages/my/exchange-record');
    await heading('mine.exchangeRecords').waitFor();
    await page.getByText(t.text('records.state.0'), { exact: true }).nth(1).waitFor();
    await t.screenshot('exchange-records-review');
    const pending = await apiData(t.baseURL, '/admin/exchange/list', { status: 0 }, { token: operator.token, address });
    const order = pending.list.find((o) => o.account === account);
    assert.ok(order, 'the operator sees the exchange under review');
    await apiData(t.baseURL, '/admin/exchange/fail', { orderId: order.id, remark: 'Name does not match' }, { token: operator.token, address });
  });

  await t.test('exchange records: tabs and day filter', async () => {
    await page.goto(t.url('/pages/my/exchange-record'));
    await page.getByRole('tab', exact('records.state.2')).tap();
    await page.getByText(t.text('records.remark', { remark: 'Name does not match' })).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('tab'), 'failed');
    await page.getByRole('radio', exact('records.lastDays', { count: 30 })).tap();
    await page.getByText(t.text('records.remark', { remark: 'Name does not match' })).waitFor();
    await t.screenshot('exchange-records-failed');
    await page.getByRole('tab', exact('records.state.1')).tap();
    await page.getByRole('heading', { level: 2, name: t.text('records.emptyExchanges') }).waitFor();
  });

  await t.test('points details: income and expenditure', async () => {
    await page.goto(t.url('/pages/my/points-details'));
    await heading('mine.pointsDetails').waitFor();
    const rows = page.getByRole('list', { name: t.text('mine.pointsDetails') }).getByRole('listitem');
    await rows.nth(2).waitFor();
    const all = await rows.allInnerTexts();
    assert.ok(all.some((r) => r.includes(t.text('records.type.recharge')) && r.includes('+50.00')), all.join(' | '));
    assert.ok(all.some((r) => r.includes(t.text('records.type.exchangeRefund')) && r.includes('+20.00')), all.join(' | '));
    assert.ok(all.some((r) => r.includes(t.text('records.type.exchange')) && r.includes('-20.00')), all.join(' | '));
    await t.screenshot('points-details');
    await page.getByRole('tab', exact('records.expenditure')).tap();
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label] li').length === 1);
    assert.match(await rows.first().innerText(), /-20\.00/);
  });

  await t.test('click records: a bet placed in an open round shows as not matched', async () => {
    const tk = await token();
    const deadline = Date.now() + 45_000;
    let bet = null;
    while (!bet && Date.now() < deadline) {
      for (const windowId of [1, 2, 3]) {
        const now = await apiCall(t.baseURL, '/activation/getNewLottery', { windowId }, { token: tk, address });
        const round = now.data?.round;
        if (now.code !== 0 || round?.phase !== 'betting' || round.bettingEndsAt - now.data.serverTime < 3_000) continue;
        const placed = await apiCall(
          t.baseURL,
          '/activation/betRequest',
          { windowId, issue: round.issue, content: 'BIG', amount: round.minBet, betId: `e2e-${randomBytes(6).toString('hex')}` },
          { token: tk, address },
        );
        if (placed.code === 0) {
          bet = placed.data;
          break;
        }
      }
      if (!bet) await page.waitForTimeout(500); // polling the server's round clock
    }
    assert.ok(bet, 'a round was open for betting within 45 s');
    await page.goto(t.url('/pages/my/click-record'));
    await heading('mine.clickRecords').waitFor();
    await page.getByText(t.text('records.issue', { issue: bet.issue })).waitFor();
    await page.getByRole('tab', exact('records.notMatched')).tap();
    await page.getByText(t.text('records.issue', { issue: bet.issue })).waitFor();
    await t.screenshot('click-records');
    await page.getByRole('tab', exact('records.matched')).tap();
    await page.getByRole('heading', { level: 2, name: t.text('records.emptyClicks') }).waitFor();
  });

  await t.test('set nickname (10 characters at most) and upload an avatar', async () => {
    await page.goto(t.url('/pages/my/edit-nick-name'));
    await heading('profile.setNickname').waitFor();
    const nick = page.getByLabel(t.text('profile.nickname'), { exact: true });
    await nick.fill('ABCDEFGHIJK');
    await page.getByRole('button', exact('kit.save')).tap();
    await page.getByRole('alert').filter({ hasText: t.text('validation.nicknameLength') }).waitFor();
    await nick.fill('Tester');
    await page.getByRole('button', exact('kit.save')).tap();
    await page.waitForURL((url) => url.pathname !== '/pages/my/edit-nick-name');
    await page.goto(t.url('/pages/my/change-avatar'));
    await heading('profile.changeAvatar').waitFor();
    await page.getByTestId('avatar-album').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: t.text('profile.avatarPreview') }).waitFor();
    await t.screenshot('change-avatar');
    await page.getByRole('button', exact('profile.upload')).tap();
    await page.waitForURL((url) => url.pathname !== '/pages/my/change-avatar');
    await goToMine();
    await page.getByText('Tester', { exact: true }).waitFor();
    const avatar = page.getByRole('img', { name: 'Tester' }).first();
    assert.match((await avatar.getAttribute('src')) ?? '', /^\/files\/avatars\//);
  });

  await t.test('share QR code: the invite link as a QR code, saved as an image', async () => {
    await page.goto(t.url('/pages/my/share-qrcode'));
    await heading('mine.shareQrcode').waitFor();
    const link = await apiData(t.baseURL, '/user/getUserProUrl', {}, { token: await token(), address });
    assert.equal(await page.getByTestId('invite-code').textContent(), link.inviteCode);
    const qr = page.locator('canvas.qr-code:not([data-failed])');
    assert.equal(await qr.getAttribute('data-value'), link.url);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', exact('share.saveImage')).tap()]);
    assert.equal(download.suggestedFilename(), `invite-${link.inviteCode}.png`);
    await t.screenshot('share-qrcode');
  });

  await t.test('phone number and login password', async () => {
    await page.goto(t.url('/pages/setting/phone-number'));
    await heading('safety.phone').waitFor();
    await page.getByLabel(t.text('safety.newPhone'), { exact: true }).fill('13800138000');
    await page.getByRole('button', exact('kit.save')).tap();
    await page.waitForURL((url) => url.pathname !== '/pages/setting/phone-number');
    await page.goto(t.url('/pages/my/safety-setting'));
    await page.getByText('138****8000').waitFor();
    await page.goto(t.url('/pages/setting/modify-password'));
    await heading('safety.loginPassword').waitFor();
    await page.getByLabel(t.text('safety.oldPassword'), { exact: true }).fill(PASSWORD);
    await page.getByLabel(t.text('auth.newPassword'), { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel(t.text('auth.confirmPassword'), { exact: true }).fill(NEW_PASSWORD);
    await t.screenshot('modify-password');
    await page.getByRole('button', exact('kit.confirm')).tap();
    await toast('safety.passwordChanged').waitFor();
  });

  // /accountLoginAtm ends the session being left and the server tells its chat
  // socket the token expired; that must not sign the next account out.
  await t.test('switch account: add another account, then back with the password', async () => {
    await page.goto(t.url('/pages/my/switch-account'));
    await heading('mine.switchAccount').waitFor();
    await page.getByRole('button', { name: new RegExp(t.text('switchAccount.add')) }).tap();
    await heading('auth.addAccountTitle').waitFor();
    await signInThroughUi(t, { account: other, password: PASSWORD });
    // A fresh chat token opens the chat session, which may take the app to
    // the chat tab; either way the sign-in page is left.
    await page.waitForURL((url) => url.pathname !== '/pages/auth/login');
    await page.goto(t.url('/pages/tabBar/mine'));
    await page.getByText(t.text('mine.account', { account: other })).waitFor();
    const otherToken = await token();
    await page.goto(t.url('/pages/my/switch-account'));
    const list = page.getByRole('list', { name: t.text('switchAccount.listLabel') });
    const rows = list.getByTestId('account-row');
    await rows.nth(1).waitFor();
    // Any account but the one in use can be removed from the list; the one in use cannot.
    assert.equal(await list.getByRole('button', { name: t.text('switchAccount.remove', { account: other }) }).count(), 0);
    await list.getByRole('button', { name: t.text('switchAccount.remove', { account }) }).waitFor();
    assert.match(await list.locator('[aria-current="true"]').innerText(), new RegExp(other));
    await t.screenshot('switch-account');
    await rows.filter({ hasText: account }).tap();
    const dialog = page.getByRole('dialog', { name: t.text('switchAccount.dialogTitle', { account }) });
    await dialog.getByLabel(t.text('pages.login.password'), { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByRole('button', exact('switchAccount.confirm')).tap();
    await page.waitForURL((url) => url.pathname !== '/pages/my/switch-account');
    await page.goto(t.url('/pages/tabBar/mine'));
    await page.getByText(t.text('mine.account', { account })).waitFor();
    // Still signed in as the account switched to once the chat socket is up on its token.
    await page.goto(t.url('/'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(new URL(page.url()).pathname, '/');
    const current = await token();
    assert.ok(current && current !== otherToken, 'the account switched to keeps its session');
    // /accountLoginAtm ended the session being left.
    const stale = await apiCall(t.baseURL, '/user/mine', {}, { token: otherToken, address });
    assert.notEqual(stale.code, 0);
  });

  await t.test('update prompts: optional (ignored, offered again on mine), forced, latest', async () => {
    const save = (manifest) => apiData(t.baseURL, '/admin/manifest/save', manifest, { token: operator.token, address });
    try {
      await save({
        package: { normal: { version: '1.4.0', path: '/files/kj-1.4.0.apk', remark: 'Faster chats' }, force: EMPTY_PACKAGE },
        resource: { version: '', path: '' },
      });
      await page.goto(t.url('/pages/tabBar/find'));
      const prompt = page.getByRole('dialog', { name: t.text('appUpdate.title', { version: '1.4.0' }) });
      await prompt.getByText('Faster chats').waitFor();
      await t.screenshot('update-optional');
      await prompt.getByRole('button', exact('appUpdate.ignore')).tap();
      assert.equal(await page.evaluate(() => localStorage.getItem('ignore_app_version')), '1.4.0');
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await prompt.count(), 0, 'an ignored version stays quiet on launch');
      await goToMine();
      await page.getByRole('button', { name: new RegExp(t.text('mine.checkVersion')) }).tap();
      await prompt.waitFor();
      await prompt.getByRole('button', exact('appUpdate.later')).tap();

      await save({
        package: {
          normal: { version: '1.4.0', path: '/files/kj-1.4.0.apk', remark: 'Faster chats' },
          force: { version: '1.3.300000000', path: '/files/kj-1.3.300000000.apk', remark: 'Security fix' },
        },
        resource: { version: '', path: '' },
      });
      await page.reload();
      const forced = page.getByRole('dialog', { name: t.text('appUpdate.title', { version: '1.3.300000000' }) });
      await forced.getByText('Security fix').waitFor();
      assert.equal(await forced.getByRole('button', exact('appUpdate.later')).count(), 0);
      await page.keyboard.press('Escape');
      await forced.waitFor();
      assert.equal(await forced.getByRole('link', exact('appUpdate.updateNow')).getAttribute('href'), '/files/kj-1.3.300000000.apk');
      await t.screenshot('update-forced');
    } finally {
      await save({ package: { normal: EMPTY_PACKAGE, force: EMPTY_PACKAGE }, resource: { version: '', path: '' } });
    }
    await goToMine();
    await page.getByRole('button', { name: new RegExp(t.text('mine.checkVersion')) }).tap();
    await toast('appUpdate.latest').waitFor();
  });

  await t.test('dark mode on the account screens, and every control is a 44 px touch target', async () => {
    await darkAndTargets(t);
  });
}

/** Controls smaller than 44 x 44 px on the current page (a radio's label is its target). */
async function smallTargets(page) {
  return page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll('a[href], button, input, select, textarea, [role="tab"], [role="radio"]')) {
      if (el.closest('.visually-hidden') || el.classList.contains('visually-hidden')) continue;
      if (el instanceof HTMLInputElement && ['radio', 'checkbox', 'file'].includes(el.type)) continue;
      // A field's box is its target; its input fills it.
      const target = el.closest('.field__control') ?? el;
      const box = target.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.height < 43.5 || box.width < 43.5) small.push(`${el.tagName.toLowerCase()} "${el.textContent?.trim() || el.getAttribute('aria-label') || ''}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    return small;
  });
}

async function darkAndTargets(t) {
  const { page } = t;
  const pages = [
    ['/pages/tabBar/mine', 'mine'],
    ['/pages/my/edit-information', 'edit-information'],
    ['/pages/my/safety-setting', 'safety-setting'],
    ['/pages/setting/bank-management', 'bank-management'],
    ['/pages/setting/add-bank', 'add-bank'],
    ['/pages/my/exchange', 'exchange'],
    ['/pages/my/recharge', 'recharge'],
    ['/pages/my/points-details', 'points-details'],
    ['/pages/my/notice', 'notices'],
    ['/pages/my/switch-account', 'switch-account'],
  ];
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    for (const [path, name] of pages) {
      await page.goto(t.url(path));
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(15, 17, 21)');
      assert.deepEqual(await smallTargets(page), [], `${path}: every control is at least 44 x 44 px`);
      if (name === 'mine' || name === 'add-bank' || name === 'points-details') await t.screenshot(`${name}-dark`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}
