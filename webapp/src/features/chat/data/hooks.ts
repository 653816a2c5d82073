/** Server state of the chat screens, through TanStack Query over the chat socket. */
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { chat, getUserGroups } from '../../../api/chat';
import { GroupRole, HandleResult, type FullUserItem, type GroupMemberItem } from '../../../api/socket/types';
import { useSession } from '../../../state/session';
import { chatKeys } from './keys';
import { loadLatest } from './messages';
import { chatQueries, LIVE, retryAfterDrop } from './queries';

/** The signed-in user id, or '' for a guest. */
export function useMe(): string {
  const { token, userId } = useSession();
  return token && userId ? userId : '';
}

/** A query of the signed-in user's own lists: a guest has none, and asks for none. */
function useSignedInQuery<T, E, K extends QueryKey>(options: UseQueryOptions<T, E, T, K>) {
  const me = useMe();
  return useQuery({ ...options, enabled: Boolean(me) });
}

export const useSelf = () => useSignedInQuery(chatQueries.self);
export const useConversations = () => useSignedInQuery(chatQueries.conversations);
export const useFriends = () => useSignedInQuery(chatQueries.friends);
export const useBlacklist = () => useSignedInQuery(chatQueries.blacklist);
export const useFriendRequestsToMe = () => useSignedInQuery(chatQueries.friendRequestsToMe);
export const useFriendRequestsByMe = () => useSignedInQuery(chatQueries.friendRequestsByMe);
export const useGroupRequests = () => useSignedInQuery(chatQueries.groupRequests);

export function useUnreadTotal(): number {
  const me = useMe();
  const { data } = useSignedInQuery(chatQueries.unread);
  return me ? Math.max(0, data ?? 0) : 0;
}

/** Friend applications waiting for my answer (the badge of 'new friends'). */
export function usePendingFriendRequests(): number {
  const { data } = useFriendRequestsToMe();
  return (data ?? []).filter((r) => r.handleResult === HandleResult.pending).length;
}

export function usePendingGroupRequests(): number {
  const { data } = useGroupRequests();
  return (data ?? []).filter((r) => r.handleResult === HandleResult.pending).length;
}

/** My groups (2) or channels (3), through the HTTP route the spec names (/user/getUserGroups). */
export function useJoinedGroups(groupType = 0) {
  const me = useMe();
  return useQuery({
    queryKey: [...chatKeys.groups, groupType],
    queryFn: () => (groupType === 0 ? chat.getJoinedGroupList() : getUserGroups(groupType)),
    enabled: Boolean(me),
    ...LIVE,
  });
}

export function useGroup(groupID: string) {
  const me = useMe();
  return useQuery({
    queryKey: chatKeys.group(groupID),
    queryFn: async () => (await chat.getSpecifiedGroupsInfo([groupID]))[0] ?? null,
    enabled: Boolean(me && groupID),
    ...LIVE,
  });
}

const ROLE_ORDER = (m: GroupMemberItem): number => -m.roleLevel;

/** Members, owner first, then admins, then by join time (the spec's fetch: offset 0, count 2000). */
export function useGroupMembers(groupID: string, enabled = true) {
  const me = useMe();
  return useQuery({
    queryKey: chatKeys.members(groupID),
    queryFn: async () =>
      (await chat.getGroupMemberList(groupID, 0, 2000)).sort(
        (a, b) => ROLE_ORDER(a) - ROLE_ORDER(b) || a.joinTime - b.joinTime,
      ),
    enabled: Boolean(me && groupID && enabled),
    ...LIVE,
  });
}

export function isAdmin(member: GroupMemberItem | undefined): boolean {
  return (member?.roleLevel ?? 0) >= GroupRole.admin;
}

export function useUserInfo(userID: string) {
  const me = useMe();
  return useQuery({
    queryKey: chatKeys.users([userID]),
    queryFn: async (): Promise<FullUserItem | null> => (await chat.getUsersInfo([userID]))[0] ?? null,
    enabled: Boolean(me && userID),
    staleTime: 30_000,
    retry: retryAfterDrop,
  });
}

export function useMessages(conversationID: string) {
  const me = useMe();
  return useQuery({
    queryKey: chatKeys.messages(conversationID),
    queryFn: () => loadLatest(conversationID),
    enabled: Boolean(me && conversationID),
    ...LIVE,
  });
}
