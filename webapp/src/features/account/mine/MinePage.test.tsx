import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../api/storage';
import { fakeServer } from '../../../test/fakeServer';
import { alice, renderApp, signIn, wallet } from '../../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const manifest = (normal: string, force = '') => ({
  package: {
    normal: { version: normal, path: normal ? `/files/${normal}.apk` : '', remark: '' },
    force: { version: force, path: force ? `/files/${force}.apk` : '', remark: '' },
  },
  resource: { version: '', path: '' },
});

describe('mine tab', () => {
  it('the guard loads the user for a stored token; the page shows profile, status and balance', async () => {
    signIn();
    const server = fakeServer({
      '/user/mine': () => ({ ...alice, isActivation: 1, notice: 3 }),
      '/user/getUserAmount': () => ({ ...wallet, amount: 12345678, frozenAmount: 2000 }),
    });
    renderApp('/pages/tabBar/mine');
    expect(await screen.findByText('Account: alice')).toBeInTheDocument();
    expect(screen.getByText('Activated')).toBeInTheDocument();
    expect(await screen.findByTestId('points-balance')).toHaveTextContent('123,456.78');
    expect(screen.getByText('Under review: 20.00')).toBeInTheDocument();
    expect(screen.getByLabelText('3 unread notices')).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'Exchange' })).toHaveAttribute('href', '/pages/my/exchange');
    expect(server.callsTo('/user/mine').length).toBeGreaterThan(0);
  });

  it("says 'latest version' when the app is up to date", async () => {
    signIn();
    fakeServer({ '/user/mine': () => alice, '/user/getUserAmount': () => wallet });
    const user = userEvent.setup();
    renderApp('/pages/tabBar/mine');
    await user.click(await screen.findByRole('button', { name: /Check for updates/ }));
    expect(await screen.findByText('You are on the latest version')).toBeInTheDocument();
  });

  it('an ignored version is quiet on launch and offered again from the mine page', async () => {
    signIn();
    window.localStorage.setItem(STORAGE_KEYS.ignoreAppVersion, '1.4.0');
    const server = fakeServer({
      '/user/mine': () => alice,
      '/user/getUserAmount': () => wallet,
      '/resource/download': () => manifest('1.4.0'),
    });
    const user = userEvent.setup();
    renderApp('/pages/tabBar/mine');
    const check = await screen.findByRole('button', { name: /Check for updates/ });
    await waitFor(() => {
      expect(server.callsTo('/resource/download').length).toBeGreaterThan(0);
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(check);
    expect(await screen.findByRole('dialog', { name: 'New version 1.4.0' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download app' })).toHaveAttribute('href', '/files/1.4.0.apk');
  });

  it('a forced version shows on launch', async () => {
    fakeServer({ '/resource/download': () => manifest('1.5.0', '1.4.0') });
    renderApp('/');
    expect(await screen.findByRole('dialog', { name: 'New version 1.4.0' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Later' })).not.toBeInTheDocument();
  });

  it('signing out ends the session and goes to the login page', async () => {
    signIn();
    const server = fakeServer({ '/user/mine': () => alice, '/user/getUserAmount': () => wallet, '/logout': () => null });
    const user = userEvent.setup();
    const { router, queryClient } = renderApp('/pages/tabBar/mine');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/auth/login');
    });
    expect(server.callsTo('/logout')).toHaveLength(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    // Nothing of the account stays in memory for the next one.
    expect(queryClient.getQueryData(['account', 'user'])).toBeUndefined();
    expect(queryClient.getQueryData(['wallet', 'summary'])).toBeUndefined();
  });
});
