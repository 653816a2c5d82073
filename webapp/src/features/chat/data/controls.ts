/**
 * Conversation controls shared by the list's menu and a chat's settings: pin to top, do not
 * disturb, clear history. Each shows at once in the caches and is re-read from the server
 * when refused (the caller shows the error); the server tells the user's other devices.
 */
import type { QueryClient } from '@tanstack/react-query';
import { chat } from '../../../api/chat';
import { RecvMsgOpt, type ConversationItem } from '../../../api/socket/types';
import { badgeUnread } from './badge';
import { sortConversations } from './ids';
import { chatKeys } from './keys';

/** Changes one conversation in the list (null removes it) and re-sorts. */
export function patchConversation(client: QueryClient, id: string, change: (c: ConversationItem) => ConversationItem | null): void {
  client.setQueryData<ConversationItem[]>(chatKeys.conversations, (current) =>
    current
      ? sortConversations(
          current.flatMap((c) => {
            if (c.conversationID !== id) return [c];
            const next = change(c);
            return next ? [next] : [];
          }),
        )
      : current,
  );
}

function current(client: QueryClient, id: string): ConversationItem | undefined {
  return client.getQueryData<ConversationItem[]>(chatKeys.conversations)?.find((c) => c.conversationID === id);
}

/** Moves the badge total by what one conversation's change did to its share of it. */
function shiftTotal(client: QueryClient, before: ConversationItem | undefined, after: ConversationItem | undefined): void {
  const delta = (after ? badgeUnread(after) : 0) - (before ? badgeUnread(before) : 0);
  if (delta !== 0) client.setQueryData<number>(chatKeys.unread, (n) => Math.max(0, (n ?? 0) + delta));
}

async function run(client: QueryClient, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (e) {
    void client.invalidateQueries({ queryKey: chatKeys.conversations });
    void client.invalidateQueries({ queryKey: chatKeys.unread });
    throw e;
  }
}

export function setPinned(client: QueryClient, id: string, isPinned: boolean): Promise<void> {
  patchConversation(client, id, (c) => ({ ...c, isPinned }));
  return run(client, () => chat.pinConversation(id, isPinned));
}

/** Do not disturb: the conversation keeps its unread count but leaves the badge and notifications. */
export function setMuted(client: QueryClient, id: string, muted: boolean): Promise<void> {
  const before = current(client, id);
  const recvMsgOpt = muted ? RecvMsgOpt.quiet : RecvMsgOpt.normal;
  patchConversation(client, id, (c) => ({ ...c, recvMsgOpt }));
  shiftTotal(client, before, before && { ...before, recvMsgOpt });
  return run(client, () => chat.setConversationRecvMessageOpt(id, recvMsgOpt));
}

/** Marks a conversation read in the caches (the server call is the caller's). */
export function markReadLocally(client: QueryClient, id: string): void {
  const before = current(client, id);
  // Read: an @mention of me is read too ("[@you]" goes).
  patchConversation(client, id, (c) => ({ ...c, unreadCount: 0, groupAtType: 0 }));
  shiftTotal(client, before, before && { ...before, unreadCount: 0 });
}

/** Clears the history for me: the chat stays in the list, empty and read. */
export function clearHistory(client: QueryClient, id: string): Promise<void> {
  const before = current(client, id);
  patchConversation(client, id, (c) => ({ ...c, unreadCount: 0, latestMsg: '' }));
  shiftTotal(client, before, before && { ...before, unreadCount: 0 });
  client.removeQueries({ queryKey: chatKeys.messages(id) });
  return run(client, () => chat.clearConversationAndDeleteAllMsg(id));
}

/** Deletes the conversation from my list with its history. */
export function deleteConversation(client: QueryClient, id: string): Promise<void> {
  const before = current(client, id);
  patchConversation(client, id, () => null);
  shiftTotal(client, before, undefined);
  client.removeQueries({ queryKey: chatKeys.messages(id) });
  return run(client, () => chat.deleteConversationAndDeleteAllMsg(id));
}
