// A bet slip against a server with short rounds: the player switches the bet panel to a slip,
// picks Big and Single at 10 points each, confirms once in a dialog that lists both selections
// and the 20-point total, and the slip becomes two bets (slipId.1, slipId.2) in one round, the
// balance down by the total. When the round is drawn each bet settles on its own by the result,
// the balance follows the payouts, and repeat-last-bet offers the whole slip.
import assert from 'node:assert/strict';
import { giveUserPoints, operatorLogin, PASSWORD, registerUser, signInThroughUi } from '../support/accounts.mjs';

export const server = {
  demo: true,
  env: {
    KJ_WINDOW_COUNT: '1',
    KJ_WINDOW_BETTING: '6s',
    KJ_WINDOW_DRAWING: '1s',
    KJ_WINDOW_REST: '1s',
    KJ_WINDOW_MIN_BET: '500',
    KJ_WINDOW_MAX_BET: '5000',
  },
};

export default async function betSlip(t) {
  const { page } = t;
  const main = page.locator('main.window-page');
  const phase = () => main.getAttribute('data-phase');
  const seconds = async () => Number(await main.locator('.round-card .countdown').getAttribute('data-seconds'));

  /** Waits for a betting phase with at least minSeconds left for the taps and the dialog. */
  async function waitForBetting(minSeconds) {
    const deadline = Date.now() + 20_000;
    while ((await phase()) !== 'betting' || (await seconds()) < minSeconds) {
      if (Date.now() > deadline) throw new Error(`no betting phase with ${minSeconds}s left`);
      await page.waitForTimeout(50);
    }
  }

  const operator = await operatorLogin(t);
  const user = await registerUser(t, `sl${t.language.slice(0, 2)}`);
  await giveUserPoints(t, user, operator, 10_000);
  await signInThroughUi(t, user.account, '/pages/find/incentive-window?id=1');
  await main.waitFor();
  // The browser's sign-in replaced the API session of the same platform: the checks read the
  // bets through a session of another platform.
  const reader = (await t.api('/accountLogin', { account: user.account, password: PASSWORD, platform: 1, operationID: `e2e${Date.now()}` })).data;
  assert.ok(reader?.token, 'second sign-in');
  const records = async () => (await t.api('/activation/lotteryBettingRecord', { tab: 'all' }, reader.token)).data.list;
  const balance = async () => (await t.api('/user/amount', {}, reader.token)).data.amount;

  let slipBets = [];
  await t.test('a two-selection slip is placed with one confirmation showing the total', async () => {
    await waitForBetting(4);
    const issue = (await main.locator('#round-issue').textContent()).replace(/\D/g, '');
    await main.getByRole('checkbox', { name: t.text('rounds.bet.slipMode'), exact: true }).check();
    await main.locator('[data-content="BIG"]').tap();
    await main.locator('[data-content="SINGLE"]').tap();
    assert.equal(await main.locator('[data-content="BIG"]').getAttribute('aria-checked'), 'true');
    assert.equal(await main.locator('[data-content="SINGLE"]').getAttribute('aria-checked'), 'true');
    await main.locator('.bet-panel__chips .chip').filter({ hasText: /^10$/ }).tap();
    assert.equal(await main.locator('.bet-panel__slip-total').getAttribute('data-total'), '2000');
    await main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true }).tap();

    const dialog = page.getByRole('dialog', { name: t.text('rounds.bet.slipConfirmTitle') });
    await dialog.waitFor();
    const lines = await dialog.locator('.bet-slip__line').evaluateAll((items) => items.map((li) => [li.dataset.content, li.dataset.amount]));
    assert.deepEqual(lines, [
      ['BIG', '1000'],
      ['SINGLE', '1000'],
    ]);
    assert.equal((await dialog.locator('.bet-slip__total').textContent()).trim(), t.text('rounds.bet.slipTotal', { amount: '20.00' }));
    await t.screenshot('slip-confirm');
    await dialog.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true }).tap();

    for (const until = Date.now() + 10_000; Date.now() < until; await page.waitForTimeout(100)) {
      slipBets = await records();
      if (slipBets.length === 2) break;
    }
    assert.equal(slipBets.length, 2, 'the slip did not become two bets');
    const byContent = Object.fromEntries(slipBets.map((b) => [b.content, b]));
    assert.equal(byContent.BIG?.amount, 1000);
    assert.equal(byContent.SINGLE?.amount, 1000);
    assert.ok(slipBets.every((b) => b.issue === issue), 'both bets are in the round shown');
    const slipId = byContent.BIG.betId.replace(/\.1$/, '');
    assert.equal(byContent.SINGLE.betId, `${slipId}.2`, 'each selection is a bet with its own id');
    assert.equal(await balance(), 10_000 - 2000, 'the total was debited once');
  });

  await t.test('each bet of the slip settles on its own, and repeat offers the slip', async () => {
    let settled = [];
    for (const until = Date.now() + 20_000; Date.now() < until; await page.waitForTimeout(200)) {
      settled = await records();
      if (settled.length === 2 && settled.every((b) => b.matched)) break;
    }
    assert.ok(settled.length === 2 && settled.every((b) => b.matched), 'the slip\'s bets were not settled');
    const history = (await t.api('/activation/historyPrize', { windowId: 1, page: 1, pageSize: 20 })).data.list;
    const result = history.find((r) => r.issue === settled[0].issue);
    assert.ok(result, 'the round is in the history');
    const { oddsBp } = (await t.api('/activation/getRuleList', {})).data.rules.find((r) => r.windowId === 1);
    let payouts = 0;
    for (const b of settled) {
      const wins = b.content === 'BIG' ? result.sum >= 14 : result.sum % 2 === 1;
      assert.equal(b.result, wins ? 'win' : 'lose', `${b.content} on sum ${result.sum}`);
      assert.equal(b.payout, wins ? Math.floor((b.amount * oddsBp) / 10_000) : 0);
      payouts += b.payout;
    }
    assert.equal(await balance(), 10_000 - 2000 + payouts, 'the balance follows the payouts');

    const repeat = main.locator('.bet-panel__repeat');
    await repeat.waitFor();
    assert.equal(await repeat.getAttribute('data-repeat'), 'BIG:1000,SINGLE:1000', 'repeat-last-bet holds the whole slip');
    assert.equal(
      (await repeat.textContent()).trim(),
      t.text('rounds.bet.repeatSlip', { contents: `${t.text('rounds.content.BIG')} + ${t.text('rounds.content.SINGLE')}`, amount: '20.00' }),
    );
    await t.screenshot('slip-settled');
  });
}
