// Draws the operator cannot foresee (issue 37 #1): the server runs with a public randomness
// beacon of this flow's own, served the way drand serves a chain (GET /info, /public/<round>),
// a round a second, each value drawn only when the flow's clock reaches the round's time. A
// round with a bet is drawn from it; the history's verify dialog shows the new inputs (the
// beacon round and its value, the bet-list hash committed at the close), recomputes the bet
// list's hash and the digits in the browser, and says the round is verified.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { PASSWORD, accountName, giveUserPoints, registerUser, signInThroughUi } from '../support/accounts.mjs';

const PERIOD = 1; // seconds between beacon rounds
const GENESIS = Math.floor(Date.now() / 1000) - 3600;
/** Values this stand-in has published: round -> {value, drawnAt}. */
const published = new Map();

const beacon = createServer((req, res) => {
  const send = (status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.url === '/info') return send(200, { period: PERIOD, genesis_time: GENESIS, hash: 'e2e-stand-in' });
  const m = /^\/public\/(\d+)$/.exec(req.url ?? '');
  if (!m) return send(404, { error: 'no such path' });
  const round = Number(m[1]);
  const at = (GENESIS + (round - 1) * PERIOD) * 1000;
  if (Date.now() < at) return send(404, { error: 'not published yet' });
  let entry = published.get(round);
  if (!entry) {
    const signature = randomBytes(48).toString('hex');
    const randomness = createHash('sha256').update(Buffer.from(signature, 'hex')).digest('hex');
    entry = { value: { round, randomness, signature }, drawnAt: Date.now() };
    published.set(round, entry);
  }
  return send(200, entry.value);
});
await new Promise((resolve) => beacon.listen(0, '127.0.0.1', resolve));
beacon.unref(); // the runner's process ends when its flows do
const beaconURL = `http://127.0.0.1:${beacon.address().port}`;

export const server = {
  env: {
    KJ_WINDOW_COUNT: '1',
    KJ_WINDOW_BETTING: '4s',
    KJ_WINDOW_DRAWING: '3s',
    KJ_WINDOW_REST: '2s',
    KJ_ROUNDS_BEACON_URL: beaconURL,
    KJ_ROUNDS_BEACON_WAIT: '10s',
  },
};

function ok(envelope, what) {
  assert.equal(envelope.code, 0, `${what}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export default async function beaconVerify(t) {
  const { page } = t;
  const adminAccount = accountName('bop');
  await t.server.run(['admin', 'create-operator', '--account', adminAccount, '--password', PASSWORD, '--role', 'admin']);
  const admin = ok(await t.api('/accountLogin', { account: adminAccount, password: PASSWORD, platform: 5, operationID: 'e2e-bop' }), 'admin');
  const player = await registerUser(t, `bv${t.language.slice(0, 2)}`);
  await giveUserPoints(t, player, admin, 5000);
  // The app signs in on platform 5; the flow's own calls use a session on platform 2.
  const api = ok(await t.api('/accountLogin', { account: player.account, password: PASSWORD, platform: 2, operationID: 'e2e-bv' }), 'api');

  await t.test('the verify dialog shows the beacon round, its value and the bet-list hash, and checks them', async () => {
    await signInThroughUi(t, player.account, '/pages/find/incentive-window?id=1');
    const main = page.locator('main.window-page');
    await main.locator('.round-card .countdown').waitFor();

    // A bet in a round with time left to place it.
    let round = null;
    for (let i = 0; !round; i += 1) {
      assert.ok(i < 100, 'no betting phase with time left');
      const now = ok(await t.api('/activation/getNewLottery', { windowId: 1 }, api.token), 'current');
      if (now.round?.phase === 'betting' && now.round.bettingEndsAt - now.serverTime > 1500) round = now.round;
      else await page.waitForTimeout(250);
    }
    assert.ok(round.beaconRound > 0, `the round names no beacon round: ${JSON.stringify(round)}`);
    assert.ok(round.beaconAt > round.bettingEndsAt, 'the beacon round is published after betting ends');
    assert.equal(published.has(round.beaconRound), false, 'the beacon value exists while bets come in');
    const bet = ok(
      await t.api('/activation/betRequest', { windowId: 1, issue: round.issue, content: 'BIG', amount: 500, betId: `bv-${Date.now()}` }, api.token),
      'bet',
    );

    // Drawn: the result carries the beacon value the stand-in drew after the close.
    let result = null;
    for (let i = 0; !result; i += 1) {
      assert.ok(i < 80, `round ${round.issue} never drawn`);
      const page1 = ok(await t.api('/activation/historyPrize', { windowId: 1 }, api.token), 'history');
      result = page1.list.find((r) => r.issue === round.issue) ?? null;
      if (!result) await page.waitForTimeout(250);
    }
    const drawn = published.get(result.beaconRound);
    assert.ok(drawn, 'the server never read the beacon round');
    assert.equal(result.beaconValue, drawn.value.randomness);
    assert.ok(drawn.drawnAt > round.bettingEndsAt, 'the beacon value was drawn before betting closed');
    const list = ok(await t.api('/activation/roundBets', { windowId: 1, issue: round.issue }, api.token), 'bet list');
    assert.ok(list.bets.some((b) => b.noteNo === bet.noteNo), 'my bet is in the committed list');

    await main.getByRole('tab', { name: t.text('rounds.tabs.history') }).tap();
    const row = main.locator(`.history__row[data-issue="${round.issue}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: t.text('rounds.history.verify') }).tap();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.verify__computed[data-verified="true"]').waitFor();
    assert.equal((await dialog.locator('[data-field="beaconRound"] a').textContent()).trim(), String(result.beaconRound));
    assert.equal(await dialog.locator('[data-field="beaconRound"] a').getAttribute('href'), `${beaconURL}/public/${result.beaconRound}`);
    assert.equal(await dialog.locator('[data-field="beaconValue"]').textContent(), result.beaconValue);
    assert.equal(await dialog.locator('[data-field="betsHash"]').textContent(), result.betsHash);
    assert.equal(await dialog.locator('[data-field="computedBetsHash"]').textContent(), result.betsHash);
    assert.equal(
      await dialog.locator('[data-field="message"]').textContent(),
      `${result.issue}:${result.betsHash}:${result.beaconRound}:${result.beaconValue}`,
    );
    assert.equal(await dialog.locator('.verify__check[data-ok="true"]').count(), 3);
    assert.equal(await dialog.locator('[data-field="foreseeable"]').count(), 0);
    await dialog.getByText(t.text('rounds.verify.verifiedBeacon', { round: result.beaconRound })).waitFor();
    await t.screenshot('beacon-verify');
  });
}
