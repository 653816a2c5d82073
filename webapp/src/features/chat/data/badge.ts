/**
 * What counts towards the tab badge and the document title: a do-not-disturb conversation
 * keeps its own unread count in the list but raises neither (the server's unread total leaves
 * it out the same way, actors/chat CountsInTotal).
 */
import { RecvMsgOpt, type ConversationItem } from '../../../api/socket/types';

export function isMuted(c: Pick<ConversationItem, 'recvMsgOpt'>): boolean {
  return c.recvMsgOpt !== RecvMsgOpt.normal;
}

/** The unread messages of one conversation that count in the badge (0 when muted). */
export function badgeUnread(c: Pick<ConversationItem, 'recvMsgOpt' | 'unreadCount'>): number {
  return isMuted(c) ? 0 : Math.max(0, c.unreadCount);
}

/** The badge total over a list, for when the server's total is not known yet. */
export function badgeTotal(list: readonly Pick<ConversationItem, 'recvMsgOpt' | 'unreadCount'>[]): number {
  return list.reduce((n, c) => n + badgeUnread(c), 0);
}

/** "(3) kj": the app's name with the unread count in front; just the name at 0; 99+ above 99. */
export function unreadTitle(appName: string, unread: number): string {
  if (unread <= 0) return appName;
  return `(${unread > 99 ? '99+' : String(unread)}) ${appName}`;
}
