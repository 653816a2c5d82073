import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/routeStub';
import { renderScreen } from '../../test/renderApp';
import { FindPage } from './FindPage';

function renderPage() {
  renderScreen('/pages/tabBar/find', FindPage);
}

const rules = {
  rules: [{ windowId: 1, odds: '1.98', oddsBp: 19800, minBet: 100, maxBet: 1_000_000, bettingMs: 60000, drawingMs: 10000, restMs: 20000, enabled: true, text: '' }],
  contents: [],
  fairness: '',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FindPage', () => {
  it('shows each window live to a signed-in user, with the carousel and the video allowance', async () => {
    window.localStorage.setItem('access_token', 'T');
    const serverTime = Date.now() - 7_200_000; // the phone is two hours ahead
    let answeredAt = 0;
    stubApi({
      '/indexCarousel': [{ id: '1', title: 'Welcome', image: '/b.png', link: '/pages/customer/customer', sort: 0 }],
      '/activation/getRuleList': rules,
      '/activation/lotteryList': () => {
        answeredAt = Date.now();
        return {
          serverTime,
          availablePoints: 2000,
          windows: [
            { windowId: 1, index: 1, issue: '20260301000100042', phase: 'drawing', deadline: serverTime + 8_000, seedHash: 'h', roundsCount: 41, ordersCount: 2, totalPoints: 1500 },
          ],
        };
      },
      '/user/checkVideoCount': { isActivation: 0, unlimited: false, limit: 3, used: 1, remaining: 2, counted: false, video: null },
    });
    renderPage();
    const card = await screen.findByRole('link', { name: /Activation window 1/ }, { timeout: 5_000 });
    expect(card).toHaveAttribute('href', '/pages/find/incentive-window?id=1');
    expect(within(card).getByText('Drawing')).toBeInTheDocument();
    // 8 s left when answered, corrected for the phone's clock; a slow render
    // (a busy machine) may have used some of them since.
    const seconds = Number(card.querySelector('time')?.getAttribute('data-seconds'));
    const since = Math.ceil((Date.now() - answeredAt) / 1000);
    expect(seconds).toBeGreaterThanOrEqual(7 - since);
    expect(seconds).toBeLessThanOrEqual(8);
    expect(within(card).getByText('41 rounds')).toBeInTheDocument();
    expect(await screen.findByText('Available 20.00')).toBeInTheDocument();
    expect(await screen.findByText('2 of 3 free videos left today')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Welcome' }).closest('a')).toHaveAttribute('href', '/pages/customer/customer');
  });

  it('lists the windows and asks a guest to sign in', async () => {
    const api = stubApi({ '/indexCarousel': [], '/activation/getRuleList': rules });
    renderPage();
    expect(await screen.findByText('Odds 1.98 · bets 1.00 - 10,000.00')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to join the windows' })).toHaveAttribute(
      'href',
      `/pages/auth/login?redirect=${encodeURIComponent('/pages/tabBar/find')}`,
    );
    expect(screen.getByText('Sign in to watch')).toBeInTheDocument();
    expect(api.called('/activation/lotteryList')).toHaveLength(0);
  });
});
