// Money typed exactly (issue 35 #1), on a 390 x 844 phone and the console: a bet of "12.5" is
// 12.50 points (1250 cents), not 125; "12.345" is refused with the reason and nothing is sent;
// the recharge page shows the maximum above the deposit address and takes "0050.5" as 50.50;
// an order above the maximum is taken, flagged in the console's queue, recorded (not credited)
// on the first approval, refused to the same operator again, and credited once by a second.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { confirmDialog, consoleSignIn, openConsole } from '../console/console.mjs';
import { accountName, giveUserPoints, operatorLogin, PASSWORD, registerUser, signInThroughUi } from '../support/accounts.mjs';

export const server = {
  demo: true,
  env: {
    KJ_WINDOW_COUNT: '1',
    KJ_WINDOW_BETTING: '20s',
    KJ_WINDOW_DRAWING: '2s',
    KJ_WINDOW_REST: '2s',
    KJ_WINDOW_MIN_BET: '100',
    KJ_WINDOW_MAX_BET: '500000',
    KJ_RECHARGE_MAX: '100000',
  },
};

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export default async function moneyAmounts(t) {
  const { page } = t;
  const operator = await operatorLogin(t);
  const user = await registerUser(t, `mo${t.language.slice(0, 2)}`);
  await giveUserPoints(t, user, operator, 50_000);
  const main = page.locator('main.window-page');

  await t.test('a bet of "12.5" is 12.50 points; "12.345" and "12a" are refused with the reason, nothing sent', async () => {
    await signInThroughUi(t, user.account, '/pages/find/incentive-window?id=1');
    const deadline = Date.now() + 40_000;
    const seconds = async () => Number(await main.locator('.round-card .countdown').getAttribute('data-seconds'));
    while ((await main.getAttribute('data-phase')) !== 'betting' || (await seconds()) < 6) {
      if (Date.now() > deadline) throw new Error('no betting phase with 6 s left');
      await page.waitForTimeout(100);
    }
    const sent = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/activation/betRequest')) sent.push(request.postDataJSON());
    });
    await main.locator('[data-content="BIG"]').tap();
    const amount = main.locator('input[name="amount"]');
    const submit = main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true });
    const alert = main.locator('.bet-panel .form-message');
    for (const [typed, reason] of [['12.345', 'validation.amountDecimals'], ['12a', 'validation.amountNotNumber']]) {
      await amount.fill(typed);
      assert.equal(await amount.inputValue(), typed, 'the field keeps what was typed');
      await page.waitForTimeout(550); // one tap per 500 ms
      await submit.tap();
      await alert.filter({ hasText: t.text(reason) }).waitFor();
    }
    await t.screenshot('bet-refused');
    assert.equal(sent.length, 0, `a refused amount was sent: ${JSON.stringify(sent)}`);
    await amount.fill('12.5');
    await page.waitForTimeout(550);
    await submit.tap();
    await main.locator('.my-bets__item').first().waitFor();
    assert.equal(sent.length, 1);
    assert.equal(sent[0].amount, 1250, `"12.5" was sent as ${sent[0].amount} cents`);
    const list = ok(await t.api('/activation/lotteryBettingRecord', { tab: 'all', page: 1, pageSize: 5 }, await page.evaluate(() => localStorage.getItem('access_token'))), 'records');
    assert.equal(list.list[0].amount, 1250);
  });

  await t.test('recharge: the maximum is shown above the deposit address; "0050.5" is 50.50, "10.001" is refused', async () => {
    await page.goto(t.url('/pages/my/recharge'));
    // Customer service is the first method offered; the deposit address is USDT's.
    const usdt = page.getByRole('tab', { name: 'USDT', exact: true }).or(page.getByRole('radio', { name: 'USDT', exact: true })).first();
    await usdt.waitFor();
    await usdt.tap();
    const max = page.getByTestId('recharge-max');
    await max.waitFor();
    const text = await max.textContent();
    assert.ok(/1,?000\.00/.test(text), `the maximum 1,000.00 is not shown: "${text}"`);
    const address = await page.getByTestId('deposit-address').boundingBox();
    const maxBox = await max.boundingBox();
    assert.ok(maxBox.y + maxBox.height <= address.y, `the maximum ${JSON.stringify(maxBox)} is not above the address ${JSON.stringify(address)}`);
    assert.ok(maxBox.x >= 0 && maxBox.x + maxBox.width <= 390.5, 'the maximum is inside the screen');
    await t.screenshot('recharge-max');

    const amount = page.locator('input[name="amount"]');
    await page.locator('input[name="tx-hash"]').fill(randomBytes(32).toString('hex'));
    await amount.fill('10.001');
    await page.getByRole('button', { name: t.text('recharge.submit'), exact: true }).tap();
    await page.getByRole('alert').filter({ hasText: t.text('validation.amountDecimals') }).waitFor();
    assert.equal(await amount.inputValue(), '10.001');
    await amount.fill('0050.5');
    const request = page.waitForRequest((r) => r.url().endsWith('/api/user/rechargeOrder'));
    await page.getByRole('button', { name: t.text('recharge.submit'), exact: true }).tap();
    assert.equal((await request).postDataJSON().amount, 5050, '"0050.5" is 50.50');
    await page.getByText(t.text('recharge.submittedTitle')).waitFor();
  });

  await t.test('above the maximum: flagged, one operator cannot credit it, a second one does, once', async () => {
    const second = accountName('adm');
    await t.server.run(['admin', 'create-operator', '--account', second, '--password', PASSWORD, '--role', 'admin']);
    const secondTokens = ok(await t.api('/accountLogin', { account: second, password: PASSWORD, platform: 5, operationID: 'e2e-2nd' }), 'second operator');
    const tokens = ok(await t.api('/accountLogin', { account: user.account, password: PASSWORD, platform: 2, operationID: 'e2e-api' }), 'api sign-in');
    const before = ok(await t.api('/user/amount', {}, tokens.token), 'amount').amount;
    const order = ok(await t.api('/user/rechargeOrder', { amount: 150_000, protocol: 'TRC20', txHash: randomBytes(32).toString('hex') }, tokens.token), 'large order');

    const agent = await openConsole(t);
    try {
      const match = /account "([^"]+)", password "([^"]+)"/.exec(t.server.seedOutput);
      await consoleSignIn(t, agent, { account: match[1], password: match[2] });
      const p = agent.page;
      await p.getByRole('link', { name: agent.text('nav.recharges') }).click();
      const row = p.locator(`tr[data-order="${order.orderNo}"]`);
      await row.waitFor();
      // Other runs' orders wait in the queue too: narrowed to this player's.
      await p.getByRole('textbox', { name: agent.text('orders.searchAny') }).fill(user.account);
      await p.getByRole('button', { name: agent.text('common.search'), exact: true }).click();
      await row.getByTestId('needs-second').filter({ hasText: agent.text('orders.needsTwo') }).waitFor();
      await row.click();
      await p.getByTestId('order-confirm').click();
      await confirmDialog(agent);
      await p.getByTestId('second-approval').filter({ hasText: match[1] }).waitFor();
      await row.getByTestId('needs-second').filter({ hasText: agent.text('orders.awaitingSecond', { account: match[1] }) }).waitFor();
      await agent.screenshot('second-approval');
      assert.equal(ok(await t.api('/user/amount', {}, tokens.token), 'amount').amount, before, 'credited on one approval');
      const again = await t.api('/admin/recharge/confirm', { orderId: order.id }, operator.token);
      assert.equal(again.code, 1225, `the first approver again: ${again.code} ${again.message}`);
      const done = ok(await t.api('/admin/recharge/confirm', { orderId: order.id }, secondTokens.token), 'second approval');
      assert.equal(done.status, 1);
      ok(await t.api('/admin/recharge/confirm', { orderId: order.id }, secondTokens.token), 'second approval again');
      assert.equal(ok(await t.api('/user/amount', {}, tokens.token), 'amount').amount, before + 150_000, 'credited once');
      agent.check();
    } finally {
      await agent.close();
    }
  });
}
