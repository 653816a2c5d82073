/**
 * The chat's account-wide queries (key, function, freshness) in one place: the hooks read
 * them, and a new connection loads them all at once (on connecting, self info,
 * conversations, unread total, friends, blacklist, groups and applications load in parallel).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { chat } from '../../../api/chat';
import { ChatRequestError, SocketErrorCode } from '../../../api/socket/protocol';
import { chatKeys } from './keys';

/**
 * A read cut off by a dropped socket (111) is asked again: the socket queues it until it is
 * back, so a screen that was loading when the connection fell does not end in an error.
 */
export function retryAfterDrop(failureCount: number, error: unknown): boolean {
  return error instanceof ChatRequestError && error.code === SocketErrorCode.closed && failureCount < 3;
}

/** Pushes keep these fresh; a reconnect invalidates them (data/sync.ts). */
export const LIVE = { staleTime: Infinity, gcTime: 10 * 60_000, retry: retryAfterDrop } as const;

export const chatQueries = {
  self: queryOptions({ queryKey: chatKeys.self, queryFn: chat.getSelfUserInfo, ...LIVE }),
  conversations: queryOptions({ queryKey: chatKeys.conversations, queryFn: chat.getAllConversationList, ...LIVE }),
  unread: queryOptions({ queryKey: chatKeys.unread, queryFn: chat.getTotalUnreadMsgCount, ...LIVE }),
  friends: queryOptions({ queryKey: chatKeys.friends, queryFn: chat.getFriendList, ...LIVE }),
  blacklist: queryOptions({ queryKey: chatKeys.blacklist, queryFn: chat.getBlackList, ...LIVE }),
  friendRequestsToMe: queryOptions({
    queryKey: chatKeys.friendRequestsToMe,
    queryFn: chat.getFriendApplicationListAsRecipient,
    ...LIVE,
  }),
  friendRequestsByMe: queryOptions({
    queryKey: chatKeys.friendRequestsByMe,
    queryFn: chat.getFriendApplicationListAsApplicant,
    ...LIVE,
  }),
  groupRequests: queryOptions({
    queryKey: chatKeys.groupRequests,
    queryFn: chat.getGroupApplicationListAsRecipient,
    ...LIVE,
  }),
  joinedGroups: queryOptions({ queryKey: [...chatKeys.groups, 0], queryFn: chat.getJoinedGroupList, ...LIVE }),
};

/**
 * Loads every account-wide list in parallel (what is cached and fresh is kept). A failure
 * leaves that list to its screen, which shows the error and retries.
 */
export function prefetchChat(client: QueryClient): Promise<unknown> {
  const { self, conversations, unread, friends, blacklist, friendRequestsToMe, friendRequestsByMe, groupRequests, joinedGroups } =
    chatQueries;
  const noop = (): undefined => undefined;
  return Promise.all([
    client.query(self).catch(noop),
    client.query(conversations).catch(noop),
    client.query(unread).catch(noop),
    client.query(friends).catch(noop),
    client.query(blacklist).catch(noop),
    client.query(friendRequestsToMe).catch(noop),
    client.query(friendRequestsByMe).catch(noop),
    client.query(groupRequests).catch(noop),
    client.query(joinedGroups).catch(noop),
  ]);
}
