import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createStore } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app/AppProviders';
import { createI18n } from '../i18n';
import { stubApi } from '../test/routeStub';
import { FindPage } from './FindPage';

function renderPage() {
  const router = createMemoryRouter([{ path: '/pages/tabBar/find', Component: FindPage }], {
    initialEntries: ['/pages/tabBar/find'],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders i18n={createI18n('en-US')} store={createStore()} queryClient={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
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
    stubApi({
      '/indexCarousel': [{ id: '1', title: 'Welcome', image: '/b.png', link: '/pages/customer/customer', sort: 0 }],
      '/activation/getRuleList': rules,
      '/activation/lotteryList': () => ({
        serverTime,
        availablePoints: 2000,
        windows: [
          { windowId: 1, index: 1, issue: '20260301000100042', phase: 'drawing', deadline: serverTime + 8_000, seedHash: 'h', roundsCount: 41, ordersCount: 2, totalPoints: 1500 },
        ],
      }),
      '/user/checkVideoCount': { isActivation: 0, unlimited: false, limit: 3, used: 1, remaining: 2, counted: false, video: null },
    });
    renderPage();
    const card = await screen.findByRole('link', { name: /Activation window 1/ }, { timeout: 5_000 });
    expect(card).toHaveAttribute('href', '/pages/find/incentive-window?id=1');
    expect(within(card).getByText('Drawing')).toBeInTheDocument();
    const seconds = Number(card.querySelector('time')?.getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThanOrEqual(7);
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
