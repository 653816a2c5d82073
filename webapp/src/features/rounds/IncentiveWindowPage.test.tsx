import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Round, RoundResult, WindowNow } from '../../api/rounds';
import { stubApi } from '../../test/routeStub';
import { renderScreen } from '../../test/renderApp';
import { IncentiveWindowPage } from './IncentiveWindowPage';

// docs/ROUNDS.md's worked example, as a past result of window 1.
const drawn: RoundResult = {
  windowId: 1,
  issue: '20260301000100001',
  digits: [1, 2, 4],
  sum: 7,
  outcome: ['SMALL', 'SINGLE'],
  seedHash: '68b955100a539f1f3b318ed85a4e757d5c133a1f9510847e645e5c0f3444d38d',
  serverSeed: 'b5c2ff18248a578045a421a656ba258b7483aab06777a99e953ff493a776f6bf',
  drawnAt: 1,
};

function windowNow(serverTime: number): WindowNow {
  const round: Round = {
    windowId: 1,
    issue: '20260301000100002',
    phase: 'betting',
    deadline: serverTime + 30_000,
    startsAt: serverTime - 30_000,
    bettingEndsAt: serverTime + 30_000,
    drawingEndsAt: serverTime + 40_000,
    restEndsAt: serverTime + 60_000,
    seedHash: 'abc',
    odds: '1.98',
    oddsBp: 19800,
    minBet: 100,
    maxBet: 1_000_000,
    ordersCount: 3,
    totalPoints: 4500,
  };
  return { windowId: 1, serverTime, round, result: null, previous: drawn, next: null, myBets: [] };
}

function renderPage() {
  window.localStorage.setItem('access_token', 'T');
  renderScreen('/pages/find/incentive-window', IncentiveWindowPage, '/pages/find/incentive-window?id=1');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('IncentiveWindowPage', () => {
  it('counts down to the server deadline when the phone clock is an hour off', async () => {
    // The server's clock is an hour ahead of this device's.
    stubApi({
      '/activation/getNewLottery': () => windowNow(Date.now() + 3_600_000),
      '/activation/lotteryList': () => ({
        serverTime: Date.now() + 3_600_000,
        availablePoints: 123456,
        windows: [{ windowId: 1, index: 1, issue: '20260301000100002', phase: 'betting', deadline: 0, seedHash: 'abc', roundsCount: 41, ordersCount: 3, totalPoints: 4500 }],
      }),
      '/activation/getRuleList': { rules: [], contents: ['BIG', 'SMALL', 'SINGLE', 'DOUBLE'], fairness: 'fair' },
    });
    renderPage();
    const countdown = await screen.findByLabelText(/seconds? left/, {}, { timeout: 5_000 });
    const seconds = Number(countdown.getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThanOrEqual(29);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(screen.getByRole('heading', { name: 'Issue 20260301000100002' })).toBeInTheDocument();
    expect(screen.getByText('Betting', { selector: '.phase-badge' })).toBeInTheDocument();
    // Figures: rounds drawn, orders, total and available points.
    await waitFor(() => {
      expect(document.querySelector('[data-stat="available"]')).toHaveTextContent('1,234.56');
    });
    expect(document.querySelector('[data-stat="rounds"]')).toHaveTextContent('41');
    expect(document.querySelector('[data-stat="orders"]')).toHaveTextContent('3');
    expect(document.querySelector('[data-stat="total"]')).toHaveTextContent('45.00');
    // The previous result is on the board.
    expect(screen.getByText('Previous issue 20260301000100001')).toBeInTheDocument();
  });

  it('verifies a past round from the history in the browser', async () => {
    stubApi({
      '/activation/getNewLottery': () => windowNow(Date.now()),
      '/activation/lotteryList': () => ({ serverTime: Date.now(), availablePoints: 0, windows: [] }),
      '/activation/getRuleList': { rules: [], contents: [], fairness: 'fair' },
      '/activation/historyPrize': { list: [drawn], page: 1, pageSize: 20, hasMore: false },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Verified: this result was fixed before betting opened');
    expect(within(dialog).getByText('The seed matches the hash published before betting')).toBeInTheDocument();
    expect(dialog.querySelector('[data-field="digits"]')).toHaveTextContent('1 + 2 + 4 = 7');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says so for a window id that is not a number', async () => {
    stubApi({});
    renderScreen('/w', IncentiveWindowPage, '/w?id=abc');
    expect(await screen.findByText('This activation window does not exist')).toBeInTheDocument();
  });
});
