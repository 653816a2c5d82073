/**
 * Optimistic sending (Message send status): the message shows at once as
 * sending, turns sent when the server answers with the stored copy, or failed with the reason
 * — a failed message stays in the list and is sent again when tapped (the server drops a
 * repeat of the same clientMsgID).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { chat } from '../../../api/chat';
import { MessageStatus, SessionType, type MessageItem } from '../../../api/socket/types';
import { chatErrorText, errorCode } from './errors';
import type { ConversationTarget } from './ids';
import { addMessages, newLocalKey, removeMessage, type ChatMessage } from './messages';

export interface Sender {
  userID: string;
  nickname: string;
  faceURL: string;
}

/** Builds the message on the server (Create*Message), uploading first where needed. */
export type Build = () => Promise<MessageItem>;

interface Job {
  target: ConversationTarget;
  build: Build;
  built: MessageItem | null;
}

const jobs = new Map<string, Job>();

/**
 * A message from `sender` to `target` written at `now`, as the server's Create*Message builds
 * it: `element` gives its contentType and content. The placeholder and the outbox's texts
 * start from it.
 */
export function newMessage(
  sender: Sender,
  target: ConversationTarget,
  clientMsgID: string,
  element: Partial<MessageItem> & Pick<MessageItem, 'contentType'>,
  now: number,
): MessageItem {
  return {
    clientMsgID,
    serverMsgID: '',
    createTime: now,
    sendTime: now,
    sessionType: target.groupID ? SessionType.group : SessionType.single,
    sendID: sender.userID,
    recvID: target.recvID,
    msgFrom: 100,
    senderPlatformID: 5,
    senderNickname: sender.nickname,
    senderFaceUrl: sender.faceURL,
    groupID: target.groupID,
    content: '',
    seq: 0,
    isRead: false,
    status: MessageStatus.sending,
    ex: '',
    ...element,
  };
}

/** A local stand-in shown while the server builds the message. */
export function placeholder(
  sender: Sender,
  target: ConversationTarget,
  element: Partial<MessageItem> & Pick<MessageItem, 'contentType'>,
  now: number = Date.now(),
): ChatMessage {
  const localKey = newLocalKey();
  return { ...newMessage(sender, target, `local-${localKey}`, element, now), localKey };
}

/** Only a conversation already loaded shows the message; another one loads it with its history. */
function put(client: QueryClient, target: ConversationTarget, message: ChatMessage): void {
  addMessages(client, target.conversationID, [message]);
}

async function run(client: QueryClient, localKey: string, stand: ChatMessage, t: TFunction): Promise<boolean> {
  const job = jobs.get(localKey);
  if (!job) return false;
  const { target } = job;
  let current: ChatMessage = { ...stand, status: MessageStatus.sending };
  delete current.failure;
  put(client, target, current);
  try {
    if (!job.built) {
      const built = await job.build();
      job.built = built;
      // The list key stays; the placeholder is replaced by the server's message.
      removeMessage(client, target.conversationID, localKey);
      current = { ...built, localKey, status: MessageStatus.sending, createTime: stand.createTime };
      put(client, target, current);
    }
    await deliver(client, target, job.built, localKey);
    jobs.delete(localKey);
    return true;
  } catch (error) {
    put(client, target, { ...current, status: MessageStatus.failed, failure: sendFailure(error, t) });
    return false;
  }
}

/**
 * Sends a built message to its conversation and shows the server's stored copy in place of
 * the one under `localKey`. Rejects with the send's error. The outbox sends through it too.
 */
export async function deliver(client: QueryClient, target: ConversationTarget, message: MessageItem, localKey: string): Promise<void> {
  const sent = await chat.sendMessage({ message, recvID: target.recvID, groupID: target.groupID });
  put(client, target, { ...sent, localKey });
}

/** Why a send failed, as the failed message shows it (no text without a translator). */
export function sendFailure(error: unknown, t?: TFunction): NonNullable<ChatMessage['failure']> {
  return { code: errorCode(error), text: t ? chatErrorText(error, t) : '' };
}

/**
 * Shows `stand` (see placeholder) in the conversation, builds and sends it. Resolves true
 * when it was sent; a failure is shown on the message itself.
 */
export function sendMessage(
  client: QueryClient,
  target: ConversationTarget,
  stand: ChatMessage,
  build: Build,
  t: TFunction,
): Promise<boolean> {
  jobs.set(stand.localKey, { target, build, built: null });
  return run(client, stand.localKey, stand, t);
}

/** Sends a message built elsewhere (forwarding) without a placeholder step. */
export function sendBuilt(
  client: QueryClient,
  target: ConversationTarget,
  message: MessageItem,
  t: TFunction,
): Promise<boolean> {
  const localKey = newLocalKey();
  jobs.set(localKey, { target, build: () => Promise.resolve(message), built: message });
  return run(client, localKey, { ...message, localKey, status: MessageStatus.sending }, t);
}

/** A failed message can be retried while this page session remembers how it was built. */
export function canRetry(message: ChatMessage): boolean {
  return message.status === MessageStatus.failed && jobs.has(message.localKey);
}

export function retry(client: QueryClient, message: ChatMessage, t: TFunction): Promise<boolean> {
  return run(client, message.localKey, message, t);
}
