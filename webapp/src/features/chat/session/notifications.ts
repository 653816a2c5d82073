/**
 * Web Notifications for new messages while the app is in the background. The browser's
 * permission is asked at a moment the user would expect it (after sending their first message,
 * or from the toggle in a chat's settings), never on launch; a do-not-disturb conversation
 * never notifies. Clicking a notification brings the app forward on that chat.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { chatSocket } from '../../../api/chat';
import type { ChatSocket } from '../../../api/socket/socket';
import { ContentType, NOTICE_FROM, type ConversationItem, type MessageItem } from '../../../api/socket/types';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../../api/storage';
import { isMuted } from '../data/badge';
import { conversationOfMessage } from '../data/ids';
import { chatKeys } from '../data/keys';
import { previewText } from '../data/preview';
import { firstText } from '../data/text';

export type NotifyPermission = NotificationPermission | 'unsupported';

/** The browser's side, replaced in tests. */
export interface NotifyEnv {
  hidden: () => boolean;
  permission: () => NotifyPermission;
  request: () => Promise<NotifyPermission>;
  show: (title: string, options: NotificationOptions, onClick: () => void) => void;
}

export const browserNotifyEnv: NotifyEnv = {
  hidden: () => document.visibilityState !== 'visible',
  permission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
  request: () => (typeof Notification === 'undefined' ? Promise.resolve('unsupported') : Notification.requestPermission()),
  show: (title, options, onClick) => {
    const n = new Notification(title, options);
    n.onclick = () => {
      window.focus();
      n.close();
      onClick();
    };
  },
};

/** Whether the user wants notifications in this browser (and the browser allows them). */
export function notificationsOn(env: NotifyEnv = browserNotifyEnv, store: KeyValueStore = browserStore): boolean {
  return env.permission() === 'granted' && store.get(STORAGE_KEYS.chatNotify) !== 'off';
}

/**
 * Turns notifications on or off in this browser; turning on asks the browser when it has not
 * been asked. Resolves to whether they are on now ('denied': the browser blocks them).
 */
export async function setNotifications(
  on: boolean,
  env: NotifyEnv = browserNotifyEnv,
  store: KeyValueStore = browserStore,
): Promise<boolean> {
  if (!on) {
    store.set(STORAGE_KEYS.chatNotify, 'off');
    return false;
  }
  let permission = env.permission();
  if (permission === 'default') permission = await env.request();
  store.set(STORAGE_KEYS.chatNotify, permission === 'granted' ? 'on' : 'off');
  return permission === 'granted';
}

/** After the user's first message: asks once, unless they already chose (here or in the browser). */
export function askNotificationsOnce(env: NotifyEnv = browserNotifyEnv, store: KeyValueStore = browserStore): Promise<boolean> {
  if (store.get(STORAGE_KEYS.chatNotify) !== null || env.permission() === 'unsupported') return Promise.resolve(notificationsOn(env, store));
  return setNotifications(true, env, store);
}

/** Whether a pushed message raises a notification. */
export function shouldNotify(message: MessageItem, me: string, conversation: ConversationItem | undefined, hidden: boolean): boolean {
  if (!hidden || message.sendID === me) return false;
  if (message.contentType === ContentType.typing || message.contentType >= NOTICE_FROM) return false;
  return !(conversation && isMuted(conversation));
}

/** Notifies new messages while the app is hidden; returns the unsubscribe function. */
export function bindNotifications(
  client: QueryClient,
  t: TFunction,
  open: (conversationID: string) => void,
  socket: ChatSocket = chatSocket,
  env: NotifyEnv = browserNotifyEnv,
  store: KeyValueStore = browserStore,
): () => void {
  return socket.on('OnRecvNewMessage', (message) => {
    const me = socket.userID;
    const conversationID = conversationOfMessage(message, me);
    const conversation = client.getQueryData<ConversationItem[]>(chatKeys.conversations)?.find((c) => c.conversationID === conversationID);
    if (!shouldNotify(message, me, conversation, env.hidden()) || !notificationsOn(env, store)) return;
    const isGroup = Boolean(message.groupID);
    const title = firstText(conversation?.showName, message.senderNickname, t('chat.notify.newMessage'));
    env.show(title, { body: previewText(message, me, isGroup, t), tag: conversationID, icon: firstText(conversation?.faceURL) || undefined }, () => {
      open(conversationID);
    });
  });
}
