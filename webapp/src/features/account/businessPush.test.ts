import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../api/accounts';
import type { WalletSummary } from '../../api/wallet';
import { noticeListKey } from '../notices/noticeCache';
import { alice, wallet } from '../../test/renderApp';
import { applyBusinessPush } from './businessPush';
import { queryKeys } from './queries';

function client() {
  const c = new QueryClient();
  c.setQueryData<UserInfo>(queryKeys.user, { ...alice, notice: 2 });
  c.setQueryData<WalletSummary>(queryKeys.wallet, { ...wallet, amount: 100 });
  return c;
}

describe('applyBusinessPush', () => {
  it('balance sets the amount and marks wallet and records stale', () => {
    const c = client();
    c.setQueryData([...queryKeys.records, 'points', 'all', 0], { pages: [] });
    expect(applyBusinessPush(c, 'balance', { amount: 5000, change: 4900 })).toBe(true);
    expect(c.getQueryData<WalletSummary>(queryKeys.wallet)?.amount).toBe(5000);
    expect(c.getQueryState([...queryKeys.records, 'points', 'all', 0])?.isInvalidated).toBe(true);
  });

  it('noticeUnread sets the badge; notice adds one', () => {
    const c = client();
    c.setQueryData(noticeListKey, { pages: [{ list: [], total: 0, page: 1, pageSize: 20, pages: 1, unread: 2 }], pageParams: [1] });
    applyBusinessPush(c, 'noticeUnread', { unread: 0 });
    expect(c.getQueryData<UserInfo>(queryKeys.user)?.notice).toBe(0);
    applyBusinessPush(c, 'notice', { id: '5', title: 'New', createdAt: 1 });
    expect(c.getQueryData<UserInfo>(queryKeys.user)?.notice).toBe(1);
    expect(c.getQueryState(noticeListKey)?.isInvalidated).toBe(true);
  });

  it('userUpdated changes the account status', () => {
    const c = client();
    applyBusinessPush(c, 'userUpdated', { isActivation: 1 });
    expect(c.getQueryData<UserInfo>(queryKeys.user)?.isActivation).toBe(1);
  });

  it('ignores malformed data and other keys', () => {
    const c = client();
    applyBusinessPush(c, 'balance', { amount: 'lots' });
    expect(c.getQueryData<WalletSummary>(queryKeys.wallet)?.amount).toBe(100);
    expect(applyBusinessPush(c, 'phase', {})).toBe(false);
  });
});
