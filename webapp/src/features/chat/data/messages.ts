/**
 * The messages of a conversation as the screens see them: a window of the newest history,
 * extended upwards page by page, with live messages, optimistic sends and revokes merged in.
 * It lives in the TanStack Query cache under chatKeys.messages(conversationID).
 */
import type { QueryClient } from '@tanstack/react-query';
import { chat } from '../../../api/chat';
import {
  ContentType,
  MessageStatus,
  type GroupMessageReceipt,
  type MessageItem,
  type RevokedInfo,
} from '../../../api/socket/types';
import { chatKeys } from './keys';
import { foldMarks } from './marks';

/** A message plus what only this client knows: a stable list key and why a send failed. */
export interface ChatMessage extends MessageItem {
  localKey: string;
  /** The seq its reactions and edited text are current as of (marks.ts). */
  markSeq?: number;
  failure?: { code: number; text: string };
}

export interface MessageWindow {
  messages: ChatMessage[];
  /** No older history to load. */
  isEnd: boolean;
}

export const PAGE_SIZE = 30;

let localCounter = 0;
export function newLocalKey(): string {
  localCounter += 1;
  return `l${Date.now().toString(36)}${localCounter.toString(36)}`;
}

function withKey(message: MessageItem, previous?: ChatMessage): ChatMessage {
  const { localKey, failure } = message as Partial<ChatMessage>;
  const next: ChatMessage = { ...message, localKey: previous?.localKey ?? localKey ?? message.clientMsgID };
  const keptFailure = message.status === MessageStatus.failed ? (failure ?? previous?.failure) : undefined;
  if (keptFailure) next.failure = keptFailure;
  else delete next.failure;
  return next;
}

/**
 * Stored messages in seq order, then the ones still being sent (seq 0) in the order they were
 * written. A message already present (same clientMsgID) is replaced, keeping its list key.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly MessageItem[]): ChatMessage[] {
  const byID = new Map(current.map((m) => [m.clientMsgID, m]));
  for (const message of incoming) {
    byID.set(message.clientMsgID, withKey(message, byID.get(message.clientMsgID)));
  }
  foldMarks(byID, incoming);
  const all = [...byID.values()];
  const stored = all.filter((m) => m.seq > 0).sort((a, b) => a.seq - b.seq);
  const pending = all.filter((m) => m.seq <= 0);
  return [...stored, ...pending];
}

export function newestSeq(messages: readonly ChatMessage[]): number {
  let seq = 0;
  for (const m of messages) if (m.seq > seq) seq = m.seq;
  return seq;
}

export function oldestSeq(messages: readonly ChatMessage[]): number {
  for (const m of messages) if (m.seq > 0) return m.seq;
  return 0;
}

/** The notice a revoked message turns into (what the server stores as contentType 2101). */
export function revokedMessage(message: ChatMessage, info: RevokedInfo): ChatMessage {
  const detail = JSON.stringify(info);
  const next: ChatMessage = {
    ...message,
    contentType: ContentType.revoked,
    notificationElem: { detail },
    content: JSON.stringify({ detail }),
  };
  for (const key of [
    'textElem',
    'pictureElem',
    'soundElem',
    'videoElem',
    'fileElem',
    'mergeElem',
    'atTextElem',
    'faceElem',
    'locationElem',
    'customElem',
    'quoteElem',
    'cardElem',
  ] as const) {
    next[key] = undefined;
  }
  return next;
}

export function getWindow(client: QueryClient, conversationID: string): MessageWindow | undefined {
  return client.getQueryData<MessageWindow>(chatKeys.messages(conversationID));
}

/** Applies `update` to a loaded window; a conversation never opened has nothing to update. */
export function updateWindow(
  client: QueryClient,
  conversationID: string,
  update: (window: MessageWindow) => MessageWindow,
): void {
  client.setQueryData<MessageWindow>(chatKeys.messages(conversationID), (current) =>
    current ? update(current) : current,
  );
}

export function addMessages(client: QueryClient, conversationID: string, messages: readonly MessageItem[]): void {
  updateWindow(client, conversationID, (w) => ({ ...w, messages: mergeMessages(w.messages, messages) }));
}

export function removeMessage(client: QueryClient, conversationID: string, localKey: string): void {
  updateWindow(client, conversationID, (w) => ({ ...w, messages: w.messages.filter((m) => m.localKey !== localKey) }));
}

export function applyRevoke(client: QueryClient, info: RevokedInfo): void {
  updateWindow(client, info.conversationID, (w) => ({
    ...w,
    messages: w.messages.map((m) => (m.clientMsgID === info.clientMsgID ? revokedMessage(m, info) : m)),
  }));
}

