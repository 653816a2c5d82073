// Leaving with one's data (issue 37 #4): Safety → Your data and account → the export asks for
// the password and downloads a JSON file holding this account's profile and wallet (and
// nobody else's); Delete account asks what happens to the 12.34 points first, refuses a wrong
// password, then deletes with the points given up; the app is back at sign-in, signing in again
// fails, and `kj ledger check` still passes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { giveUserPoints, operatorLogin, PASSWORD, registerUser } from '../support/accounts.mjs';

export const server = { demo: true, env: { KJ_WINDOW_COUNT: '1' } };

export default async function leaveWithData(t) {
  const { page } = t;
  const user = await registerUser(t, `lv${t.language.slice(0, 2)}`);
  const operator = await operatorLogin(t);
  await giveUserPoints(t, user, operator, 1234);

  await t.test('the export downloads a file of the account’s own data', async () => {
    await page.goto(t.url('/pages/auth/login?redirect=%2Fpages%2Fmy%2Fsafety-setting'));
    await page.getByLabel(t.text('pages.login.account')).fill(user.account);
    await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
    await page.getByRole('button', { name: t.text('pages.login.submit') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/my/safety-setting');
    await page.getByRole('link', { name: t.text('leave.link') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/setting/account-data');
    await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t.text('leave.exportButton') }).tap(),
    ]);
    assert.match(download.suggestedFilename(), /^kj-data-\d+-\d{8}-\d{6}\.json$/);
    const file = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(file.profile.account, user.account, 'the profile is the account’s');
    assert.equal(file.profile.userId, user.userId);
    assert.equal(file.wallet.balanceCents, 1234, 'the balance');
    assert.deepEqual(
      file.wallet.entries.map((e) => [e.kind, e.amountCents]),
      [['recharge', 1234]],
      'the wallet’s one posting',
    );
    assert.equal(file.wallet.rechargeOrders.length, 1);
    assert.ok(!JSON.stringify(file).includes(operator.account), 'the operator who confirmed the recharge is not in the file');
    await page.getByLabel(t.text('pages.login.password')).and(page.locator('[value=""]')).waitFor();
    await t.screenshot('export');
  });

  await t.test('deleting asks about the points and the password, then signs out for good', async () => {
    // A second sign-in, on another platform (a phone): the deletion must end it too.
    const phone = await t.api('/accountLogin', { account: user.account, password: PASSWORD, platform: 1, operationID: `e2e${Date.now()}` });
    assert.equal(phone.code, 0, `second sign-in: ${phone.message}`);
    phone.token = phone.data.token;
    await page.getByRole('link', { name: t.text('leave.deleteLink') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/setting/delete-account');
    const forfeit = page.getByRole('radio', { name: t.text('leave.choiceForfeit') });
    await forfeit.waitFor();
    const remove = page.getByRole('button', { name: t.text('leave.deleteButton') });
    // No answer to the balance question: said so, nothing sent.
    await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
    await remove.tap();
    await page.getByRole('alert').filter({ hasText: t.text('leave.choiceRequired') }).waitFor();
    await forfeit.check();
    // A wrong password: the server refuses and the account stays.
    await page.getByLabel(t.text('pages.login.password')).fill('wrong9999');
    await remove.tap();
    await page.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/pages/setting/delete-account', 'a refused deletion stays on its page');
    assert.equal((await t.api('/user/amount', {}, phone.token)).code, 0, 'a refused deletion left the account alone');
    await t.screenshot('delete');

    await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
    await remove.tap();
    await page.waitForURL((url) => url.pathname === '/pages/auth/login');
    await page.getByText(t.text('leave.deleted')).first().waitFor();

    await page.getByLabel(t.text('pages.login.account')).fill(user.account);
    await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
    await page.getByRole('button', { name: t.text('pages.login.submit') }).tap();
    await page.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/pages/auth/login', 'still at sign-in');
    const login = await t.api('/accountLogin', { account: user.account, password: PASSWORD, platform: 5, operationID: `e2e${Date.now()}` });
    assert.equal(login.code, 1109, `sign-in after deletion: ${login.code} ${login.message}`);
    assert.notEqual((await t.api('/user/amount', {}, phone.token)).code, 0, 'the other sign-in ended with the account');
    const check = await t.server.run(['ledger', 'check']);
    assert.match(check, /: ok\s*$/, `ledger check: ${check}`);
  });
}
