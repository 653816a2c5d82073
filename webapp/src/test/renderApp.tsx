import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient, AppProviders } from '../app/AppProviders';
import { routes } from '../app/routes';
import { createI18n } from '../i18n';
import type { ProductLanguage } from '../i18n';
import { updatePromptAtom } from '../state/appUpdate';
import { appStore } from '../state/store';
import { toastAtom } from '../state/toast';

/** The whole app (routes, guard, providers) at `path`, in English unless told otherwise. */
export function renderApp(path: string, { language }: { language?: ProductLanguage } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // Screens toast through the app's own store (state/toast.ts), so the test renders with it,
  // cleared of what an earlier test left.
  const store = appStore;
  store.set(toastAtom, null);
  store.set(updatePromptAtom, null);
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders i18n={createI18n(language ?? 'en-US')} store={store} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, store, queryClient, ...view };
}

/** The sign-in page, its form filled in with `account` and `password` and sent. */
export async function submitSignIn(account: string, password: string) {
  const user = userEvent.setup();
  const rendered = renderApp('/pages/auth/login');
  await user.type(await screen.findByLabelText('Account'), account);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return rendered;
}

/**
 * One screen alone at its route `path`, opened at `entry` (the path itself unless told), in
 * English, with a fresh store and a query client that does not retry, so a refusal shows at once.
 */
export function renderScreen(path: string, Component: ComponentType, entry = path) {
  const router = createMemoryRouter([{ path, Component }], { initialEntries: [entry] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <AppProviders i18n={createI18n('en-US')} store={createStore()} queryClient={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}

/** A signed-in session in local storage. */
export function signIn(userId = '9'): void {
  window.localStorage.setItem('access_token', 'T');
  window.localStorage.setItem('access_jwt', 'J');
  window.localStorage.setItem('userId', userId);
}

export const alice = {
  userId: '9',
  username: 'alice',
  nickName: 'Alice',
  avatar: '',
  phone: '',
  notice: 0,
  isActivation: 0,
  customerId: '',
  isRecharge: false,
  inviteCode: 'pro_alice123',
  hasFundPassword: true,
  isOperator: 0,
};

export const wallet = {
  userId: '9',
  amount: 0,
  frozenAmount: 0,
  hasFundPassword: true,
  bankCardCount: 1,
  isRecharge: false,
  exchangeMin: 1000,
  exchangeMax: 10000000,
};
