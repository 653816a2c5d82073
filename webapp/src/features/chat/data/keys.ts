/** TanStack Query keys of the chat area; pushes update or invalidate them (data/sync.ts). */
export const chatKeys = {
  all: ['chat'] as const,
  self: ['chat', 'self'] as const,
  conversations: ['chat', 'conversations'] as const,
  unread: ['chat', 'unread'] as const,
  friends: ['chat', 'friends'] as const,
  blacklist: ['chat', 'blacklist'] as const,
  friendRequestsToMe: ['chat', 'friend-requests', 'to-me'] as const,
  friendRequestsByMe: ['chat', 'friend-requests', 'by-me'] as const,
  friendRequests: ['chat', 'friend-requests'] as const,
  groups: ['chat', 'groups'] as const,
  group: (groupID: string) => ['chat', 'group', groupID] as const,
  members: (groupID: string) => ['chat', 'members', groupID] as const,
  groupRequests: ['chat', 'group-requests'] as const,
  users: (userIDs: readonly string[]) => ['chat', 'users', ...userIDs] as const,
  messages: (conversationID: string) => ['chat', 'messages', conversationID] as const,
  messagesPrefix: ['chat', 'messages'] as const,
};
