import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/AppProviders';
import { routes } from '../../app/routes';
import { createI18n } from '../../i18n';
import { appStore } from '../../state/store';

/** The app with `entries` in its history, on the last one. */
function renderAt(...entries: string[]) {
  const router = createMemoryRouter(routes, { initialEntries: entries, initialIndex: entries.length - 1 });
  // useBack reads the browser's history index; a memory router keeps its own, so say it here.
  window.history.replaceState({ idx: entries.length - 1 }, '');
  render(
    <AppProviders i18n={createI18n('en-US')} store={appStore} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

function modal(query: Record<string, string>, path = '/pages/modal/modal'): string {
  return `${path}?${new URLSearchParams(query).toString()}`;
}

beforeEach(() => {
  // The pages behind the dialogs (the guest's chat tab) ask for nothing that matters here.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(JSON.stringify({ code: 0, message: '', data: null })))),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '');
});

describe('/pages/modal/modal', () => {
  it('shows the query as text, with the given buttons; cancel goes back', async () => {
    const user = userEvent.setup();
    const router = renderAt('/pages/tabBar/mine', modal({ title: 'Heads up', content: '<b>bold</b>\nsecond line', confirmText: 'Go', cancelText: 'Stay' }));
    const dialog = await screen.findByRole('dialog', { name: 'Heads up' });
    expect(dialog).toHaveTextContent('<b>bold</b>');
    expect(dialog.querySelector('b')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Go' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
  });

  it('uses the default texts, and confirm opens an app page in place of the dialog', async () => {
    const user = userEvent.setup();
    const router = renderAt('/pages/tabBar/mine', modal({ content: 'Open chat?', url: '/pages/tabBar/chat?from=modal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notice' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/chat');
    });
    expect(router.state.location.search).toBe('?from=modal');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('refuses a javascript: url: confirm only goes back, home when there is no history', async () => {
    const user = userEvent.setup();
    const router = renderAt(modal({ content: 'x', url: 'javascript:alert(1)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });

  it('Escape cancels', async () => {
    const user = userEvent.setup();
    const router = renderAt('/pages/tabBar/mine', modal({ content: 'Sure?' }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
  });

  it('without showCancel has no cancel, and Escape does nothing', async () => {
    const user = userEvent.setup();
    const router = renderAt('/pages/tabBar/mine', modal({ content: 'Read me', showCancel: 'false' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['OK']);
    await user.keyboard('{Escape}');
    expect(router.state.location.pathname).toBe('/pages/modal/modal');
  });
});

describe('/pages/modal/modal_n', () => {
  it('has only the acknowledge button and is not closable otherwise', async () => {
    const user = userEvent.setup();
    const router = renderAt('/pages/tabBar/mine', modal({ title: 'Maintenance', content: 'Tonight 2:00', showCancel: 'true', cancelText: 'No' }, '/pages/modal/modal_n'));
    const dialog = await screen.findByRole('dialog', { name: 'Maintenance' });
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['Got it']);
    await user.keyboard('{Escape}');
    const backdrop = dialog.parentElement;
    if (backdrop) await user.click(backdrop);
    expect(router.state.location.pathname).toBe('/pages/modal/modal_n');
    expect(screen.getByRole('dialog', { name: 'Maintenance' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Got it' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/tabBar/mine');
    });
  });
});
