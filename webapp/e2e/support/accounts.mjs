// Accounts, points and the operator for the discover flows, through the real API.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

export const PASSWORD = 'abc12345';

/** A fresh account name (4-20 of letters, digits, underscore). */
export function accountName(prefix) {
  return `${prefix}_${randomBytes(4).toString('hex')}`.slice(0, 20);
}

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

/** Registers an account and signs it in over the API; resolves with its tokens. */
export async function registerUser(t, prefix) {
  const account = accountName(prefix);
  ok(await t.api('/register', { account, password: PASSWORD, confirmPassword: PASSWORD }), 'register');
  const tokens = ok(await t.api('/accountLogin', { account, password: PASSWORD, platform: 5, operationID: `e2e${Date.now()}` }), 'login');
  return { account, ...tokens };
}

/** The customer-service operator `kj seed --demo` created, signed in. */
export async function operatorLogin(t) {
  const match = /account "([^"]+)", password "([^"]+)"/.exec(t.server?.seedOutput ?? '');
  assert.ok(match, `kj seed --demo printed no operator: ${t.server?.seedOutput}`);
  const [, account, password] = match;
  const tokens = ok(await t.api('/accountLogin', { account, password, platform: 5, operationID: `e2e${Date.now()}` }), 'operator login');
  return { account, ...tokens };
}

/** Gives the user `cents` points the way a player gets them: a recharge order the operator confirms. */
export async function giveUserPoints(t, user, operator, cents) {
  const txHash = randomBytes(32).toString('hex');
  const order = ok(await t.api('/user/rechargeOrder', { amount: cents, protocol: 'TRC20', txHash }, user.token), 'recharge order');
  ok(await t.api('/admin/recharge/confirm', { orderId: order.id }, operator.token), 'confirm recharge');
  const amount = ok(await t.api('/user/amount', {}, user.token), 'amount');
  assert.equal(amount.amount, cents, 'balance after the recharge');
}

/** Signs in through the login page and waits for the page `redirect` names. */
export async function signInThroughUi(t, account, redirect) {
  const { page } = t;
  await page.goto(t.url(`/pages/auth/login?redirect=${encodeURIComponent(redirect)}`));
  await page.getByLabel(t.text('pages.login.account')).fill(account);
  await page.getByLabel(t.text('pages.login.password')).fill(PASSWORD);
  await page.getByRole('button', { name: t.text('pages.login.submit') }).tap();
  const path = redirect.split('?')[0];
  await page.waitForURL((url) => url.pathname === path);
}
