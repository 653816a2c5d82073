// The trend board and repeat last bet against a server with very short rounds: after 20
// rounds the board's bead grid and big road hold exactly the history's outcomes; a bet placed
// once is repeated with one tap in a later round.
import assert from 'node:assert/strict';
import { giveUserPoints, operatorLogin, PASSWORD, registerUser, signInThroughUi } from '../support/accounts.mjs';

export const server = {
  demo: true,
  env: {
    KJ_WINDOW_COUNT: '1',
    KJ_WINDOW_BETTING: '3s',
    KJ_WINDOW_DRAWING: '1s',
    KJ_WINDOW_REST: '1s',
    KJ_WINDOW_MIN_BET: '500',
    KJ_WINDOW_MAX_BET: '5000',
  },
};

const ROUNDS = 20;

export default async function trend(t) {
  const { page } = t;
  const main = page.locator('main.window-page');
  const phase = () => main.getAttribute('data-phase');

  async function waitForBetting() {
    const deadline = Date.now() + 30_000;
    // A fresh betting phase with time left for the taps.
    while ((await phase()) === 'betting') {
      if (Date.now() > deadline) throw new Error('betting never ended');
      await page.waitForTimeout(50);
    }
    while ((await phase()) !== 'betting') {
      if (Date.now() > deadline) throw new Error('betting never opened');
      await page.waitForTimeout(50);
    }
  }

  const operator = await operatorLogin(t);
  const user = await registerUser(t, `tr${t.language.slice(0, 2)}`);
  await giveUserPoints(t, user, operator, 10_000);
  await signInThroughUi(t, user.account, '/pages/find/incentive-window?id=1');
  await main.waitFor();
  // The browser's sign-in replaced the API session of the same platform: the checks below read
  // the bets through a session of another platform.
  const reader = (await t.api('/accountLogin', { account: user.account, password: PASSWORD, platform: 1, operationID: `e2e${Date.now()}` })).data;
  assert.ok(reader?.token, 'second sign-in');

  await t.test('repeat last bet places the same bet again in a later round', async () => {
    await waitForBetting();
    await main.locator('[data-content="SMALL"]').tap();
    await main.locator('.bet-panel__chips .chip').filter({ hasText: /^10$/ }).tap();
    await main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true }).tap();
    const repeat = main.locator('.bet-panel__repeat');
    await repeat.waitFor();
    assert.equal(await repeat.getAttribute('data-repeat'), 'SMALL:1000', 'the last bet is kept in cents');
    assert.equal(
      (await repeat.textContent()).trim(),
      t.text('rounds.bet.repeat', { content: t.text('rounds.content.SMALL'), amount: '10.00' }),
    );
    const first = (await t.api('/activation/lotteryBettingRecord', { tab: 'all' }, reader.token)).data.list;
    assert.equal(first.length, 1);

    await waitForBetting();
    const issue = (await main.locator('#round-issue').textContent()).replace(/\D/g, '');
    await repeat.tap();
    let bets = [];
    for (const until = Date.now() + 10_000; Date.now() < until; await page.waitForTimeout(100)) {
      bets = (await t.api('/activation/lotteryBettingRecord', { tab: 'all' }, reader.token)).data.list;
      if (bets.length === 2) break;
    }
    assert.equal(bets.length, 2, 'the repeated bet was not placed');
    assert.deepEqual(
      bets.map((b) => [b.content, b.amount]),
      [
        ['SMALL', 1000],
        ['SMALL', 1000],
      ],
    );
    assert.equal(bets[0].issue, issue);
    assert.notEqual(bets[1].issue, issue);
    assert.equal(await main.locator('input[name="amount"]').inputValue(), '10');
    await t.screenshot('repeat-bet');
  });

  await t.test(`after ${ROUNDS} rounds the trend board matches the history`, async () => {
    for (const until = Date.now() + 150_000; ; await page.waitForTimeout(500)) {
      const h = await t.api('/activation/historyPrize', { windowId: 1, page: 1, pageSize: ROUNDS });
      if (h.data.list.length >= ROUNDS) break;
      if (Date.now() > until) throw new Error(`only ${h.data.list.length} rounds drawn`);
    }
    await main.getByRole('tab', { name: t.text('rounds.tabs.trend') }).tap();
    const board = main.locator('section[data-latest]');
    await board.waitFor();
    // The board and the cells are read at once: a draw may extend the board at any moment.
    const read = () =>
      board.evaluate((el, kindAttr) => ({
        latest: el.getAttribute('data-latest'),
        rounds: Number(el.getAttribute('data-rounds')),
        kind: el.querySelector('[data-board]')?.getAttribute(kindAttr),
        bead: [...el.querySelectorAll('[data-grid="bead"] li')].map((li) => [li.dataset.issue, li.dataset.value, li.style.gridColumnStart, li.style.gridRowStart]),
        road: [...el.querySelectorAll('[data-grid="road"] li')].map((li) => [li.dataset.issue, li.dataset.value]),
        counts: Object.fromEntries([...el.querySelectorAll('[data-board] [data-value]')].map((d) => [d.dataset.value, d.querySelector('[data-stat="count"]').textContent])),
      }), 'data-board');
    const check = async (kind, index) => {
      // The history is read after the board: a round drawn between the two reads is then in the
      // history too. A round the board got pushed may reach the history a moment later, so the
      // pair is read again (for a few seconds) until the board's newest round is in it.
      let seen;
      let history;
      let start = -1;
      for (const until = Date.now() + 5_000; ; await page.waitForTimeout(100)) {
        seen = await read();
        history = (await t.api('/activation/historyPrize', { windowId: 1, page: 1, pageSize: 100 })).data.list;
        start = history.findIndex((r) => r.issue === seen.latest);
        if (start >= 0 || Date.now() > until) break;
      }
      assert.equal(seen.kind, kind);
      assert.ok(seen.rounds >= ROUNDS, `board shows ${seen.rounds} rounds`);
      assert.ok(start >= 0, `the board's newest round ${seen.latest} is not in the history`);
      const expected = history.slice(start, start + seen.rounds).reverse();
      assert.equal(expected.length, seen.rounds);
      assert.deepEqual(
        seen.bead.map(([issue, value]) => [issue, value]),
        expected.map((r) => [r.issue, r.outcome[index]]),
      );
      seen.bead.forEach(([, , col, row], i) => {
        assert.equal(Number(col), Math.floor(i / 6) + 1);
        assert.equal(Number(row), (i % 6) + 1);
      });
      assert.deepEqual(
        seen.road.map(([issue, value]) => [issue, value]),
        expected.map((r) => [r.issue, r.outcome[index]]),
      );
      for (const value of Object.keys(seen.counts)) {
        const n = expected.filter((r) => r.outcome[index] === value).length;
        assert.equal(seen.counts[value], t.text('rounds.trend.count', { n }));
      }
    };
    await check('size', 0);
    await board.locator('[data-grid="road"]').scrollIntoViewIfNeeded();
    await t.screenshot('trend-size');
    await main.getByRole('button', { name: t.text('rounds.trend.kind.parity') }).tap();
    await check('parity', 1);
    await board.locator('[data-grid="road"]').scrollIntoViewIfNeeded();
    await t.screenshot('trend-parity');
  });

  await t.test('the fairness panel shows each outcome and verifies a round from its row', async () => {
    await main.getByRole('tab', { name: t.text('rounds.tabs.fairness') }).tap();
    const size = main.locator('table[data-group="size"]');
    await size.waitFor();
    // The round count and the counts per outcome are read at once: a draw may add a round
    // between two reads.
    const { rounds, observed } = await main.evaluate((el) => ({
      rounds: Number(el.querySelector('section[data-rounds]')?.getAttribute('data-rounds')),
      observed: [...el.querySelectorAll('table[data-group="size"] [data-stat="observed"]')].map((d) => d.textContent),
    }));
    assert.ok(rounds >= ROUNDS);
    assert.equal(observed.map((s) => Number(s.split(' ')[0])).reduce((a, b) => a + b, 0), rounds);
    await size.scrollIntoViewIfNeeded();
    await t.screenshot('fairness');
    await size.locator('tr[data-outcome]').first().getByRole('button', { name: t.text('rounds.fairness.verify') }).tap();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.verify__check--ok').first().waitFor();
    assert.equal(await dialog.locator('.verify__check--bad').count(), 0);
  });
}
