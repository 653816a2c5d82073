// The console for a day's work (issue 35 #10-13), at 1280 x 800: a part of a player's account
// finds the user and their orders (not only the exact account), a day range narrows the orders
// and the CSV export returns the rows shown; the user's ledger fits its column, each cell on one
// line; the audit log reads in words with amounts in points, its action filter lists actions by
// name and a row links to its order; an admin disables an operator, who is then refused sign-in;
// a notice is edited in place; the rounds history pages and a round opens with its bets, totals
// and a proof checked in the browser.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { accountName, PASSWORD, registerUser } from '../support/accounts.mjs';
import { confirmDialog, consoleSignIn, openConsole } from '../console/console.mjs';

// Short rounds, so the history has more than a page within a minute.
export const server = {
  env: { KJ_WINDOW_COUNT: '1', KJ_WINDOW_BETTING: '2s', KJ_WINDOW_DRAWING: '1s', KJ_WINDOW_REST: '1s' },
};

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

async function until(what, fn, tries = 75) {
  for (let i = 0; i < tries; i += 1) {
    const v = await fn();
    if (v) return v;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** yyyy-mm-dd of today + days (UTC). */
function day(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The element's box lies inside the 1280 x 800 viewport horizontally. */
async function insideWidth(locator, what) {
  const box = await locator.boundingBox();
  assert.ok(box, `${what} has no box`);
  assert.ok(box.x >= 0 && box.x + box.width <= 1280 + 0.5, `${what} ${JSON.stringify(box)} is outside the viewport`);
  return box;
}

export default async function consoleDay(t) {
  const adminAccount = accountName('adm');
  const agentAccount = accountName('agt');
  await t.server.run(['admin', 'create-operator', '--account', adminAccount, '--password', PASSWORD, '--role', 'admin']);
  const adminApi = ok(await t.api('/accountLogin', { account: adminAccount, password: PASSWORD, platform: 2, operationID: 'e2e-adm' }), 'admin sign-in');
  ok(await t.api('/admin/operators/create', { account: agentAccount, password: PASSWORD, role: 'agent' }, adminApi.token), 'agent created');
  // "alice" in the middle of the account: the search finds it by that part alone.
  const player = await registerUser(t, `zqalice${randomBytes(2).toString('hex')}`);
  const part = player.account.slice(2, 9);
  const orders = [];
  for (const amount of [12000, 1505]) {
    orders.push(ok(await t.api('/user/rechargeOrder', { amount, protocol: 'TRC20', txHash: randomBytes(32).toString('hex') }, player.token), 'recharge order'));
  }
  ok(await t.api('/admin/recharge/confirm', { orderId: orders[0].id }, adminApi.token), 'confirm');
  const console_ = await openConsole(t);
  const { page, text } = console_;
  const test = (name, fn) =>
    t.test(name, async () => {
      await fn();
      console_.check();
    });

  try {
    await test('part of an account finds the user and all their orders; a day range narrows them', async () => {
      await consoleSignIn(t, console_, { account: adminAccount, password: PASSWORD });
      await page.goto(t.url('/admin/users'));
      await page.getByLabel(text('users.searchHint')).fill(part.toUpperCase());
      await page.getByRole('button', { name: text('common.search'), exact: true }).click();
      await page.getByRole('cell', { name: player.account, exact: true }).first().waitFor();

      await page.goto(t.url('/admin/recharges'));
      await page.getByRole('tab', { name: text('orders.statusAll'), exact: true }).click();
      await page.getByLabel(text('orders.searchAny')).fill(part);
      await page.getByRole('button', { name: text('common.search'), exact: true }).click();
      const rows = page.locator('tr[data-order]');
      await until('both orders listed', async () => (await rows.count()) === 2);
      for (const o of orders) await page.locator(`tr[data-order="${o.orderNo}"]`).waitFor();
      await page.getByTestId('orders-from').fill(day(2));
      await until('no order from the day after tomorrow', async () => (await rows.count()) === 0);
      await page.getByTestId('orders-from').fill(day(-1));
      await page.getByTestId('orders-to').fill(day(1));
      await until('the orders of the days around today', async () => (await rows.count()) === 2);
      await insideWidth(page.getByTestId('orders-export'), 'the export button');
      await console_.screenshot('orders-search');
    });

    await test('the CSV export returns the rows shown, amounts in points', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('orders-export').click()]);
      assert.match(download.suggestedFilename(), /\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      assert.ok(csv.startsWith('\uFEFF'), 'the CSV starts with a byte order mark (Excel reads UTF-8)');
      const lines = csv.trim().split(/\r?\n/);
      assert.equal(lines.length, 3, `a head and two rows: ${csv}`);
      assert.ok(lines.slice(1).every((l) => l.includes(player.account)), csv);
      assert.ok(csv.includes('120.00') && csv.includes('15.05'), `amounts in points: ${csv}`);
    });

    await test("the user's ledger fits its column, each cell on one line", async () => {
      await page.goto(t.url('/admin/users'));
      await page.getByLabel(text('users.searchHint')).fill(part);
      await page.getByRole('button', { name: text('common.search'), exact: true }).click();
      await page.getByRole('cell', { name: player.account, exact: true }).first().click();
      const ledger = page.getByTestId('user-ledger');
      await ledger.locator('tbody tr').first().waitFor();
      await insideWidth(ledger, 'the ledger');
      const heights = await ledger.locator('td, th').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().height));
      assert.ok(Math.max(...heights) < 48, `a ledger cell wraps over lines: ${heights.join(', ')}`);
      await console_.screenshot('user-ledger');
    });

    await test("the user's ledger takes a range of days and exports it as CSV", async () => {
      const ledger = page.getByTestId('user-ledger');
      await page.getByTestId('ledger-from').fill(day(2));
      await page.getByText(text('common.empty'), { exact: true }).waitFor(); // no records from the day after tomorrow
      assert.equal(await ledger.count(), 0);
      await page.getByTestId('ledger-from').fill(day(-1));
      await page.getByTestId('ledger-to').fill(day(1));
      await ledger.locator('tbody tr').first().waitFor();
      const shown = await ledger.locator('tbody tr').count();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ledger-export').click()]);
      assert.match(download.suggestedFilename(), /\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      assert.ok(csv.startsWith('\uFEFF'), 'the CSV starts with a byte order mark');
      assert.equal(csv.trim().split(/\r?\n/).length, shown + 1, `a head and the ${shown} rows shown: ${csv}`);
      assert.ok(csv.includes('120.00'), `the recharge in points: ${csv}`);
    });

    await test('the audit log reads in words, filters by action picked by name and links to the order', async () => {
      await page.goto(t.url('/admin/audit'));
      const picker = page.getByTestId('audit-action');
      const label = await picker.locator('option[value="recharge.confirm"]').textContent();
      assert.ok(label && !label.includes('recharge.confirm') && label.length > 4, `the action reads ${label}`);
      await picker.selectOption('recharge.confirm');
      await page.getByPlaceholder(text('audit.operator')).fill(adminAccount.slice(1, 7).toUpperCase());
      await page.getByRole('button', { name: text('common.search'), exact: true }).click();
      const row = page.locator('tr[data-action]').first();
      await row.waitFor();
      assert.deepEqual([...new Set(await page.locator('tr[data-action]').evaluateAll((rs) => rs.map((r) => r.dataset.action)))], ['recharge.confirm']);
      const words = await row.getByTestId('audit-text').textContent();
      assert.ok(words.includes('120.00') && !words.includes('12000'), `amount in points: ${words}`);
      await console_.screenshot('audit');
      await row.getByTestId('audit-order').click();
      await page.waitForURL((url) => url.pathname === '/admin/recharges');
      await page.locator(`tr[data-order="${orders[0].orderNo}"]`).waitFor();
      await page.getByText(orders[0].orderNo, { exact: true }).nth(1).waitFor();
    });

    await test('an admin disables an operator, who is then refused sign-in', async () => {
      await page.goto(t.url('/admin/operators'));
      const row = page.locator('tr', { has: page.getByRole('cell', { name: agentAccount, exact: true }) });
      await row.getByTestId('operator-disable').click();
      await confirmDialog(console_);
      await row.getByTestId('operator-state').getByText(text('operators.disabled')).waitFor();
      const refused = await t.api('/accountLogin', { account: agentAccount, password: PASSWORD, platform: 10, operationID: 'e2e-agt' });
      assert.notEqual(refused.code, 0, 'a disabled operator signed in');
      const other = await openConsole(t);
      try {
        await other.page.goto(t.url('/admin/login'));
        await other.page.getByLabel(other.text('login.account'), { exact: true }).fill(agentAccount);
        await other.page.getByLabel(other.text('login.password'), { exact: true }).fill(PASSWORD);
        await other.page.getByRole('button', { name: other.text('login.submit'), exact: true }).click();
        await other.page.getByRole('alert').waitFor();
        assert.equal(new URL(other.page.url()).pathname, '/admin/login');
      } finally {
        await other.close();
      }
    });

    await test('a notice is edited in place, and the audit log has the change', async () => {
      const title = `N${randomBytes(3).toString('hex')}`;
      ok(await t.api('/admin/notice/publish', { title, content: 'Opening hours' }, adminApi.token), 'notice');
      await page.goto(t.url('/admin/content'));
      const row = page.locator('tr', { has: page.getByRole('cell', { name: title, exact: true }) });
      await row.getByTestId('notice-edit').click();
      const box = page.locator('input[name="noticeTitle"]');
      assert.equal(await box.inputValue(), title);
      await box.fill(`${title} v2`);
      await page.getByRole('button', { name: text('content.saveNotice'), exact: true }).click();
      await confirmDialog(console_);
      await page.getByRole('cell', { name: `${title} v2`, exact: true }).waitFor();
      const audit = ok(await t.api('/admin/audit/list', { action: 'notice.update' }, adminApi.token), 'audit');
      assert.ok(audit.list.some((e) => e.reading.changes.some((c) => c.before === title && c.after === `${title} v2`)), JSON.stringify(audit.list[0]));
    });

    await test('the rounds history pages, and a round opens with its bets, totals and proof', async () => {
      await until('more than a page of rounds', async () => {
        const h = await t.api('/activation/historyPrize', { windowId: 1, page: 1, pageSize: 10 }, player.token);
        return h.code === 0 && h.data.total > 10;
      }, 450);
      await page.goto(t.url('/admin/windows'));
      await page.getByRole('button', { name: text('windows.history') }).first().click();
      const firstIssue = await page.locator('table tbody tr td').first().textContent();
      await page.getByRole('button', { name: '›', exact: true }).click();
      await until('the second page', async () => (await page.locator('table tbody tr td').first().textContent()) !== firstIssue);
      await page.locator('table tbody tr').first().click();
      await page.getByTestId('round-proof').waitFor();
      assert.equal(await page.getByTestId('round-proof').textContent(), text('windows.proofOk'));
      await page.getByTestId('round-totals').waitFor();
      const title = await page.getByTestId('round-title').boundingBox();
      assert.ok(title.height < 30, `the issue number wraps: ${JSON.stringify(title)}`);
      await console_.screenshot('round');
    });
  } finally {
    await console_.close();
  }
}
