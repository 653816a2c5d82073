import { SessionType, type ConversationItem, type MessageItem } from '../../../api/socket/types';

/** OpenIM's id of a 1:1 chat: the two user ids in string order. */
export function singleConversationID(a: string, b: string): string {
  return a < b ? `si_${a}_${b}` : `si_${b}_${a}`;
}

export function groupConversationID(groupID: string): string {
  return `sg_${groupID}`;
}

export function isGroupSession(sessionType: number): boolean {
  return sessionType === SessionType.group || sessionType === 2;
}

/** The conversation a message belongs to, seen by `me`. */
export function conversationOfMessage(message: MessageItem, me: string): string {
  if (message.groupID || isGroupSession(message.sessionType)) return groupConversationID(message.groupID);
  const peer = message.sendID === me ? message.recvID : message.sendID;
  return singleConversationID(me, peer);
}

/** What a conversation id names: a peer (1:1) or a group. */
export function parseConversationID(id: string): { groupID: string; peerOf: (me: string) => string } | null {
  if (id.startsWith('sg_') || id.startsWith('g_')) {
    const groupID = id.slice(id.indexOf('_') + 1);
    return groupID ? { groupID, peerOf: () => '' } : null;
  }
  if (id.startsWith('si_')) {
    const [a = '', b = ''] = id.slice(3).split('_');
    if (!a || !b) return null;
    return { groupID: '', peerOf: (me) => (a === me ? b : a) };
  }
  return null;
}

/** Where a message to this conversation goes. */
export interface ConversationTarget {
  conversationID: string;
  recvID: string;
  groupID: string;
}

export function targetOf(conversationID: string, me: string): ConversationTarget | null {
  const parsed = parseConversationID(conversationID);
  if (!parsed) return null;
  if (parsed.groupID) return { conversationID: groupConversationID(parsed.groupID), recvID: '', groupID: parsed.groupID };
  const peer = parsed.peerOf(me);
  return { conversationID: singleConversationID(me, peer), recvID: peer, groupID: '' };
}

/** The list order: pinned first, then the latest activity (message or draft). */
export function sortConversations(items: ConversationItem[]): ConversationItem[] {
  const activity = (c: ConversationItem): number => Math.max(c.latestMsgSendTime, c.draftTextTime);
  return [...items].sort((x, y) => {
    if (x.isPinned !== y.isPinned) return x.isPinned ? -1 : 1;
    const d = activity(y) - activity(x);
    if (d !== 0) return d;
    return x.conversationID < y.conversationID ? -1 : 1;
  });
}

/** Replaces or adds conversations by id, then re-sorts (a conversation with news moves up). */
export function mergeConversations(current: ConversationItem[] | undefined, changed: ConversationItem[]): ConversationItem[] {
  const byID = new Map((current ?? []).map((c) => [c.conversationID, c]));
  for (const c of changed) byID.set(c.conversationID, c);
  return sortConversations([...byID.values()]);
}

export function parseLatestMessage(conversation: ConversationItem): MessageItem | null {
  if (!conversation.latestMsg) return null;
  try {
    return JSON.parse(conversation.latestMsg) as MessageItem;
  } catch {
    return null;
  }
}

/** Badge text: 99+ above 99. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
