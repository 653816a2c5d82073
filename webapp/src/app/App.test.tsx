import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../api/storage';
import { createI18n } from '../i18n';
import { fakeServer, Refusal } from '../test/fakeServer';
import { submitSignIn } from '../test/renderApp';
import { AppProviders } from './AppProviders';
import { routes } from './routes';

function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const store = createStore();
  render(
    <AppProviders i18n={createI18n('en-US')} store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router };
}

async function tabBar() {
  return screen.findByRole('navigation', { name: 'Main navigation' });
}

/** The tab pages load content as soon as they show: answer it (empty) instead of the network. */
function contentServer(url: string): Response {
  const path = new URL(url, 'http://localhost').pathname;
  const empty = { list: [], total: 0, page: 1, pageSize: 10, pages: 1 };
  const answers: Record<string, unknown> = {
    '/api/indexCarousel': [],
    '/api/getCityList': [],
    '/api/getPassionateVideo': empty,
    '/api/activation/getRuleList': { rules: [], contents: [], fairness: '' },
  };
  return new Response(JSON.stringify({ code: 0, message: '', data: answers[path] ?? null }));
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => Promise.resolve(contentServer(url))),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('tab bar', () => {
  it('renders the three tabs with chat selected on /', async () => {
    renderApp('/');
    const nav = await tabBar();
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('aria-label'))).toEqual(['Chat', 'Discover', 'Me']);
    expect(within(nav).getByRole('link', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Chat' })).toBeInTheDocument();
    expect(screen.getByText('Sign in to chat')).toBeInTheDocument();
  });

  it('switching tabs changes the route', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/');
    const nav = await tabBar();

    await user.click(within(nav).getByRole('link', { name: 'Me' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Me' })).toBeInTheDocument();
    expect(within(await tabBar()).getByRole('link', { name: 'Me' })).toHaveAttribute('aria-current', 'page');

    await user.click(within(await tabBar()).getByRole('link', { name: 'Discover' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/find');
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Discover' })).toBeInTheDocument();
  });

  it('treats /pages/tabBar/chat as the chat tab', async () => {
    renderApp('/pages/tabBar/chat');
    const nav = await tabBar();
    expect(within(nav).getByRole('link', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens the same-city and love pages without login', async () => {
    renderApp('/pages/tabBar/city');
    expect(await screen.findByRole('heading', { level: 1, name: 'Same city' })).toBeInTheDocument();
  });
});

describe('routing and guard', () => {
  it('redirects an unknown path to /', async () => {
    const { router } = renderApp('/no/such/page');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(await tabBar()).toBeInTheDocument();
  });

  it('sends a guest from a protected page to login with a redirect back', async () => {
    const { router } = renderApp('/pages/my/edit-nick-name?x=1');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/auth/login');
    });
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/pages/my/edit-nick-name?x=1')}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('lets a guest choose a language (issue 35 #8)', async () => {
    const { router } = renderApp('/pages/my/language-setting');
    expect(await screen.findByRole('heading', { level: 1, name: 'Language' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pages/my/language-setting');
  });

  it('gives a guest a language switch on sign-in and registration (issue 35 #8)', async () => {
    const user = userEvent.setup();
    renderApp('/pages/auth/login?mode=register');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), '简体中文');
    expect(await screen.findByRole('heading', { level: 1, name: '注册' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.language)).toBe('zh-CN');
  });

  it('gives a guest a language switch on the mine tab (issue 35 #8)', async () => {
    const user = userEvent.setup();
    renderApp('/pages/tabBar/mine');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'Tiếng Việt');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tôi' })).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.language)).toBe('vi-VN');
  });

  it('lets a signed-in user open a protected page', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'T');
    const { router } = renderApp('/pages/my/language-setting');
    expect(await screen.findByRole('heading', { level: 1, name: 'Language' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pages/my/language-setting');
  });

  it('keeps open areas open for guests', async () => {
    const { router } = renderApp('/pages/auth/login');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pages/auth/login');
  });
});

describe('login page', () => {
  const alice = {
    userId: '9',
    username: 'alice',
    nickName: 'Alice',
    avatar: '',
    phone: '',
    notice: 2,
    isActivation: 1,
    customerId: '',
    isRecharge: false,
    inviteCode: 'pro_alice123',
    hasFundPassword: false,
    isOperator: 0,
  };

  it('validates, signs in through the API module and returns to the redirect', async () => {
    const server = fakeServer({
      '/accountLogin': () => ({ token: 'T', jwt: 'J', chatToken: 'C', userId: 9 }),
      '/user/mine': () => alice,
      '/user/getUserAmount': () => ({ amount: 123456, frozenAmount: 0, hasFundPassword: false, bankCardCount: 0, exchangeMin: 1000, exchangeMax: 100000 }),
    });
    const user = userEvent.setup();
    const { router } = renderApp(`/pages/auth/login?redirect=${encodeURIComponent('/pages/tabBar/mine')}`);

    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your account');
    expect(server.callsTo('/accountLogin')).toHaveLength(0);

    await user.type(screen.getByLabelText('Account'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret12');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
    expect(server.callsTo('/accountLogin')[0]?.body).toMatchObject({ account: 'alice', password: 'secret12', platform: 5 });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('T');
    expect(await screen.findByText('Account: alice')).toBeInTheDocument();
    expect(screen.getByText('Activated')).toBeInTheDocument();
    expect(await screen.findByText('1,234.56')).toBeInTheDocument();
    expect(screen.getByLabelText('2 unread notices')).toHaveTextContent('2');
    // The profile is remembered for the switch-account screen (no secrets in it).
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.cacheAccount) ?? '[]')).toEqual([
      { id: '9', username: 'alice', nickName: 'Alice', avatar: '' },
    ]);
  });

  it("shows the server's message when sign-in is refused", async () => {
    fakeServer({ '/accountLogin': () => new Refusal(1109, 'Invalid login credential') });
    await submitSignIn('alice', 'wrong1');
    expect(await screen.findByText('Invalid login credential')).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});
