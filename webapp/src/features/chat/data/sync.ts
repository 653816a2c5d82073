/**
 * Keeps the chat caches of TanStack Query in step with the socket ("Incoming
 * messages"): pushes update or invalidate the queries the screens read, and after every
 * (re)connect the lists are refreshed and each conversation held in memory catches up by
 * seq from the last message it has.
 */
import type { QueryClient } from '@tanstack/react-query';
import { chatSocket } from '../../../api/chat';
import type { ChatSocket } from '../../../api/socket/socket';
import { ContentType, type ConversationItem, type GroupItem, type GroupMemberItem, type MessageItem } from '../../../api/socket/types';
import { conversationOfMessage, mergeConversations, singleConversationID } from './ids';
import { chatKeys } from './keys';
import {
  addMessages,
  applyGroupReceipt,
  applyReadReceipt,
  applyRevoke,
  catchUp,
  type MessageWindow,
} from './messages';
import { prefetchChat } from './queries';
import { clearTyping, markTyping } from './typing';

function isGroupNotice(contentType: number): boolean {
  return contentType >= ContentType.groupCreated && contentType <= ContentType.groupNameSet;
}

/** Conversations held in memory (opened since the app started, not yet collected). */
export function cachedConversationIDs(client: QueryClient): string[] {
  return client
    .getQueryCache()
    .findAll({ queryKey: chatKeys.messagesPrefix })
    .filter((q) => q.state.data !== undefined)
    .map((q) => String(q.queryKey[2]));
}

/** Refreshes every list and catches every held conversation up by seq. */
export async function resync(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: chatKeys.conversations }),
    client.invalidateQueries({ queryKey: chatKeys.unread }),
    client.invalidateQueries({ queryKey: chatKeys.friends }),
    client.invalidateQueries({ queryKey: chatKeys.blacklist }),
    client.invalidateQueries({ queryKey: chatKeys.friendRequests }),
    client.invalidateQueries({ queryKey: chatKeys.groups }),
    client.invalidateQueries({ queryKey: ['chat', 'group'] }),
    client.invalidateQueries({ queryKey: ['chat', 'members'] }),
    client.invalidateQueries({ queryKey: chatKeys.groupRequests }),
    client.invalidateQueries({ queryKey: chatKeys.self }),
    // A conversation whose first page failed with the drop loads again.
    client.invalidateQueries({ queryKey: chatKeys.messagesPrefix, predicate: (q) => q.state.data === undefined }),
    ...cachedConversationIDs(client).map((id) =>
      catchUp(client, id).catch(() => {
        // The next reconnect tries again; the window keeps what it has.
      }),
    ),
  ]);
}

function onMessage(client: QueryClient, socket: ChatSocket, message: MessageItem): void {
  const me = socket.userID;
  const conversationID = conversationOfMessage(message, me);
  if (message.contentType === ContentType.typing) {
    if (message.sendID !== me) markTyping(conversationID);
    return;
  }
  if (message.sendID !== me) clearTyping(conversationID);
  addMessages(client, conversationID, [message]);
  if (isGroupNotice(message.contentType) && message.groupID) {
    void client.invalidateQueries({ queryKey: chatKeys.group(message.groupID) });
    void client.invalidateQueries({ queryKey: chatKeys.members(message.groupID) });
    void client.invalidateQueries({ queryKey: chatKeys.groups });
  }
  if (message.contentType === ContentType.friendAdded) {
    void client.invalidateQueries({ queryKey: chatKeys.friends });
  }
}

function onConversations(client: QueryClient, changed: ConversationItem[] | null): void {
  if (!changed || changed.length === 0) return;
  client.setQueryData<ConversationItem[]>(chatKeys.conversations, (current) =>
    current ? mergeConversations(current, changed) : current,
  );
  if (!client.getQueryData(chatKeys.conversations)) {
    void client.invalidateQueries({ queryKey: chatKeys.conversations });
  }
}

