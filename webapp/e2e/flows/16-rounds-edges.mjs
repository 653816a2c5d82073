// The rough edges of an activation window on a 390 x 844 phone, checked by the boxes the
// browser lays out: scrolled down to the tabs, the round's phase and time stay pinned under
// the header; the five tabs ("Rules" last) fit the row; the fairness tables keep an outcome
// ("大", "Big · Single") and each verify button on one line, inside the screen; the notice of a
// round one bet in appears below the header, the back button still free; and the click records
// name the bet in the window's words ("Big", not "BIG") without the internal note number.
import assert from 'node:assert/strict';
import { giveUserPoints, operatorLogin, registerUser, signInThroughUi } from '../support/accounts.mjs';

export const server = {
  demo: true,
  env: {
    KJ_WINDOW_COUNT: '1',
    KJ_WINDOW_BETTING: '8s',
    KJ_WINDOW_DRAWING: '2s',
    KJ_WINDOW_REST: '2s',
    KJ_WINDOW_MIN_BET: '500',
    KJ_WINDOW_MAX_BET: '5000',
  },
};

const VIEW = { width: 390, height: 844 };

/** Fails unless `box` lies between the viewport's left and right edges. */
function assertInWidth(box, what) {
  assert.ok(box, `${what} is not laid out`);
  assert.ok(box.x >= -0.5, `${what} starts off screen: ${JSON.stringify(box)}`);
  assert.ok(box.x + box.width <= VIEW.width + 0.5, `${what} ends past the right edge: ${JSON.stringify(box)}`);
}

/** Fails unless `box` lies within the 390 x 844 viewport. */
function assertInView(box, what) {
  assert.ok(box, `${what} is not laid out`);
  assert.ok(box.x >= -0.5 && box.y >= -0.5, `${what} starts off screen: ${JSON.stringify(box)}`);
  assert.ok(box.x + box.width <= VIEW.width + 0.5, `${what} ends past the right edge: ${JSON.stringify(box)}`);
  assert.ok(box.y + box.height <= VIEW.height + 0.5, `${what} ends below the screen: ${JSON.stringify(box)}`);
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** How many lines the element's text takes (distinct tops of its text boxes). */
const lineCount = (locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });

