/**
 * The outbox (issue 36 #2). A text written while the chat socket is down is built here, with
 * a clientMsgID of its own and its clock mark (createTime), kept in this browser per user, and
 * shown as sending. When the socket is signed in again the outbox is sent in the order written,
 * one message after the other, each with the clientMsgID it was given — the server answers a
 * repeat of a clientMsgID with the message it stored, so a send whose answer was lost and goes
 * again arrives once. It survives a reload (localStorage). A message the server refuses
 * (blocked, muted, not a member...) stays in the outbox, failed, until it is retried or deleted.
 *
 * While the outbox holds waiting messages, new texts join it too, so nothing written later
 * overtakes them.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { chatSocket } from '../../../api/chat';
import type { ConnectionState } from '../../../api/socket/socket';
import { SocketErrorCode } from '../../../api/socket/protocol';
import { ContentType, MessageStatus, type MessageItem } from '../../../api/socket/types';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../../api/storage';
import { errorCode } from './errors';
import type { ConversationTarget } from './ids';
import { chatKeys } from './keys';
import { addMessages, getWindow, removeMessage, type ChatMessage } from './messages';
import { deliver, newMessage, sendFailure, type Sender } from './send';

export interface OutboxEntry {
  target: ConversationTarget;
  /** As it will be sent: its clientMsgID and, as createTime, when it was written. */
  message: MessageItem;
  /** Why the server refused it; a failed message waits for retry or delete. */
  failure?: { code: number; text: string };
}

/** userID → that user's messages in the order written. */
type OutboxBook = Record<string, OutboxEntry[]>;

function isEntry(value: unknown): value is OutboxEntry {
  if (!value || typeof value !== 'object') return false;
  const e = value as Partial<OutboxEntry>;
  return (
    typeof e.target?.conversationID === 'string' &&
    typeof e.message?.clientMsgID === 'string' &&
    typeof e.message.createTime === 'number'
  );
}

function readBook(store: KeyValueStore): OutboxBook {
  const raw = store.get(STORAGE_KEYS.chatOutbox);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const book: OutboxBook = {};
    for (const [user, list] of Object.entries(parsed as Record<string, unknown>)) {
      if (Array.isArray(list)) book[user] = list.filter(isEntry);
    }
    return book;
  } catch {
    return {};
  }
}

function writeMine(me: string, entries: OutboxEntry[], store: KeyValueStore): void {
  const others = Object.entries(readBook(store)).filter(([user]) => user !== me);
  if (entries.length > 0) others.push([me, entries]);
  if (others.length === 0) store.remove(STORAGE_KEYS.chatOutbox);
  else store.set(STORAGE_KEYS.chatOutbox, JSON.stringify(Object.fromEntries(others)));
}

/** The user's outbox, in the order written. */
export function outboxOf(me: string, store: KeyValueStore = browserStore): OutboxEntry[] {
  return readBook(store)[me] ?? [];
}

/** Adds a message at the end of the user's outbox (a clientMsgID already there is left alone). */
export function keepInOutbox(me: string, entry: OutboxEntry, store: KeyValueStore = browserStore): void {
  const mine = outboxOf(me, store);
  if (mine.some((e) => e.message.clientMsgID === entry.message.clientMsgID)) return;
  writeMine(me, [...mine, entry], store);
}

/** Drops a message from the user's outbox (sent, or deleted by the user). */
export function forgetInOutbox(me: string, clientMsgID: string, store: KeyValueStore = browserStore): void {
  const mine = outboxOf(me, store);
  const rest = mine.filter((e) => e.message.clientMsgID !== clientMsgID);
  if (rest.length !== mine.length) writeMine(me, rest, store);
}

/** Marks a message refused (failure) or waiting again (null), keeping its place. */
export function setOutboxFailure(
  me: string,
  clientMsgID: string,
  failure: OutboxEntry['failure'] | null,
  store: KeyValueStore = browserStore,
): void {
  writeMine(
    me,
    outboxOf(me, store).map((e) => {
      if (e.message.clientMsgID !== clientMsgID) return e;
      const next: OutboxEntry = { target: e.target, message: e.message };
      if (failure) next.failure = failure;
      return next;
    }),
    store,
  );
}

/** Whether a message is in the user's outbox. */
export function isQueued(me: string, clientMsgID: string, store: KeyValueStore = browserStore): boolean {
  return outboxOf(me, store).some((e) => e.message.clientMsgID === clientMsgID);
}

