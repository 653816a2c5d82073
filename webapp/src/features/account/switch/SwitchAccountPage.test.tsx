import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberAccount } from '../cachedAccounts';
import { STORAGE_KEYS } from '../../../api/storage';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { alice, renderApp, signIn, wallet } from '../../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('switch account', () => {
  it('lists the cached accounts with the current one in use and switches with a password', async () => {
    signIn('9');
    rememberAccount({ id: '7', username: 'bob', nickName: 'Bob', avatar: '' });
    rememberAccount({ id: '9', username: 'alice', nickName: 'Alice', avatar: '' });
    let signedIn = false;
    const server = fakeServer({
      '/user/mine': () => (signedIn ? { ...alice, userId: '7', username: 'bob', nickName: 'Bob' } : alice),
      '/user/getUserAmount': () => wallet,
      '/accountLoginAtm': (body) => {
        if (body.password !== 'bob123') return new Refusal(1109, 'Invalid login credential');
        signedIn = true;
        return { token: 'T2', jwt: 'J2', chatToken: 'C2', userId: '7' };
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/my/switch-account');
    const list = await screen.findByRole('list', { name: 'Accounts on this device' });
    const current = within(list).getByRole('button', { name: /Alice/ });
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(current).toHaveTextContent('In use');

    await user.click(within(list).getByRole('button', { name: /Bob/ }));
    const dialog = () => screen.getByRole('dialog', { name: 'Sign in as bob' });
    await user.type(within(dialog()).getByLabelText('Password'), 'wrong1');
    await user.click(within(dialog()).getByRole('button', { name: 'Switch' }));
    await waitFor(() => {
      expect(within(dialog()).getByRole('alert')).toHaveTextContent('Invalid login credential');
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('T');

    await user.clear(within(dialog()).getByLabelText('Password'));
    await user.type(within(dialog()).getByLabelText('Password'), 'bob123');
    await waitFor(() => {
      expect(within(dialog()).getByRole('button', { name: 'Switch' })).toBeEnabled();
    });
    await user.click(within(dialog()).getByRole('button', { name: 'Switch' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
    const calls = server.callsTo('/accountLoginAtm');
    expect(calls[1]?.body).toMatchObject({ account: 'bob', password: 'bob123', platform: 5 });
    // The session being left goes along, so the server ends it.
    expect(calls[1]?.headers.token).toBe('T');
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('T2');
    await waitFor(() => {
      expect(screen.getByText('Account: bob')).toBeInTheDocument();
    });
  });

  it('add account opens sign-in in switch mode', async () => {
    signIn('9');
    rememberAccount({ id: '9', username: 'alice', nickName: 'Alice', avatar: '' });
    fakeServer({ '/user/mine': () => alice });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/my/switch-account');
    await user.click(await screen.findByRole('button', { name: 'Add account' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/auth/login');
    });
    expect(new URLSearchParams(router.state.location.search).get('switch')).toBe('1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Add account' })).toBeInTheDocument();
  });

  it('removes another account from this device, never the one in use', async () => {
    signIn('9');
    rememberAccount({ id: '7', username: 'bob', nickName: 'Bob', avatar: '' });
    rememberAccount({ id: '9', username: 'alice', nickName: 'Alice', avatar: '' });
    const server = fakeServer({ '/user/mine': () => alice, '/user/getUserAmount': () => wallet });
    const user = userEvent.setup();
    renderApp('/pages/my/switch-account');
    const list = await screen.findByRole('list', { name: 'Accounts on this device' });
    expect(within(list).queryByRole('button', { name: 'Remove alice from this device' })).toBeNull();
    await user.click(within(list).getByRole('button', { name: 'Remove bob from this device' }));
    await waitFor(() => {
      expect(within(list).queryByRole('button', { name: /Bob/ })).toBeNull();
    });
    expect(within(list).getByRole('button', { name: /Alice/ })).toHaveAttribute('aria-current', 'true');
    expect(await screen.findByText('Removed from this device')).toBeInTheDocument();
    const saved = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.cacheAccount) ?? '[]') as { id: string }[];
    expect(saved.map((a) => a.id)).toEqual(['9']);
    // Only the device's list changes: the server is not asked anything.
    expect(server.callsTo('/accountLoginAtm')).toHaveLength(0);
  });
});
