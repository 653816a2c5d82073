// The operator console at /admin/ (desktop, 1280 x 800): an admin creates an agent; the agent
// signs in, confirms a player's recharge (the player's balance changes in the players' app),
// fails an exchange with a reason (the player gets the points back), activates a member and
// answers a guest in customer service live; the agent has no odds button and the server
// refuses the direct call; the admin changes the odds and the next round carries them; the
// audit page lists the console's actions. Every console screen is photographed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { accountName, PASSWORD, registerUser, signInThroughUi } from '../support/accounts.mjs';
import { sendToCustomerService } from '../support/customer.mjs';
import { confirmDialog, consoleSignIn, openConsole, rawCall } from '../console/console.mjs';

// One short window, so a changed rule reaches the next round within seconds.
export const server = {
  env: { KJ_WINDOW_COUNT: '1', KJ_WINDOW_BETTING: '6s', KJ_WINDOW_DRAWING: '2s', KJ_WINDOW_REST: '2s' },
};

const FUND_PASSWORD = '246810';

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

/** Polls `fn` until it returns a truthy value (15 s). */
async function until(what, fn) {
  for (let i = 0; i < 75; i += 1) {
    const v = await fn();
    if (v) return v;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export default async function operatorConsole(t) {
  const { page } = t;
  const adminAccount = accountName('adm');
  const agentAccount = accountName('agt');
  const agentPassword = 'agent2468';
  // Each language's run sets its own odds, so the change is always visible.
  const newOdds = t.language === 'zh-CN' ? '1.95' : '1.90';
  await t.server.run(['admin', 'create-operator', '--account', adminAccount, '--password', PASSWORD, '--role', 'admin']);
  const admin = await openConsole(t);
  const agent = await openConsole(t);
  const player = await registerUser(t, 'pl');
  // The player signs in to the app (web, platform 5) below, which replaces the registration's
  // session there; the test's own calls use a session on another platform (2).
  const playerApi = async () => {
    const tokens = ok(await t.api('/accountLogin', { account: player.account, password: PASSWORD, platform: 2, operationID: 'e2e-api' }), 'api sign-in');
    player.token = tokens.token;
  };
  const test = (name, fn) =>
    t.test(name, async () => {
      await fn();
      admin.check();
      agent.check();
    });

  try {
    await test('an admin signs in and sees the dashboard', async () => {
      await admin.page.goto(t.url('/admin/'));
      await admin.page.waitForURL((url) => url.pathname === '/admin/login');
      await admin.page.getByRole('button', { name: admin.text('login.submit') }).waitFor();
      await admin.screenshot('login');
      await consoleSignIn(t, admin, { account: adminAccount, password: PASSWORD });
      await admin.page.getByTestId('role').filter({ hasText: admin.text('roles.admin') }).waitFor();
      await admin.page.getByTestId('stat-registrations').waitFor();
      await admin.page.getByRole('img', { name: admin.text('dashboard.usersChart') }).waitFor();
      await admin.screenshot('dashboard');
    });

    await test('the admin creates an agent', async () => {
      const p = admin.page;
      await p.getByRole('link', { name: admin.text('nav.operators') }).click();
      await p.locator('input[name=newAccount]').fill(agentAccount);
      await p.locator('input[name=newPassword]').fill(agentPassword);
      await p.locator('select[name=newRole]').selectOption('agent');
      await p.getByTestId('operator-create').click();
      await confirmDialog(admin);
      await p.locator(`tr[data-operator="${agentAccount}"]`).filter({ hasText: admin.text('roles.agent') }).waitFor();
      await admin.screenshot('operators');
    });

    await test('the agent signs in with the agent role and no operator management', async () => {
      await consoleSignIn(t, agent, { account: agentAccount, password: agentPassword });
      await agent.page.getByTestId('role').filter({ hasText: agent.text('roles.agent') }).waitFor();
      assert.equal(await agent.page.getByRole('link', { name: agent.text('nav.operators') }).count(), 0);
      assert.equal(await agent.page.getByRole('link', { name: agent.text('nav.content') }).count(), 0);
    });

    await test("the agent confirms a recharge and the player's balance changes in the app", async () => {
      await signInThroughUi(t, player.account, '/pages/tabBar/mine');
      await page.getByTestId('points-balance').and(page.getByText('0.00', { exact: true })).waitFor();
      await playerApi();
      const txHash = randomBytes(32).toString('hex');
      const order = ok(await t.api('/user/rechargeOrder', { amount: 12345, protocol: 'TRC20', txHash }, player.token), 'recharge order');
      const p = agent.page;
      await p.getByRole('link', { name: agent.text('nav.recharges') }).click();
      // The queue polls: the new order shows up without a reload.
      const row = p.locator(`tr[data-order="${order.orderNo}"]`);
      await row.waitFor();
      await p.getByRole('textbox', { name: agent.text('orders.searchAny') }).fill(player.account);
      await p.getByRole('button', { name: agent.text('common.search'), exact: true }).click();
      await row.click();
      await p.getByTestId('tx-hash').filter({ hasText: txHash }).waitFor();
      await p.getByTestId('user-balance').filter({ hasText: '0.00' }).waitFor();
      await agent.screenshot('recharges');
      await p.getByTestId('order-confirm').click();
      await confirmDialog(agent);
      await p.getByTestId('user-balance').filter({ hasText: '123.45' }).waitFor();
      const amount = ok(await t.api('/user/amount', {}, player.token), 'amount');
      assert.equal(amount.amount, 12345);
      await page.reload();
      await page.getByTestId('points-balance').and(page.getByText('123.45', { exact: true })).waitFor();
      await t.screenshot('balance-after-recharge');
    });

    await test('the agent fails an exchange with a reason and the player gets the points back', async () => {
      ok(await t.api('/user/setWalletPwd', { password: FUND_PASSWORD }, player.token), 'fund password');
      const banks = ok(await t.api('/user/getBankList', {}, player.token), 'banks');
      const card = '6222020200112233445';
      ok(
        await t.api('/user/setBankCard', { name: 'Test Holder', bank: banks.list[0].id, cardNumber: card, confirmCardNumber: card, fundPassword: FUND_PASSWORD }, player.token),
        'bank card',
      );
      const cards = ok(await t.api('/user/userBankList', {}, player.token), 'cards');
      const cardId = (cards.list ?? cards)[0].id;
      const order = ok(await t.api('/user/exchange', { amount: 10000, bankCardId: cardId, fundPassword: FUND_PASSWORD }, player.token), 'exchange');
      assert.equal(ok(await t.api('/user/amount', {}, player.token), 'amount').amount, 2345);
      const p = agent.page;
      await p.getByRole('link', { name: agent.text('nav.exchanges') }).click();
      await p.locator(`tr[data-order="${order.orderNo}"]`).click();
      await p.getByText(card).waitFor();
      await agent.screenshot('exchanges');
      await p.getByTestId('order-fail').click();
      // A reason is required: the dialog refuses an empty one.
      await p.getByRole('dialog').getByTestId('confirm-ok').click();
      await p.getByRole('dialog').getByRole('alert').filter({ hasText: agent.text('common.reasonRequired') }).waitFor();
      await confirmDialog(agent, 'card number does not match the holder');
      await p.getByTestId('user-balance').filter({ hasText: '123.45' }).waitFor();
      await page.reload();
      await page.getByTestId('points-balance').and(page.getByText('123.45', { exact: true })).waitFor();
      const records = ok(await t.api('/user/userExchangeRecode', { page: 1, pageSize: 10 }, player.token), 'exchange records');
      const failed = records.list.find((r) => r.orderNo === order.orderNo);
      assert.equal(failed.status, 2);
      assert.equal(failed.remark, 'card number does not match the holder');
    });

    await test('the agent activates a member', async () => {
      const p = agent.page;
      await p.getByRole('link', { name: agent.text('nav.users') }).click();
      await p.getByRole('textbox', { name: agent.text('users.searchHint') }).fill(player.account);
      await p.getByRole('button', { name: agent.text('common.search'), exact: true }).click();
      await p.locator(`tr[data-account="${player.account}"]`).click();
      await p.getByTestId('user-activation').filter({ hasText: agent.text('users.notActivated') }).waitFor();
      await p.getByTestId('user-activate').click();
      await confirmDialog(agent);
      await p.getByTestId('user-activation').filter({ hasText: agent.text('users.activated') }).waitFor();
      await p.getByRole('tab', { name: agent.text('users.entries') }).waitFor();
      await agent.screenshot('users');
      const mine = ok(await t.api('/user/mine', {}, player.token), 'mine');
      assert.equal(mine.isActivation, 1);
    });

    await test('the agent answers a guest in customer service live', async () => {
      const guest = await t.openSession();
      const hello = `need help ${t.language} ${Date.now()}`;
      await guest.page.goto(t.url('/pages/customer/customer'));
      await sendToCustomerService(t, guest.page, hello);
      // The server took the guest's message (it shows as the guest's own bubble) before the
      // agent looks for it: a failure here is the guest's send, not the console.
      await guest.page.locator('.bubble-row[data-from="visitor"]').filter({ hasText: hello }).waitFor();
      const p = agent.page;
      await p.getByRole('link', { name: agent.text('nav.customer') }).click();
      await p.getByTestId('socket-state').filter({ hasText: agent.text('customer.socket.open') }).waitFor();
      await p.getByRole('checkbox', { name: agent.text('customer.all') }).check();
      const visitor = p.locator('[data-visitor]').filter({ hasText: hello });
      // Pushed over the agent's socket at once; the console's 15 s poll is the backstop, so
      // allow two of its periods on a loaded box before calling the inbox stale.
      await visitor.waitFor({ timeout: 35_000 });
      await visitor.click();
      await p.getByTestId('messages').getByText(hello).waitFor();
      // The guest waits with the first operator (the least busy); the agent takes the conversation.
      await p.getByRole('combobox', { name: agent.text('customer.handTo') }).selectOption({ label: agentAccount });
      await p.getByRole('button', { name: agent.text('customer.handOver') }).click();
      await confirmDialog(agent);
      const answer = `hello guest, ${t.language}`;
      await p.getByRole('textbox', { name: agent.text('customer.placeholder') }).fill(answer);
      await p.getByTestId('customer-send').click();
      await p.getByTestId('messages').getByText(answer).waitFor();
      await guest.page.locator('.bubble-row[data-from="agent"]').filter({ hasText: answer }).waitFor();
      // The guest writes again: the agent's inbox updates without a reload.
      const again = `thanks ${Date.now()}`;
      await sendToCustomerService(t, guest.page, again);
      await p.getByTestId('messages').getByText(again).waitFor();
      await agent.screenshot('customer');
    });

    await test('the agent has no odds button and the server refuses the direct call', async () => {
      const p = agent.page;
      await p.getByRole('link', { name: agent.text('nav.windows') }).click();
      await p.getByTestId('window-1').waitFor();
      await p.getByTestId('rules-odds').first().waitFor();
      assert.equal(await p.getByTestId('edit-rules').count(), 0, 'no rules button for an agent');
      const token = await p.evaluate(() => JSON.parse(localStorage.getItem('kj.admin.session')).token);
      const refused = await rawCall(t.baseURL, '/admin/windows/update', { windowId: 1, odds: '1.50' }, token);
      assert.equal(refused.status, 403);
      assert.equal(refused.envelope.code, 1010);
      const rules = ok(await t.api('/activation/getRuleList', {}), 'rules');
      assert.notEqual(rules.rules[0].odds, '1.50', 'the refused change changed nothing');
    });

    await test('the admin changes the odds and the next round carries them', async () => {
      const p = admin.page;
      await p.getByRole('link', { name: admin.text('nav.windows') }).click();
      await p.getByTestId('edit-rules').click();
      await p.locator('input[name=odds]').fill(newOdds);
      await p.getByTestId('rules-save').click();
      await confirmDialog(admin);
      await p.getByTestId('rules-odds').filter({ hasText: newOdds }).waitFor();
      await p.getByTestId('round-odds').filter({ hasText: newOdds }).waitFor({ timeout: 30_000 });
      const current = await until('a round with the new odds', async () => {
        const c = ok(await t.api('/activation/getNewLottery', { windowId: 1 }, player.token), 'current round');
        return c.round?.odds === newOdds ? c : null;
      });
      assert.equal(current.round.odds, newOdds);
      await admin.screenshot('windows');
    });

    await test('the audit page lists the actions', async () => {
      const p = admin.page;
      await p.getByRole('link', { name: admin.text('nav.audit') }).click();
      // The agent made by the admin in the console, and the admin made by `kj admin
      // create-operator`, which the log shows as done by "cli".
      const byOperator = (name) => p.locator(`td:nth-child(2):text-is("${name}")`);
      await p.locator('tr[data-action="operator.create"]').filter({ has: byOperator(adminAccount) }).filter({ hasText: agentAccount }).first().waitFor();
      await p.locator('tr[data-action="operator.create"]').filter({ has: byOperator('cli') }).filter({ hasText: adminAccount }).first().waitFor();
      await p.locator('tr[data-action="customer.reply"]').filter({ hasText: agentAccount }).first().waitFor();
      // The money, membership and rules changes of this flow, each by its operator.
      for (const [action, who] of [['recharge.confirm', agentAccount], ['exchange.fail', agentAccount],
        ['user.activation', agentAccount], ['window.rules', adminAccount]]) {
        await p.locator(`tr[data-action="${action}"]`).filter({ hasText: who }).first().waitFor();
      }
      // Filter by operator: only the agent's actions.
      await p.getByRole('textbox', { name: admin.text('audit.operator') }).fill(agentAccount);
      await p.getByRole('button', { name: admin.text('common.search'), exact: true }).click();
      await p.locator('tr[data-action="operator.create"]').waitFor({ state: 'detached' });
      await p.locator('tr[data-action="customer.reply"]').first().waitFor();
      await admin.screenshot('audit');
    });

    await test('the content screen (admins) and the other screens in this language', async () => {
      const p = admin.page;
      await p.getByRole('link', { name: admin.text('nav.content') }).click();
      await p.getByRole('tab', { name: admin.text('content.notices') }).waitFor();
      await admin.screenshot('content');
      await p.getByRole('tab', { name: admin.text('content.app') }).click();
      await p.getByText(admin.text('content.manifest')).waitFor();
      await admin.screenshot('content-app');
      await p.getByRole('link', { name: admin.text('nav.dashboard') }).click();
      // Today's recharges: this run's 123.45 and any earlier language's run on the same server.
      const token = await p.evaluate(() => JSON.parse(localStorage.getItem('kj.admin.session')).token);
      const dash = ok(await t.api('/admin/dashboard', { days: 7 }, token), 'dashboard');
      const today = dash.days[dash.days.length - 1];
      assert.ok(today.rechargeTotal >= 12345 && today.rechargeTotal % 12345 === 0, `today's recharges ${today.rechargeTotal}`);
      const shown = (today.rechargeTotal / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
      await p.getByTestId('stat-recharges').filter({ hasText: shown }).waitFor();
      await admin.screenshot('dashboard-after');
    });
  } finally {
    await admin.close();
    await agent.close();
  }
}
