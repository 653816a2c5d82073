import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/fakeServer';
import { alice, renderApp, signIn } from '../../test/renderApp';
import { launchTarget } from './InitPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('launchTarget', () => {
  it.each([
    ['/pages/tabBar/find', '/pages/tabBar/find'],
    [' /pages/my/recharge?type=1 ', '/pages/my/recharge?type=1'],
    ['/pages/auth/login', '/pages/auth/login'],
    [null, '/'],
    ['', '/'],
    ['pages/tabBar/find', '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example/', '/'],
    ['/\t/evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['/pages/init/init?redirect=/pages/init/init', '/'],
  ])('opens only paths of this app, never the launch page itself: %j opens %j', (redirect, opened) => {
    expect(launchTarget(redirect)).toBe(opened);
  });
});

describe('/pages/init/init', () => {
  it('shows the splash, then replaces itself with the redirect', async () => {
    fakeServer({});
    const { router } = renderApp(`/pages/init/init?redirect=${encodeURIComponent('/pages/tabBar/mine?from=init')}`);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
    expect(router.state.location.search).toBe('?from=init');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('with a token, waits on the splash for the user info the guard fetches', async () => {
    signIn();
    let answer: (() => void) | undefined;
    const server = fakeServer({ '/user/mine': () => alice });
    const plain = server.fetchMock.getMockImplementation();
    server.fetchMock.mockImplementation((url: string, init?: RequestInit) => {
      if (!url.includes('/user/mine') || !plain) return plain ? plain(url, init) : Promise.reject(new Error('no fake'));
      return new Promise<Response>((resolve) => {
        answer = () => {
          void plain(url, init).then(resolve);
        };
      });
    });
    const { router } = renderApp('/pages/init/init');
    expect(await screen.findByRole('heading', { level: 1, name: 'KJ' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    await waitFor(() => {
      expect(answer).toBeDefined();
    });
    expect(router.state.location.pathname).toBe('/pages/init/init');
    answer?.();
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(server.callsTo('/user/mine')).toHaveLength(1);
  });
});