/** A random 32-hex clientMsgID, the form the server and OpenIM use. */
export function newClientMsgID(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A text message built here, as CreateTextMessage would (the server checks and completes it on sending). */
export function outboxText(sender: Sender, target: ConversationTarget, text: string, now: number): MessageItem {
  return newMessage(sender, target, newClientMsgID(), { contentType: ContentType.text, textElem: { content: text } }, now);
}

/**
 * Whether a text written now goes to the outbox: the socket is not signed in, the device is
 * offline, or earlier messages still wait there (a new one must not overtake them).
 */
export function outboxTakes(
  me: string,
  state: ConnectionState = chatSocket.state,
  online: boolean = typeof navigator === 'undefined' || navigator.onLine,
  store: KeyValueStore = browserStore,
): boolean {
  return state !== 'connected' || !online || outboxOf(me, store).some((e) => !e.failure);
}

/** How an outbox message shows in its conversation. */
function shown(entry: OutboxEntry): ChatMessage {
  const m: ChatMessage = {
    ...entry.message,
    localKey: entry.message.clientMsgID,
    status: entry.failure ? MessageStatus.failed : MessageStatus.sending,
  };
  if (entry.failure) m.failure = entry.failure;
  return m;
}

/** Keeps a text in the outbox and shows it at once; it goes when the socket is signed in. */
export function queueText(
  client: QueryClient,
  sender: Sender,
  target: ConversationTarget,
  text: string,
  now: number = Date.now(),
  store: KeyValueStore = browserStore,
): ChatMessage {
  const entry: OutboxEntry = { target, message: outboxText(sender, target, text, now) };
  keepInOutbox(sender.userID, entry, store);
  const m = shown(entry);
  addMessages(client, target.conversationID, [m]);
  // Signed in after all (the state changed since the check): send now.
  if (chatSocket.state === 'connected' && sender.userID === chatSocket.userID) void flushOutbox(client, sender.userID);
  return m;
}

/**
 * Shows the user's outbox messages of a conversation whose history just loaded (after a
 * reload they are in no list). One the history already holds as stored was sent: it leaves
 * the outbox.
 */
export function showOutbox(client: QueryClient, me: string, conversationID: string, store: KeyValueStore = browserStore): void {
  const stored = new Set((getWindow(client, conversationID)?.messages ?? []).filter((m) => m.seq > 0).map((m) => m.clientMsgID));
  const mine = outboxOf(me, store).filter((e) => e.target.conversationID === conversationID);
  for (const e of mine) if (stored.has(e.message.clientMsgID)) forgetInOutbox(me, e.message.clientMsgID, store);
  const waiting = mine.filter((e) => !stored.has(e.message.clientMsgID));
  if (waiting.length > 0) addMessages(client, conversationID, waiting.map(shown));
}

/** The socket or the network went away: the message waits for the next connection. */
function mustWait(error: unknown): boolean {
  const code = errorCode(error);
  return code === SocketErrorCode.offline || code === SocketErrorCode.notConnected || code === SocketErrorCode.closed;
}

let flushing: Promise<void> | null = null;
/** Counts the asks: one made while a run was on gets one more run (what was added meanwhile goes too). */
let asked = 0;

/**
 * Sends the user's waiting outbox messages in the order written, one at a time: each one's
 * answer (the stored message, or a refusal) before the next goes. A lost connection stops the
 * run; the next connection starts it again from the first message still waiting.
 */
export function flushOutbox(client: QueryClient, me: string, t?: TFunction, store: KeyValueStore = browserStore): Promise<void> {
  asked += 1;
  if (flushing) return flushing;
  flushing = (async () => {
    for (;;) {
      const seen = asked;
      await drain(client, me, t, store);
      if (asked === seen) return;
    }
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function drain(client: QueryClient, me: string, t: TFunction | undefined, store: KeyValueStore): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    // Read again each time: another tab, a delete or a retry may have changed it meanwhile.
    const next = outboxOf(me, store).find((e) => !e.failure && !tried.has(e.message.clientMsgID));
    if (!next) return;
    const id = next.message.clientMsgID;
    tried.add(id);
    const { target } = next;
    try {
      await deliver(client, target, next.message, id);
      forgetInOutbox(me, id, store);
    } catch (error) {
      if (mustWait(error)) return;
      if (!isQueued(me, id, store)) continue; // deleted while it was on its way
      const failure = sendFailure(error, t);
      setOutboxFailure(me, id, failure, store);
      addMessages(client, target.conversationID, [shown({ ...next, failure })]);
    }
  }
}

/** A failed outbox message goes back to waiting, in its place, and the outbox is sent. */
export function retryQueued(client: QueryClient, me: string, message: ChatMessage, t?: TFunction, store: KeyValueStore = browserStore): Promise<void> {
  setOutboxFailure(me, message.clientMsgID, null, store);
  const entry = outboxOf(me, store).find((e) => e.message.clientMsgID === message.clientMsgID);
  if (entry) addMessages(client, entry.target.conversationID, [shown(entry)]);
  if (chatSocket.state !== 'connected') return Promise.resolve();
  return flushOutbox(client, me, t, store);
}

/** Deletes an outbox message: it is never sent, and leaves the conversation. */
export function dropQueued(client: QueryClient, me: string, conversationID: string, message: ChatMessage, store: KeyValueStore = browserStore): void {
  forgetInOutbox(me, message.clientMsgID, store);
  removeMessage(client, conversationID, message.localKey);
}

/**
 * Sends the outbox whenever the socket is signed in (now, if it is), and when the device is
 * back online on a socket that never noticed it was gone; chat screens that failed to load
 * meanwhile load again. Returns the unsubscribe function.
 */
export function bindOutbox(client: QueryClient, t: TFunction): () => void {
  const flush = (): void => {
    if (!chatSocket.userID || chatSocket.state !== 'connected') return;
    // A page loaded offline (a reload from the service worker's cache) found no chat data:
    // its screens load now, and show what the outbox sends.
    void client.refetchQueries({ queryKey: chatKeys.all, predicate: (q) => q.state.status === 'error' });
    void flushOutbox(client, chatSocket.userID, t);
  };
  const off = chatSocket.onConnected(flush);
  window.addEventListener('online', flush);
  flush();
  return () => {
    off();
    window.removeEventListener('online', flush);
  };
}
