// Player protection in the app, against a server with short rounds: the player sets a daily
// loss limit of 10 points on the responsible-play page and is refused by the server past it
// (the round screen names the limit and when it resets, and shows today's net); a reality check
// every 2 minutes appears once 2 minutes of play have passed (the page's clock is driven, no wait)
// with time played and the session's net, "keep playing" closes it and "stop" leaves the round
// screen. A permanent self-exclusion, confirmed in a dialog, shows on the page and the next bet
// and recharge are refused (before the reality check, whose driven clock stays with the page).
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

const PLAY = '/pages/setting/responsible-play';
const ROUND = '/pages/find/incentive-window?id=1';

export default async function responsiblePlay(t) {
  const { page } = t;
  const main = page.locator('main.window-page');
  const phase = () => main.getAttribute('data-phase');
  const seconds = async () => Number(await main.locator('.round-card .countdown').getAttribute('data-seconds'));
  const alert = main.locator('.bet-panel [role="alert"]');

  /** Waits for a betting phase with at least minSeconds left for the taps. */
  async function waitForBetting(minSeconds) {
    const deadline = Date.now() + 20_000;
    while ((await phase()) !== 'betting' || (await seconds()) < minSeconds) {
      if (Date.now() > deadline) throw new Error(`no betting phase with ${minSeconds}s left`);
      await page.waitForTimeout(50);
    }
  }

  /** Places a BIG bet of `points` through the bet panel and waits for the server's answer. */
  async function bet(points) {
    await main.locator('[data-content="BIG"]').tap();
    await main.locator('input[name="amount"]').fill(String(points));
    await page.waitForTimeout(550); // the submit button takes one tap per 500 ms
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/activation/betRequest');
    await main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true }).tap();
    return (await (await answered).json()).code;
  }

  const operator = await operatorLogin(t);
  const user = await registerUser(t, `rp${t.language.slice(0, 2)}`);
  await giveUserPoints(t, user, operator, 10_000);
  await signInThroughUi(t, user.account, PLAY);
  const playPage = page.getByTestId('responsible-play');
  // The browser's sign-in replaced the API session of its platform: the API checks use another.
  const reader = (await t.api('/accountLogin', { account: user.account, password: PASSWORD, platform: 1, operationID: `e2e${Date.now()}` })).data;
  assert.ok(reader?.token, 'second sign-in');

  await t.test('a daily loss limit set on the page refuses the bet past it, naming the limit and its reset', async () => {
    await playPage.waitFor();
    const form = page.getByTestId('limit-form');
    await form.getByRole('combobox', { name: t.text('protection.limits.kindLabel') }).selectOption('loss');
    await form.getByRole('combobox', { name: t.text('protection.limits.periodLabel') }).selectOption('day');
    await form.getByLabel(t.text('protection.limits.amount')).fill('10');
    await form.getByRole('button', { name: t.text('protection.limits.save') }).tap();
    await page.locator('[data-limit="loss.day"][data-amount="1000"]').waitFor();
    // The reality check every 2 minutes, for the test below.
    const reality = page.getByTestId('reality-form');
    await reality.getByLabel(t.text('protection.reality.minutes')).fill('2');
    await reality.getByRole('button', { name: t.text('protection.reality.save') }).tap();
    await page.locator('[data-testid="reality-current"][data-minutes="2"]').waitFor();
    await t.screenshot('limits');

    await page.goto(t.url(ROUND));
    await main.waitFor();
    await waitForBetting(4);
    assert.equal(await bet(6), 0, 'a bet within the limit is taken');
    assert.equal(await bet(5), 1600, 'the bet past the daily loss limit is refused with 1600');
    const refused = (await alert.textContent()).trim();
    assert.ok(refused.includes('10.00') && refused.includes('00:00'), `the refusal names the limit and the reset: ${refused}`);
    // Today's net follows the bet that was taken (the 5 points refused never count): -6.00
    // while it is open, +5.88 if it has already won (odds 1.98).
    await page.locator('[data-testid="today-net"]:is([data-net="-600"], [data-net="588"])').waitFor({ timeout: 8_000 });
    await t.screenshot('refused');
  });

  await t.test('a permanent self-exclusion, confirmed once, shows on the page and refuses the next bet', async () => {
    await page.goto(t.url(PLAY));
    await playPage.waitFor();
    const form = page.getByTestId('selfexclusion-form');
    await form.getByRole('checkbox', { name: t.text('protection.exclusion.permanent') }).check();
    await form.getByRole('button', { name: t.text('protection.exclusion.start') }).tap();
    const confirm = page.getByRole('dialog', { name: t.text('protection.exclusion.confirmTitle') });
    await confirm.waitFor();
    assert.ok((await confirm.textContent()).includes(t.text('protection.exclusion.confirmPermanent')));
    const excluded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/protection/exclude');
    await confirm.getByRole('button', { name: t.text('kit.confirm'), exact: true }).tap();
    assert.equal((await (await excluded).json()).code, 0);
    await page.locator('[data-testid="exclusion-active"][data-kind="selfexclusion"]').waitFor();
    assert.equal((await page.getByTestId('exclusion-active').textContent()).trim(), t.text('protection.exclusion.activePermanent'));
    await t.screenshot('excluded');

    await page.goto(t.url(ROUND));
    await main.waitFor();
    await waitForBetting(3);
    assert.equal(await bet(5), 1602, 'a bet during a self-exclusion is refused with 1602');
    assert.ok((await alert.textContent()).trim().length > 0, 'the refusal is shown');
    // The server refuses a recharge too.
    const order = await t.api('/user/rechargeOrder', { amount: 5000, protocol: 'TRC20', txHash: 'ab'.repeat(32) }, reader.token);
    assert.equal(order.code, 1602, `recharge during self-exclusion: ${order.code} ${order.message}`);
  });
  await t.test('a reality check appears after 2 minutes of play, keep playing closes it, stop leaves', async () => {
    // The bet of the first test settled: the session's net is final.
    const settled = async () => (await t.api('/activation/lotteryBettingRecord', { tab: 'all' }, reader.token)).data.list;
    for (const until = Date.now() + 15_000; Date.now() < until; await page.waitForTimeout(200)) {
      if ((await settled()).every((b) => b.matched)) break;
    }
    const { todayNet } = (await t.api('/protection/status', { since: 0 }, reader.token)).data;
    await page.clock.install();
    await page.goto(t.url(ROUND));
    await main.waitFor();
    await page.getByTestId('today-net').waitFor();
    const check = page.getByRole('dialog', { name: t.text('protection.reality.dialogTitle') });
    // The play session began when the round screen first opened, well under 2 minutes ago.
    assert.equal(await check.count(), 0, 'no check before 2 minutes have passed');
    await page.clock.fastForward('02:01');
    await check.waitFor();
    assert.match(await check.textContent(), /\d/);
    // Every bet of today was placed in this play session.
    await check.locator(`[data-testid="reality-net"][data-net="${todayNet}"]`).waitFor();
    assert.ok([-600, 588].includes(todayNet), `today's net ${todayNet}`);
    const shown = `${todayNet < 0 ? '-' : ''}${(Math.abs(todayNet) / 100).toFixed(2).replace('.', t.text('format.decimalSeparator'))}`;
    assert.ok((await check.textContent()).includes(t.text('protection.reality.net', { amount: shown })), 'the session\'s net result');
    await t.screenshot('reality-check');
    await check.getByRole('button', { name: t.text('protection.reality.keep'), exact: true }).tap();
    await check.waitFor({ state: 'detached' });
    await page.clock.fastForward('02:01');
    await check.waitFor();
    await check.getByRole('button', { name: t.text('protection.reality.stop'), exact: true }).tap();
    await page.waitForURL((url) => url.pathname === '/pages/tabBar/find');
  });

}
