// Player protection in the operator console (desktop): a player's recharge beyond their daily
// deposit limit is taken but held, and the review queue's confirmation is refused (1605); the
// console's Player protection page lists it with the reason in the operator's language, and
// another player's cool-off; the admin lets the held order through in a confirmation dialog,
// after which the confirmation credits it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { accountName, PASSWORD, registerUser } from '../support/accounts.mjs';
import { confirmDialog, consoleSignIn, openConsole } from '../console/console.mjs';

export const server = { env: {} };

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export default async function consoleProtection(t) {
  const adminAccount = accountName('adm');
  await t.server.run(['admin', 'create-operator', '--account', adminAccount, '--password', PASSWORD, '--role', 'admin']);
  const admin = ok(await t.api('/accountLogin', { account: adminAccount, password: PASSWORD, platform: 1, operationID: `e2e${Date.now()}` }), 'admin login');
  const saver = await registerUser(t, `hd${t.language.slice(0, 2)}`);
  const resting = await registerUser(t, `co${t.language.slice(0, 2)}`);
  const { minDep } = ok(await t.api('/user/getChainTypes', {}, saver.token), 'chain types');
  const order = async (amount) =>
    ok(await t.api('/user/rechargeOrder', { amount, protocol: 'TRC20', txHash: randomBytes(32).toString('hex') }, saver.token), 'recharge');

  let held;
  await t.test('a recharge beyond the deposit limit is taken, held and not credited', async () => {
    ok(await t.api('/protection/limit', { kind: 'deposit', period: 'day', amount: 2 * minDep }, saver.token), 'deposit limit');
    const first = await order(minDep);
    assert.equal(first.held, false);
    held = await order(minDep + 1);
    assert.equal(held.held, true, 'the order past the limit is held');
    assert.ok(held.heldMessage.length > 0, 'the player is told why');
    const confirm = await t.api('/admin/recharge/confirm', { orderId: held.id }, admin.token);
    assert.equal(confirm.code, 1605, `confirming a held order: ${confirm.code} ${confirm.message}`);
    ok(await t.api('/protection/exclude', { kind: 'cooloff', days: 3 }, resting.token), 'cool-off');
  });

  await t.test('the console lists the hold and the cool-off, and the admin lets the order through', async () => {
    const c = await openConsole(t);
    try {
      await consoleSignIn(t, c, { account: adminAccount, password: PASSWORD });
      await c.page.getByRole('link', { name: c.text('protection.nav'), exact: true }).click();
      const hold = c.page.locator(`[data-testid="hold-row"][data-order="${held.orderNo}"]`);
      await hold.waitFor();
      assert.ok((await hold.textContent()).includes(saver.account));
      await c.page.locator(`[data-testid="exclusion-row"][data-account="${resting.account}"][data-kind="cooloff"]`).waitFor();
      await c.screenshot('console-protection');
      await hold.getByTestId('hold-release').click();
      await confirmDialog(c, 'checked with the player');
      await hold.waitFor({ state: 'detached' });
      c.check();
    } finally {
      await c.close();
    }
    const credited = ok(await t.api('/admin/recharge/confirm', { orderId: held.id }, admin.token), 'confirm after release');
    assert.equal(credited.status, 1, 'credited');
  });
}