/** The peer read these of one's messages in a 1:1 chat (OnRecvC2CReadReceipt). */
export function applyReadReceipt(client: QueryClient, conversationID: string, clientMsgIDs: readonly string[]): void {
  const read = new Set(clientMsgIDs);
  updateWindow(client, conversationID, (w) => ({
    ...w,
    messages: w.messages.map((m) => (read.has(m.clientMsgID) && !m.isRead ? { ...m, isRead: true } : m)),
  }));
}

/** Members of a group read some of one's messages (OnRecvGroupReadReceipt). */
export function applyGroupReceipt(client: QueryClient, receipt: GroupMessageReceipt): void {
  const byID = new Map(receipt.groupMessageReadInfo.map((r) => [r.clientMsgID, r]));
  updateWindow(client, receipt.conversationID, (w) => ({
    ...w,
    messages: w.messages.map((m) => {
      const r = byID.get(m.clientMsgID);
      if (!r) return m;
      const groupHasReadInfo = {
        hasReadCount: r.hasReadCount,
        unreadCount: r.unreadCount,
        hasReadUserIDList: r.hasReadUserIDList ?? [],
        groupMemberCount: r.hasReadCount + r.unreadCount,
      };
      return { ...m, attachedInfoElem: { ...m.attachedInfoElem, groupHasReadInfo } };
    }),
  }));
}

/** The newest page of a conversation (the query function of its window). */
export async function loadLatest(conversationID: string): Promise<MessageWindow> {
  const page = await chat.getAdvancedHistoryMessageList({ conversationID, count: PAGE_SIZE });
  return { messages: mergeMessages([], page.messageList ?? []), isEnd: page.isEnd };
}

/** One page older than the oldest message held; returns how many messages came. */
export async function loadOlder(client: QueryClient, conversationID: string): Promise<number> {
  const current = getWindow(client, conversationID);
  if (!current || current.isEnd) return 0;
  const before = oldestSeq(current.messages);
  if (before <= 1) {
    updateWindow(client, conversationID, (w) => ({ ...w, isEnd: true }));
    return 0;
  }
  const page = await chat.getAdvancedHistoryMessageList({ conversationID, count: PAGE_SIZE, lastMinSeq: before });
  const list = page.messageList ?? [];
  updateWindow(client, conversationID, (w) => ({
    messages: mergeMessages(w.messages, list),
    isEnd: page.isEnd || list.length === 0,
  }));
  return list.length;
}

/**
 * After a reconnect: everything after the newest seq held, page by page, with no gap and no
 * duplicate (GetAdvancedHistoryMessageListReverse from the last seq seen).
 */
export async function catchUp(client: QueryClient, conversationID: string): Promise<number> {
  const current = getWindow(client, conversationID);
  if (!current) return 0;
  let after = newestSeq(current.messages);
  let total = 0;
  for (let pages = 0; pages < 50; pages += 1) {
    const page = await chat.getAdvancedHistoryMessageListReverse({ conversationID, count: 100, lastMinSeq: after });
    const list = page.messageList ?? [];
    if (list.length > 0) addMessages(client, conversationID, list);
    total += list.length;
    if (page.isEnd || list.length === 0) break;
    after = Math.max(after, page.lastMinSeq, ...list.map((m) => m.seq));
  }
  return total;
}

/**
 * Makes the window hold the message at `seq` with its context: a page up to and including it
 * and everything after it (the catch-up's pages, so the window stays one run of history up
 * to the newest message). Resolves with the message, or null when the reader may not see it
 * any more (deleted, cleared). A message already held loads nothing.
 */
export async function loadAround(client: QueryClient, conversationID: string, seq: number): Promise<ChatMessage | null> {
  const held = getWindow(client, conversationID)?.messages.find((m) => m.seq === seq);
  if (held) return held;
  const before = await chat.getAdvancedHistoryMessageList({ conversationID, count: PAGE_SIZE, lastMinSeq: seq + 1 });
  const list = [...(before.messageList ?? [])];
  let after = seq;
  for (let pages = 0; pages < 50; pages += 1) {
    const page = await chat.getAdvancedHistoryMessageListReverse({ conversationID, count: 100, lastMinSeq: after });
    const got = page.messageList ?? [];
    list.push(...got);
    if (page.isEnd || got.length === 0) break;
    after = Math.max(after, page.lastMinSeq, ...got.map((m) => m.seq));
  }
  client.setQueryData<MessageWindow>(chatKeys.messages(conversationID), (w) => ({
    messages: mergeMessages(w?.messages ?? [], list),
    isEnd: before.isEnd,
  }));
  return getWindow(client, conversationID)?.messages.find((m) => m.seq === seq) ?? null;
}
