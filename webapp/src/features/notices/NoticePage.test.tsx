import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../account/queries';
import type { UserInfo } from '../../api/accounts';
import { fakeServer, Refusal } from '../../test/fakeServer';
import { alice, renderApp, signIn } from '../../test/renderApp';

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(80);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const notice = (id: string, read: number) => ({ id, title: `Notice ${id}`, content: `Body of ${id}`, createdAt: Date.now(), read });

function noticeServer(extra: Record<string, () => unknown> = {}) {
  let unread = 2;
  const read = new Set<string>();
  return fakeServer({
    '/user/mine': () => ({ ...alice, notice: unread }),
    '/user/noticeList': () => ({
      list: [notice('1', read.has('1') ? 1 : 0), notice('2', read.has('2') ? 1 : 0), notice('3', 1)],
      total: 3,
      page: 1,
      pageSize: 20,
      pages: 1,
      unread,
    }),
    '/user/readOne': (body) => {
      const id = String(body.id);
      if (!read.has(id)) unread -= 1;
      read.add(id);
      return { notice: notice(id, 1), unread };
    },
    ...extra,
  });
}

describe('notices', () => {
  it('opening a notice shows it and marks it read at once, list and badge', async () => {
    signIn();
    const server = noticeServer();
    const user = userEvent.setup();
    const { queryClient, router } = renderApp('/pages/my/notice');
    const first = await screen.findByRole('link', { name: /Notice 1/ });
    expect(first).toHaveAttribute('data-unread', 'true');
    expect(screen.getByRole('link', { name: /Notice 3/ })).not.toHaveAttribute('data-unread');
    await user.click(first);
    expect(router.state.location.search).toBe('?id=1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Notice 1' })).toBeInTheDocument();
    expect(screen.getByText('Body of 1')).toBeInTheDocument();
    await waitFor(() => {
      expect(server.callsTo('/user/readOne')[0]?.body).toEqual({ id: '1' });
    });
    await waitFor(() => {
      expect(queryClient.getQueryData<UserInfo>(queryKeys.user)?.notice).toBe(1);
    });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('link', { name: /Notice 1/ })).not.toHaveAttribute('data-unread');
  });

  it('read all marks everything read at once and rolls back when the server refuses', async () => {
    signIn();
    noticeServer({ '/user/readAll': () => new Refusal(1000, 'System busy') });
    const user = userEvent.setup();
    renderApp('/pages/my/notice');
    await screen.findByRole('link', { name: /Notice 1/ });
    await user.click(screen.getByRole('button', { name: 'Read all' }));
    expect(await screen.findByText('System busy')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.getByRole('link', { name: /Notice 1/ })).toHaveAttribute('data-unread', 'true');
    });
    expect(screen.getByRole('link', { name: /Notice 2/ })).toHaveAttribute('data-unread', 'true');
  });

  it('read all clears the dots and disables itself', async () => {
    signIn();
    const server = noticeServer({ '/user/readAll': () => ({ marked: 2, unread: 0 }) });
    const user = userEvent.setup();
    renderApp('/pages/my/notice');
    await screen.findByRole('link', { name: /Notice 1/ });
    await user.click(screen.getByRole('button', { name: 'Read all' }));
    await waitFor(() => {
      expect(document.querySelectorAll('[data-unread]')).toHaveLength(0);
    });
    expect(server.callsTo('/user/readAll')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Read all' })).toBeDisabled();
  });
});