export default async function roundsEdges(t) {
  const { page } = t;
  const main = page.locator('main.window-page');
  const phase = () => main.getAttribute('data-phase');
  const seconds = async () => Number(await main.locator('.round-card .countdown').getAttribute('data-seconds'));

  async function waitForBetting(minSeconds) {
    const deadline = Date.now() + 40_000;
    while ((await phase()) !== 'betting' || (await seconds()) < minSeconds) {
      if (Date.now() > deadline) throw new Error(`no betting phase with ${minSeconds}s left`);
      await page.waitForTimeout(100);
    }
  }

  const operator = await operatorLogin(t);
  const user = await registerUser(t, `re${t.language.slice(0, 2)}`);
  await giveUserPoints(t, user, operator, 5000);

  await t.test('scrolled down to the tabs, the phase and the time left stay pinned under the header', async () => {
    await signInThroughUi(t, user.account, '/pages/find/incentive-window?id=1');
    await main.locator('.round-card .countdown').waitFor();
    const pin = page.getByTestId('round-pin');
    assert.equal(await pin.count(), 0, 'nothing pinned while the round card is in view');
    await main.locator('.window-panel').evaluate((el) => {
      el.style.minHeight = '1200px'; // room to scroll however short the panel is today
      el.scrollIntoView({ block: 'start' });
    });
    const header = await page.locator('.page-header').boundingBox();
    const timer = await main.locator('.round-card__timer').boundingBox();
    assert.ok(timer.y + timer.height <= header.y + header.height, 'the round card scrolled away under the header');
    await pin.waitFor();
    const box = await pin.boundingBox();
    assertInView(box, 'the pinned round bar');
    assert.ok(box.y >= header.y + header.height - 0.5, 'the pinned bar is below the header, not over it');
    assert.ok(!overlaps(box, await page.getByRole('button', { name: t.text('common.back') }).boundingBox()), 'the back button is free');
    // The bar and the page are read one after the other, so a phase that
    // ends in between shows them apart for a moment: they must agree again
    // within a few seconds.
    let shown, current;
    for (const until = Date.now() + 5_000; ; await page.waitForTimeout(100)) {
      [shown, current] = [await pin.locator('.phase-badge').getAttribute('data-phase'), await phase()];
      if (shown === current || Date.now() > until) break;
    }
    assert.equal(shown, current, 'the pinned bar shows the phase the round is in');
    assert.match(await pin.locator('.countdown').textContent(), /^\d\d:\d\d$/);
    await t.screenshot('pinned');
    await page.evaluate(() => window.scrollTo(0, 0));
    await pin.waitFor({ state: 'detached' });
  });

  await t.test('all five tabs fit the row, "Rules" included, none clipped', async () => {
    const tabs = main.getByRole('tab');
    assert.equal(await tabs.count(), 5);
    // The round card above the tabs grows when a draw shows its result, which can push the
    // row down just after it was scrolled into view: scroll and measure until a measure
    // finds the row in view, a few seconds at most.
    let row;
    for (const until = Date.now() + 5_000; ; await page.waitForTimeout(100)) {
      await main.locator('.window-tabs').scrollIntoViewIfNeeded();
      row = await main.locator('.window-tabs').boundingBox();
      if ((row && row.y >= -0.5 && row.y + row.height <= VIEW.height + 0.5) || Date.now() > until) break;
    }
    for (const tab of await tabs.all()) {
      const box = await tab.boundingBox();
      const name = await tab.textContent();
      assertInView(box, `the tab ${name}`);
      assert.ok(box.x + box.width <= row.x + row.width + 0.5, `the tab ${name} is past the end of its row`);
      const clipped = await tab.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      assert.equal(clipped, false, `the tab ${name} is cut off`);
    }
    const rules = main.getByRole('tab', { name: t.text('rounds.tabs.rules') });
    await rules.tap();
    assert.equal(await rules.getAttribute('aria-selected'), 'true');
  });

  await t.test('the fairness tables keep each outcome and each verify button on one line, inside the screen', async () => {
    await main.getByRole('tab', { name: t.text('rounds.tabs.fairness') }).tap();
    // A drawn round is needed: one is drawn every 12 s.
    const rows = main.locator('table tr[data-outcome]');
    await rows.first().waitFor({ timeout: 30_000 });
    const big = main.locator('table tr[data-outcome="BIG"] th');
    await big.waitFor();
    assert.equal(await big.textContent(), t.text('rounds.content.BIG'));
    for (const row of await rows.all()) {
      const outcome = row.locator('th');
      assert.equal(await lineCount(outcome), 1, `"${await outcome.textContent()}" wraps`);
      for (const cell of await row.locator('td[data-stat]').all()) assert.equal(await lineCount(cell), 1, `"${await cell.textContent()}" wraps`);
      const verify = row.getByRole('button', { name: t.text('rounds.fairness.verify') });
      if ((await verify.count()) === 0) continue;
      assert.equal(await lineCount(verify), 1, 'the verify button wraps');
      assertInWidth(await verify.boundingBox(), 'a verify button');
    }
    await t.screenshot('fairness');
  });

  await t.test('the notice of a round one bet in leaves the back button free', async () => {
    await main.getByRole('tab', { name: t.text('rounds.tabs.bets') }).tap();
    await page.evaluate(() => window.scrollTo(0, 0));
    await waitForBetting(4);
    await main.locator('[data-content="BIG"]').tap();
    await main.locator('.bet-panel__chips .chip').filter({ hasText: /^10$/ }).tap();
    await page.waitForTimeout(550); // the submit button takes one tap per 500 ms
    await main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true }).tap();
    await main.locator('.my-bets__item').first().waitFor();
    const notice = page.locator('button[data-payout]');
    await notice.waitFor({ timeout: 30_000 });
    const box = await notice.boundingBox();
    assertInView(box, 'the round notice');
    const back = await page.getByRole('button', { name: t.text('common.back') }).boundingBox();
    assert.ok(!overlaps(box, back), `the notice ${JSON.stringify(box)} covers the back button ${JSON.stringify(back)}`);
    await t.screenshot('outcome-notice');
  });

  await t.test('click records name the bet in the window\'s words, with no internal note number', async () => {
    // The session the browser signed in (signing in there ended the API's own).
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    const list = await t.api('/activation/lotteryBettingRecord', { tab: 'all', days: 0, page: 1, pageSize: 10 }, token);
    assert.equal(list.code, 0, list.message);
    const bet = list.data?.list?.[0];
    assert.ok(bet?.noteNo, `a bet with a note number: ${JSON.stringify(list.data).slice(0, 300)}`);
    await page.goto(t.url('/pages/my/click-record'));
    const row = page.locator('[data-testid="record-state"]').first().locator('..');
    await row.waitFor();
    const text = await row.textContent();
    assert.ok(text.includes(t.text('rounds.content.BIG')), `"${text}" names the bet ${t.text('rounds.content.BIG')}`);
    assert.ok(!text.includes(String(bet.noteNo)), `"${text}" shows the internal note number ${bet.noteNo}`);
    if (t.language === 'en-US') assert.ok(!/\bBIG\b/.test(text), `"${text}" shows the raw code BIG`);
    await t.screenshot('click-records');
  });
}
