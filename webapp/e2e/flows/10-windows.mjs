// Discover and an activation window against a server with short phases: the countdown moves
// through betting → drawing → rest, bet rules are checked before sending, a BIG bet is placed,
// the result and the balance change show, and the round is verified in the browser.
import assert from 'node:assert/strict';
import { giveUserPoints, operatorLogin, registerUser, signInThroughUi } from '../support/accounts.mjs';

const BETTING_S = 10;

export const server = {
  demo: true,
  env: {
    KJ_WINDOW_COUNT: '2',
    KJ_WINDOW_BETTING: `${BETTING_S}s`,
    KJ_WINDOW_DRAWING: '3s',
    KJ_WINDOW_REST: '3s',
    KJ_WINDOW_MIN_BET: '500', // 5.00 points
    KJ_WINDOW_MAX_BET: '5000', // 50.00 points
    KJ_USDT_TRC20_ADDRESS: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  },
};

const STAKE_CENTS = 1000; // the 10-point chip
const START_CENTS = 2000;

/** "2,029.80"-style text of the app for cents (en and zh both show 2 decimals; no grouping below 1000). */
function money(cents) {
  return (cents / 100).toFixed(2);
}

export default async function windows(t) {
  const { page } = t;
  const main = page.locator('main.window-page');
  const phase = () => main.getAttribute('data-phase');
  const seconds = async () => Number(await main.locator('.round-card .countdown').getAttribute('data-seconds'));
  const stat = (name) => main.locator(`[data-stat="${name}"]`);
  const alertText = () => main.locator('.bet-panel [role="alert"]').textContent();

  /** Waits until the page shows `wanted`; returns the phases it saw on the way. */
  async function waitForPhase(wanted, timeout = 30_000, minSeconds = 0) {
    const seen = [];
    const deadline = Date.now() + timeout;
    for (;;) {
      const now = await phase();
      if (seen[seen.length - 1] !== now) seen.push(now);
      if (now === wanted && (minSeconds === 0 || (await seconds()) >= minSeconds)) return seen;
      if (Date.now() > deadline) throw new Error(`phase ${wanted} not reached; saw ${seen.join(' → ')}`);
      await page.waitForTimeout(100);
    }
  }

  const operator = await operatorLogin(t);
  const user = await registerUser(t, `w${t.language.slice(0, 2)}`);
  await giveUserPoints(t, user, operator, START_CENTS);

  await t.test('discover lists the windows with a live phase and countdown', async () => {
    await signInThroughUi(t, user.account, '/pages/tabBar/find');
    const cards = page.locator('li[data-window]');
    await cards.first().waitFor();
    assert.equal(await cards.count(), 2);
    const first = cards.first();
    assert.match(await first.getByTestId('window-title').textContent(), /1/);
    assert.ok(['betting', 'drawing', 'rest'].includes(await first.getAttribute('data-phase')));
    assert.match(await first.locator('.countdown').textContent(), /^\d\d:\d\d$/);
    await page.getByTestId('windows-balance').filter({ hasText: money(START_CENTS) }).waitFor();
    await page.getByTestId('carousel-image').first().waitFor();
    await t.screenshot('discover');
  });

  await t.test('a window opens from discover with its figures', async () => {
    await page.locator('li[data-window="1"] a').tap();
    await page.waitForURL((url) => url.pathname === '/pages/find/incentive-window' && url.searchParams.get('id') === '1');
    await page.getByRole('heading', { level: 1, name: t.text('rounds.windowTitle', { index: 1 }) }).waitFor();
    await stat('available').filter({ hasText: money(START_CENTS) }).waitFor();
    assert.match(await main.locator('.round-card__issue').textContent(), /\d{17}/);
  });

  let issue = '';
  await t.test('the countdown runs down in the betting phase', async () => {
    await waitForPhase('betting', 30_000, 7);
    const a = await seconds();
    await page.waitForTimeout(1_200);
    const b = await seconds();
    assert.ok(b < a && b >= a - 2, `countdown ${a} → ${b}`);
    assert.ok(a <= BETTING_S, `at most the betting length: ${a}`);
    await t.screenshot('window-betting');
  });

  await t.test('bet rules are checked before anything is sent', async () => {
    let bets = 0;
    const count = (request) => {
      if (new URL(request.url()).pathname === '/api/activation/betRequest') bets += 1;
    };
    page.on('request', count);
    try {
      await waitForPhase('betting', 30_000, 7);
      const submit = main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true });
      await submit.tap();
      assert.equal(await alertText(), t.text('rounds.bet.chooseContent'));
      await main.locator('[data-content="BIG"]').tap();
      assert.equal(await main.locator('[data-content="BIG"]').getAttribute('aria-checked'), 'true');
      const input = main.locator('input[name="amount"]');
      // Money means what was typed: kept as it is and refused with the reason, never read as "2".
      await input.fill('00x2');
      assert.equal(await input.inputValue(), '00x2', 'a typed amount is never rewritten');
      await page.waitForTimeout(550); // the submit button is throttled to one tap per 500 ms
      await submit.tap();
      assert.equal(await alertText(), t.text('validation.amountNotNumber'));
      await input.fill('2');
      await page.waitForTimeout(550);
      await submit.tap();
      assert.equal(await alertText(), t.text('rounds.bet.min', { min: '5.00' }));
      await input.fill('60');
      await page.waitForTimeout(550);
      await submit.tap();
      assert.equal(await alertText(), t.text('rounds.bet.max', { max: '50.00' }));
      await input.fill('30');
      await page.waitForTimeout(550);
      await submit.tap();
      assert.equal(await alertText(), t.text('rounds.bet.insufficient'));
      assert.equal(bets, 0, 'no bet request for a refused bet');
    } finally {
      page.off('request', count);
    }
  });

  const phasesSeen = [];
  await t.test('a BIG bet is placed and the balance goes down', async () => {
    // A fresh betting phase, so the bet and the walk through the phases fit in one round.
    if ((await phase()) === 'betting') phasesSeen.push(...(await waitForPhase('drawing')));
    phasesSeen.push(...(await waitForPhase('betting', 30_000)));
    issue = (await main.locator('#round-issue').textContent()).replace(/\D/g, '');
    await main.locator('[data-content="BIG"]').tap();
    await main.locator('.bet-panel__chips .chip').filter({ hasText: /^10$/ }).tap();
    assert.equal(await main.locator('input[name="amount"]').inputValue(), '10');
    await page.waitForTimeout(550);
    await main.getByRole('button', { name: t.text('rounds.bet.submit'), exact: true }).tap();
    const bet = main.locator('.my-bets__item');
    await bet.first().waitFor();
    assert.equal(await bet.count(), 1);
    assert.equal(await bet.first().getAttribute('data-state'), 'open');
    assert.match(await bet.first().textContent(), new RegExp(money(STAKE_CENTS).replace('.', '\\.')));
    await stat('available').filter({ hasText: money(START_CENTS - STAKE_CENTS) }).waitFor();
    await stat('orders').filter({ hasText: /^[1-9]/ }).waitFor();
  });

  let won = false;
  await t.test('the countdown moves through drawing and rest, and the result shows', async () => {
    phasesSeen.push(...(await waitForPhase('drawing')));
    await main.locator('.result-digits[data-state="rolling"]').waitFor();
    await t.screenshot('window-drawing');
    phasesSeen.push(...(await waitForPhase('rest')));
    const order = phasesSeen.filter((p, i) => p !== phasesSeen[i - 1]);
    const from = order.lastIndexOf('betting');
    assert.deepEqual(order.slice(from, from + 3), ['betting', 'drawing', 'rest'], `phases seen: ${order.join(' → ')}`);
    const digits = main.locator('.round-card .result-digits[data-state="drawn"]');
    await digits.waitFor();
    const shown = await digits.locator('.result-digits__wheel').allTextContents();
    assert.equal(shown.length, 3);
    const sum = shown.reduce((s, d) => s + Number(d), 0);
    won = sum >= 14;
    const banner = main.locator(`.win-lose[data-outcome="${won ? 'win' : 'lose'}"]`);
    await banner.waitFor({ timeout: 8_000 });
    await main.locator(`.my-bets__item[data-state="${won ? 'win' : 'lose'}"]`).waitFor();
    const expected = START_CENTS - STAKE_CENTS + (won ? (STAKE_CENTS * 198) / 100 : 0);
    await stat('available').filter({ hasText: money(expected) }).waitFor();
    await t.screenshot('window-rest');
  });

  await t.test('history verifies the round in the browser', async () => {
    await main.getByRole('tab', { name: t.text('rounds.tabs.history') }).tap();
    const row = main.locator(`.history__row[data-issue="${issue}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: t.text('rounds.history.verify') }).tap();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.verify__computed[data-verified="true"]').waitFor();
    const published = await dialog.locator('[data-field="seedHash"]').textContent();
    assert.equal(await dialog.locator('[data-field="computedHash"]').textContent(), published);
    // The seed's hash, the bet list committed at the close (docs/ROUNDS.md), the digits.
    assert.equal(await dialog.locator('.verify__check[data-ok="true"]').count(), 3);
    await dialog.getByText(t.text('rounds.verify.verified')).waitFor();
    await t.screenshot('window-verify');
    await dialog.getByRole('button', { name: t.text('discover.close') }).tap();
    await dialog.waitFor({ state: 'detached' });
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await page.evaluate(() => window.scrollTo(0, 0));
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(15, 17, 21)');
      await t.screenshot('window-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  await t.test('a phone clock an hour off shows the same countdown', async () => {
    // Another phone: same account, its clock an hour slow (and running).
    const other = await t.context.browser().newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'reduce',
      storageState: await t.context.storageState(),
    });
    try {
      await other.clock.install({ time: new Date(Date.now() - 3_600_000) });
      const wrong = await other.newPage();
      const errors = [];
      wrong.on('pageerror', (error) => errors.push(error.message));
      await wrong.goto(t.url('/pages/find/incentive-window?id=1'));
      const theirMain = wrong.locator('main.window-page');
      await theirMain.locator('.round-card .countdown').waitFor();
      assert.ok(
        Math.abs((await wrong.evaluate(() => Date.now())) - Date.now() + 3_600_000) < 60_000,
        'the other phone really runs an hour slow',
      );
      // Compare when neither page is at a phase boundary.
      for (let attempt = 0; ; attempt += 1) {
        const [mine, theirs, p1, p2] = await Promise.all([
          seconds(),
          theirMain.locator('.round-card .countdown').getAttribute('data-seconds').then(Number),
          phase(),
          theirMain.getAttribute('data-phase'),
        ]);
        if (p1 === p2 && mine >= 2) {
          assert.ok(Math.abs(mine - theirs) <= 1, `right clock ${mine}s, wrong clock ${theirs}s`);
          break;
        }
        assert.ok(attempt < 20, `phases never lined up: ${p1} / ${p2}`);
        await page.waitForTimeout(500);
      }
      assert.deepEqual(errors, []);
    } finally {
      await other.close();
    }
  });
}
