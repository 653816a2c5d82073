// Setting the fund password on the way to a bank card (issue 35 #2): Safety → Bank cards →
// Add → Set fund password → twice → OK comes back to the card form with the password set,
// not to "change fund password" asking for the password just chosen.
import assert from 'node:assert/strict';
import { registerUser, signInThroughUi } from '../support/accounts.mjs';

export default async function fundPasswordFromCard(t) {
  const { page } = t;
  const user = await registerUser(t, `fp${t.language.slice(0, 2)}`);

  await t.test('the fund password set from "add bank card" returns to the card form', async () => {
    await signInThroughUi(t, user.account, '/pages/my/safety-setting');
    await page.getByRole('link', { name: t.text('safety.bankCards') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/setting/bank-management');
    await page.getByRole('link', { name: t.text('bank.add') }).first().tap();
    await page.waitForURL((url) => url.pathname === '/pages/setting/add-bank');
    await page.getByRole('link', { name: t.text('safety.setFundPassword') }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/setting/fund-password');
    await page.getByLabel(t.text('safety.newFundPassword')).fill('135790');
    await page.getByLabel(t.text('safety.confirmFundPassword')).fill('135790');
    await page.getByRole('button', { name: t.text('kit.confirm'), exact: true }).tap();
    await page.getByLabel(t.text('bank.holder')).waitFor();
    // Settled: no later redirect takes the page elsewhere.
    await page.waitForTimeout(1000);
    const url = new URL(page.url());
    assert.equal(url.pathname, '/pages/setting/add-bank', `landed on ${url.pathname}`);
    assert.equal(await page.getByLabel(t.text('safety.oldFundPassword')).count(), 0, 'asked for the password just chosen');
    await page.getByLabel(t.text('bank.holder')).waitFor();
    await t.screenshot('card-form');
  });
}
