// Odds and limits changed by an operator (issue 35 #3) reach the first round created after the
// change, never the round in progress. The player's window says so while the coming round's
// differ (old → new); the console shows the current round's odds and limits apart from the
// settings, marked "from round N", N being the round that then starts with them.
import assert from 'node:assert/strict';
import { consoleSignIn, openConsole } from '../console/console.mjs';
import { accountName, PASSWORD, registerUser, signInThroughUi } from '../support/accounts.mjs';

export const server = {
  env: { KJ_WINDOW_COUNT: '1', KJ_WINDOW_BETTING: '8s', KJ_WINDOW_DRAWING: '2s', KJ_WINDOW_REST: '3s' },
};

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export default async function comingRules(t) {
  const { page } = t;
  const adminAccount = accountName('adm');
  await t.server.run(['admin', 'create-operator', '--account', adminAccount, '--password', PASSWORD, '--role', 'admin']);
  const admin = ok(await t.api('/accountLogin', { account: adminAccount, password: PASSWORD, platform: 5, operationID: 'e2e-adm' }), 'admin');
  const player = await registerUser(t, `cr${t.language.slice(0, 2)}`);
  // The player signs in to the app below (platform 5), which ends the registration's session
  // there; the flow's own calls use a session on another platform (2).
  const api = ok(await t.api('/accountLogin', { account: player.account, password: PASSWORD, platform: 2, operationID: 'e2e-api' }), 'api sign-in');
  // Values other than the window's now (an earlier run on this server changed them too).
  const settings0 = ok(await t.api('/admin/windows', {}, admin.token), 'windows')[0];
  const odds = settings0.odds === '1.91' ? '1.93' : '1.91';
  const minBet = settings0.minBet === 250 ? 350 : 250;

  await t.test('after a change the window tells the player the next round\'s odds and limits, and the console "from round N"', async () => {
    await signInThroughUi(t, player.account, '/pages/find/incentive-window?id=1');
    const main = page.locator('main.window-page');
    await main.locator('.round-card .countdown').waitFor();
    const notice = page.getByTestId('coming-rules');
    assert.equal(await notice.count(), 0, 'a notice before any change');

    const before = ok(await t.api('/activation/getNewLottery', { windowId: 1 }, api.token), 'current');
    ok(await t.api('/admin/windows/update', { windowId: 1, odds, minBet }, admin.token), 'change');
    const current = before.round;
    const minText = (minBet / 100).toFixed(2);
    await notice.waitFor({ timeout: 15_000 });
    const text = await notice.textContent();
    assert.ok(text.includes(odds) && text.includes(minText) && text.includes(current.odds), `the notice "${text}" names ${current.odds} → ${odds} and ${minText}`);
    const box = await notice.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390.5 && box.y >= 0, `the notice is off screen: ${JSON.stringify(box)}`);
    await t.screenshot('coming-notice');

    // The console: the current round's odds, and the settings from the round they apply to.
    const ops = await openConsole(t);
    try {
      await consoleSignIn(t, ops, { account: adminAccount, password: PASSWORD });
      await ops.page.getByRole('link', { name: ops.text('nav.windows') }).click();
      const card = ops.page.getByTestId('window-1');
      const settings = card.getByTestId('rules-settings');
      const list = ok(await t.api('/admin/windows', {}, admin.token), 'windows')[0];
      if (list.pending) {
        await card.getByTestId('current-odds').filter({ hasText: list.current.odds }).waitFor();
        assert.notEqual(list.current.odds, odds);
        await settings.getByText(ops.text('windows.fromRound', { issue: list.fromIssue })).waitFor();
        assert.equal(await settings.getAttribute('data-pending'), 'true');
        assert.equal(await settings.getByTestId('rules-odds').textContent(), odds);
        // The values keep their room beside the long "from round" heading (it once squeezed them
        // to a width of 0 on the narrow card).
        const value = await settings.getByTestId('rules-odds').boundingBox();
        assert.ok(value && value.width >= 20, `the new odds are squeezed: ${JSON.stringify(value)}`);
        await ops.screenshot('windows-from-round');
      }
      // When that round starts it runs with the new values, and the notice goes.
      const from = list.fromIssue;
      for (let i = 0; i < 200; i += 1) {
        const now = ok(await t.api('/activation/getNewLottery', { windowId: 1 }, api.token), 'current');
        if (now.round?.issue === from) {
          assert.equal(now.round.odds, odds, 'the round the console named runs with the new odds');
          assert.equal(now.round.minBet, minBet);
          break;
        }
        assert.ok(i < 199, `round ${from} never started`);
        await page.waitForTimeout(200);
      }
      await notice.waitFor({ state: 'detached', timeout: 15_000 });
      await settings.and(ops.page.locator('[data-pending="false"]')).waitFor({ timeout: 15_000 });
      await card.getByTestId('current-odds').filter({ hasText: odds }).waitFor();
      ops.check();
    } finally {
      await ops.close();
    }
  });
}
