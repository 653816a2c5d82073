/**
 * What the account screens do with the server's business notifications (delivered on the chat
 * socket as OnRecvCustomBusinessMessage `{key, data}`; the socket module owns the socket and
 * hands each one here). Unknown keys are left to other areas.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { UserInfo } from '../../api/accounts';
import type { WalletSummary } from '../../api/wallet';
import { noticeListKey, setUnreadCount } from '../notices/noticeCache';
import { queryKeys } from './queries';

function numberField(data: unknown, key: string): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Applies one push; returns true when it was an account-side key. */
export function applyBusinessPush(client: QueryClient, key: string, data: unknown): boolean {
  switch (key) {
    case 'balance': {
      // {amount, change} in cents, after the commit: the records changed too.
      const amount = numberField(data, 'amount');
      if (amount !== null) {
        client.setQueryData<WalletSummary>(queryKeys.wallet, (old) => (old ? { ...old, amount } : old));
      }
      void client.invalidateQueries({ queryKey: queryKeys.wallet });
      void client.invalidateQueries({ queryKey: queryKeys.records });
      return true;
    }
    case 'noticeUnread': {
      // This user read notices on another device.
      const unread = numberField(data, 'unread');
      if (unread !== null) setUnreadCount(client, unread);
      void client.invalidateQueries({ queryKey: noticeListKey });
      return true;
    }
    case 'notice': {
      // An operator published a notice: one more unread, and the list has a new first row.
      client.setQueryData<UserInfo>(queryKeys.user, (old) => (old ? { ...old, notice: old.notice + 1 } : old));
      void client.invalidateQueries({ queryKey: noticeListKey });
      void client.invalidateQueries({ queryKey: queryKeys.user });
      return true;
    }
    case 'userUpdated': {
      const isActivation = numberField(data, 'isActivation');
      if (isActivation !== null) {
        client.setQueryData<UserInfo>(queryKeys.user, (old) => (old ? { ...old, isActivation } : old));
      }
      void client.invalidateQueries({ queryKey: queryKeys.user });
      return true;
    }
    default:
      return false;
  }
}
