/**
 * Notice read state in the query cache: opening a notice or "read all" shows as read at once
 * (list dots and the mine page's badge), and is rolled back if the server refuses.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { UserInfo } from '../../api/accounts';
import type { NoticePage } from '../../api/notices';
import { queryKeys } from '../account/queries';

export const noticeListKey = [...queryKeys.notices, 'list'] as const;
export const noticeDetailKey = (id: string) => [...queryKeys.notices, 'detail', id] as const;

type ListData = InfiniteData<NoticePage, number>;

export interface Snapshot {
  list: ListData | undefined;
  user: UserInfo | undefined;
}

export function snapshot(client: QueryClient): Snapshot {
  return { list: client.getQueryData<ListData>(noticeListKey), user: client.getQueryData<UserInfo>(queryKeys.user) };
}

export function restore(client: QueryClient, saved: Snapshot): void {
  client.setQueryData(noticeListKey, saved.list);
  client.setQueryData(queryKeys.user, saved.user);
}

function setUnread(client: QueryClient, unread: (old: number) => number): void {
  client.setQueryData<ListData>(noticeListKey, (old) =>
    old ? { ...old, pages: old.pages.map((p) => ({ ...p, unread: Math.max(0, unread(p.unread)) })) } : old,
  );
  client.setQueryData<UserInfo>(queryKeys.user, (old) => (old ? { ...old, notice: Math.max(0, unread(old.notice)) } : old));
}

/** Marks one notice read; the counts drop by one if it was unread in the cache. */
export function markReadLocally(client: QueryClient, id: string): void {
  const list = client.getQueryData<ListData>(noticeListKey);
  const wasUnread = list?.pages.some((p) => p.list.some((n) => n.id === id && n.read !== 1)) ?? false;
  if (!list || !wasUnread) return;
  client.setQueryData<ListData>(noticeListKey, {
    ...list,
    pages: list.pages.map((p) => ({ ...p, list: p.list.map((n) => (n.id === id ? { ...n, read: 1 } : n)) })),
  });
  setUnread(client, (n) => n - 1);
}

export function markAllReadLocally(client: QueryClient): void {
  client.setQueryData<ListData>(noticeListKey, (old) =>
    old ? { ...old, pages: old.pages.map((p) => ({ ...p, list: p.list.map((n) => ({ ...n, read: 1 })) })) } : old,
  );
  setUnread(client, () => 0);
}

/** The server's count wins once it answers. */
export function setUnreadCount(client: QueryClient, unread: number): void {
  setUnread(client, () => unread);
}