function onGroup(client: QueryClient, group: GroupItem): void {
  client.setQueryData(chatKeys.group(group.groupID), group);
  void client.invalidateQueries({ queryKey: chatKeys.groups });
}

/** Subscribes the caches to the socket's pushes; returns the unsubscribe function. */
export function bindChatPushes(client: QueryClient, socket: ChatSocket = chatSocket): () => void {
  const invalidate = (key: readonly unknown[]) => () => {
    void client.invalidateQueries({ queryKey: key });
  };
  const offs = [
    socket.on('OnRecvNewMessage', (message) => {
      onMessage(client, socket, message);
    }),
    socket.on('OnNewRecvMessageRevoked', (info) => {
      applyRevoke(client, info);
    }),
    socket.on('OnRecvC2CReadReceipt', (list) => {
      for (const receipt of list) {
        applyReadReceipt(client, singleConversationID(socket.userID, receipt.userID), receipt.msgIDList ?? []);
      }
    }),
    socket.on('OnRecvGroupReadReceipt', (receipt) => {
      applyGroupReceipt(client, receipt);
    }),
    socket.on('OnConversationChanged', (list) => {
      onConversations(client, list);
    }),
    socket.on('OnNewConversation', (list) => {
      onConversations(client, list);
    }),
    socket.on('OnTotalUnreadMessageCountChanged', (total) => {
      client.setQueryData(chatKeys.unread, Math.max(0, total));
    }),
    socket.on('OnSelfInfoUpdated', (self) => {
      client.setQueryData(chatKeys.self, self);
    }),
    socket.on('OnFriendApplicationAdded', invalidate(chatKeys.friendRequests)),
    socket.on('OnFriendApplicationAccepted', () => {
      void client.invalidateQueries({ queryKey: chatKeys.friendRequests });
      void client.invalidateQueries({ queryKey: chatKeys.friends });
    }),
    socket.on('OnFriendApplicationRejected', invalidate(chatKeys.friendRequests)),
    socket.on('OnFriendAdded', invalidate(chatKeys.friends)),
    socket.on('OnFriendDeleted', invalidate(chatKeys.friends)),
    socket.on('OnFriendInfoChanged', invalidate(chatKeys.friends)),
    socket.on('OnBlackAdded', invalidate(chatKeys.blacklist)),
    socket.on('OnBlackDeleted', invalidate(chatKeys.blacklist)),
    socket.on('OnJoinedGroupAdded', (group) => {
      onGroup(client, group);
    }),
    socket.on('OnJoinedGroupDeleted', (group) => {
      onGroup(client, group);
      void client.invalidateQueries({ queryKey: chatKeys.members(group.groupID) });
    }),
    socket.on('OnGroupDismissed', (group) => {
      onGroup(client, group);
    }),
    socket.on('OnGroupInfoChanged', (group) => {
      onGroup(client, group);
    }),
    socket.on('OnGroupMemberAdded', (member) => {
      void client.invalidateQueries({ queryKey: chatKeys.members(member.groupID) });
    }),
    socket.on('OnGroupMemberDeleted', (member) => {
      void client.invalidateQueries({ queryKey: chatKeys.members(member.groupID) });
    }),
    socket.on('OnGroupMemberInfoChanged', (member) => {
      // The push carries the member as it is now (a mute's end time, a role): shown at once,
      // so a muted member's box closes (and opens) without waiting for the re-read.
      client.setQueryData<GroupMemberItem[]>(chatKeys.members(member.groupID), (list) =>
        list?.map((m) => (m.userID === member.userID ? { ...m, ...member } : m)),
      );
      void client.invalidateQueries({ queryKey: chatKeys.members(member.groupID) });
    }),
    socket.on('OnGroupApplicationAdded', invalidate(chatKeys.groupRequests)),
    socket.on('OnGroupApplicationAccepted', invalidate(chatKeys.groupRequests)),
    socket.on('OnGroupApplicationRejected', invalidate(chatKeys.groupRequests)),
    socket.onConnected((reconnect) => {
      if (reconnect) void resync(client);
      else void prefetchChat(client);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

export type { MessageWindow };
