// What a new user trips over, each with its way out: recharge through customer service (the
// amount in a draft to an agent), forgotten password without an SMS gateway (customer service
// instead of a code that never arrives), draw history rows told apart by their round counter
// (the full issue number in the details), same city and live highlights with a way back and
// the discover tab lit, and the styled copy button beside the invite code.
import assert from 'node:assert/strict';
import { registerUser, signInThroughUi } from '../support/accounts.mjs';

/** Rounds of a few seconds, so the history fills while the flow runs; no SMS gateway. */
export const server = {
  env: {
    KJ_WINDOW_COUNT: '1',
    KJ_WINDOW_BETTING: '2s',
    KJ_WINDOW_DRAWING: '1s',
    KJ_WINDOW_REST: '1s',
  },
};

export default async function firstSteps(t) {
  const { page } = t;

  await t.test('forgot password offers customer service when SMS codes reach no phone', async () => {
    await page.goto(t.url('/pages/auth/login?mode=forget&account=someone'));
    await page.getByText(t.text('auth.forgetViaService')).waitFor();
    assert.equal(await page.getByLabel(t.text('auth.boundPhone')).count(), 0, 'no phone field without SMS');
    await t.screenshot('forget-service');
    await page.getByRole('link', { name: t.text('auth.contactService'), exact: true }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/customer/customer');
    const draft = page.getByPlaceholder(t.text('customer.placeholder'));
    await draft.waitFor();
    const text = await draft.inputValue();
    assert.ok(text === t.text('auth.forgetDraft') || text.includes('someone'), `draft ${text}`);
  });

  const user = await registerUser(t, `fs${t.language.slice(0, 2)}`);
  await signInThroughUi(t, user.account, '/pages/my/recharge');

  await t.test('recharge through customer service opens customer service with the amount in a draft', async () => {
    const service = page.getByRole('radio', { name: t.text('recharge.methodService'), exact: true });
    await service.waitFor();
    assert.equal(await service.getAttribute('aria-checked'), 'true', 'customer service is the first method');
    // The USDT method is there too: its deposit address is configured.
    await page.getByRole('radio', { name: 'USDT', exact: true }).waitFor();
    await page.getByRole('button', { name: t.text('recharge.contactService'), exact: true }).tap();
    await page.getByRole('alert').filter({ hasText: t.text('validation.amountRequired') }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/pages/my/recharge', 'no amount, no customer service');
    await page.getByLabel(t.text('recharge.amount', { currency: 'USDT' })).fill('50');
    await t.screenshot('recharge-service');
    await page.getByRole('button', { name: t.text('recharge.contactService'), exact: true }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/customer/customer');
    const draft = page.getByPlaceholder(t.text('customer.placeholder'));
    await draft.waitFor();
    assert.equal(await draft.inputValue(), t.text('recharge.serviceDraft', { amount: t.text('format.decimalSeparator') === ',' ? '50,00' : '50.00', currency: 'USDT' }));
    await t.screenshot('recharge-draft');
  });

  await t.test('the copy button beside the invite code is a styled 44 px button', async () => {
    await page.goto(t.url('/pages/my/share-qrcode'));
    const copy = page.getByRole('button', { name: t.text('share.copyCode'), exact: true });
    await copy.waitFor();
    const look = await copy.evaluate((el) => {
      const s = getComputedStyle(el);
      return { width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height, border: s.borderTopStyle, background: s.backgroundColor };
    });
    assert.deepEqual(look, { width: 44, height: 44, border: 'none', background: 'rgba(0, 0, 0, 0)' });
    await t.screenshot('share-copy');
  });

  await t.test('same city and live highlights have a way back and light the discover tab', async () => {
    for (const path of ['/pages/tabBar/city', '/pages/tabBar/love']) {
      await page.goto(t.url('/pages/tabBar/find'));
      await page.locator('.tab-bar').waitFor();
      await page.evaluate((to) => {
        window.history.pushState(window.history.state, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      }, path);
      await page.waitForURL((url) => url.pathname === path);
      assert.equal(await page.locator('.tab-bar [data-tab="find"]').getAttribute('aria-current'), 'page', `${path}: discover is lit`);
      await t.screenshot(path.endsWith('city') ? 'city-back' : 'love-back');
      await page.getByRole('button', { name: t.text('common.back'), exact: true }).tap();
      await page.waitForURL((url) => url.pathname === '/pages/tabBar/find');
    }
  });

  await t.test('draw history shows the round counter; the details give the full issue number', async () => {
    await page.goto(t.url('/pages/find/incentive-window?id=1'));
    await page.getByRole('tab', { name: t.text('rounds.tabs.history'), exact: true }).tap();
    const row = page.locator('.history__row').first();
    await row.waitFor({ timeout: 30_000 });
    const issue = await row.getAttribute('data-issue');
    assert.match(issue, /^\d{17}$/);
    const counter = String(Number(issue.slice(12)));
    // New rounds keep arriving at the top: hold on to this one by its issue number.
    const label = page.locator(`.history__row[data-issue="${issue}"] .history__issue`);
    assert.equal((await label.textContent()).trim(), t.text('rounds.history.round', { round: counter }));
    await t.screenshot('history-counter');
    await label.tap();
    const dialog = page.getByRole('dialog');
    // The issue is shown as the round's number (the HMAC message of a round with no beacon and
    // no bets is the issue too, in a field of its own).
    await dialog.locator('dd:not([data-field])').getByText(issue, { exact: true }).waitFor();
  });
}
