/** One-line texts of messages: list previews, quotes, merge summaries and notice tips. */
import type { TFunction } from 'i18next';
import {
  ContentType,
  GroupType,
  NOTICE_FROM,
  type GroupMemberItem,
  type MessageItem,
  type RevokedInfo,
} from '../../../api/socket/types';
import { firstText } from './text';
import { shownName } from '../../../format/deletedAccount';

type Named = Partial<Pick<GroupMemberItem, 'userID' | 'nickname'>> | null | undefined;

interface NoticeDetail {
  group?: { groupName?: string; notification?: string; groupType?: number };
  opUser?: Named;
  quitUser?: Named;
  entrantUser?: Named;
  mutedUser?: Named;
  changedUser?: Named;
  newGroupOwner?: Named;
  kickedUserList?: Named[] | null;
  invitedUserList?: Named[] | null;
  mutedSeconds?: number;
}

function parseDetail(message: MessageItem): unknown {
  const detail = message.notificationElem?.detail;
  if (!detail) return null;
  try {
    return JSON.parse(detail) as unknown;
  } catch {
    return null;
  }
}

/** A duration in seconds in the largest whole unit (mute times). */
export function formatDuration(seconds: number, t: TFunction): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86_400 && s % 86_400 === 0) return t('chat.duration.days', { count: s / 86_400 });
  if (s >= 3_600 && s % 3_600 === 0) return t('chat.duration.hours', { count: s / 3_600 });
  if (s >= 60 && s % 60 === 0) return t('chat.duration.minutes', { count: s / 60 });
  return t('chat.duration.seconds', { count: s });
}

/**
 * The time a mute has left, in whole minutes rounded up (a mute with 10 s left still reads
 * "1 minute"), then hours and days with their minutes/hours: what a muted member waits for.
 */
export function formatMuteLeft(ms: number, t: TFunction): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return t('chat.duration.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    const rest = minutes % 60;
    const h = t('chat.duration.hours', { count: hours });
    return rest ? `${h} ${t('chat.duration.minutes', { count: rest })}` : h;
  }
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const d = t('chat.duration.days', { count: days });
  return rest ? `${d} ${t('chat.duration.hours', { count: rest })}` : d;
}

/** A user's name in a notice; me as the subject ("You") or, with `object`, the object ("you"). */
function nameOf(user: Named, me: string, t: TFunction, object = false): string {
  if (!user) return t('chat.notice.someone');
  if (user.userID && user.userID === me) return object ? t('chat.notice.youObject') : t('chat.notice.you');
  return firstText(user.nickname, user.userID) || t('chat.notice.someone');
}

function names(list: Named[] | null | undefined, me: string, t: TFunction): string {
  return (list ?? []).map((u) => nameOf(u, me, t, true)).join(t('chat.notice.separator'));
}

/** The tip shown for a friend, group or revoke notice (contentType from 1000). */
export function noticeText(message: MessageItem, me: string, t: TFunction): string {
  if (message.contentType === ContentType.revoked) {
    const info = parseDetail(message) as RevokedInfo | null;
    if (!info || info.revokerID === me) return t('chat.notice.revokedByMe');
    return t('chat.notice.revoked', { name: info.revokerNickname || t('chat.notice.someone') });
  }
  if (message.contentType === ContentType.friendAdded) return t('chat.notice.friendAdded');
  const d = (parseDetail(message) as NoticeDetail | null) ?? {};
  const op = nameOf(d.opUser, me, t);
  switch (message.contentType) {
    case ContentType.groupCreated:
      // A channel is not a group chat: its first line says what was made.
      return t(d.group?.groupType === GroupType.channel ? 'chat.notice.channelCreated' : 'chat.notice.groupCreated', { name: op });
    case ContentType.groupInfoSet:
      return t('chat.notice.groupInfoSet', { name: op });
    case ContentType.memberQuit:
      return t('chat.notice.memberQuit', { name: nameOf(d.quitUser, me, t) });
    case ContentType.ownerTransferred:
      return t('chat.notice.ownerTransferred', { name: op, target: nameOf(d.newGroupOwner, me, t, true) });
    case ContentType.memberKicked:
      return t('chat.notice.memberKicked', { name: op, target: names(d.kickedUserList, me, t) });
    case ContentType.memberInvited:
      return t('chat.notice.memberInvited', { name: op, target: names(d.invitedUserList, me, t) });
    case ContentType.memberEnter:
      return t('chat.notice.memberEnter', { name: nameOf(d.entrantUser, me, t) });
    case ContentType.groupDismissed:
      return t('chat.notice.groupDismissed');
    case ContentType.memberMuted:
      return t('chat.notice.memberMuted', {
        name: op,
        target: nameOf(d.mutedUser, me, t, true),
        duration: formatDuration(d.mutedSeconds ?? 0, t),
      });
    case ContentType.memberUnmuted:
      // Without an operator the mute ran out on its own.
      if (!d.opUser) return t('chat.notice.memberMuteEnded', { name: nameOf(d.mutedUser, me, t) });
      return t('chat.notice.memberUnmuted', { name: op, target: nameOf(d.mutedUser, me, t, true) });
    case ContentType.groupMuted:
      return t('chat.notice.groupMuted', { name: op });
    case ContentType.groupUnmuted:
      return t('chat.notice.groupUnmuted', { name: op });
    case ContentType.memberInfoSet:
      return t('chat.notice.memberInfoSet', { name: op, target: nameOf(d.changedUser, me, t, true) });
    case ContentType.memberSetAdmin:
      return t('chat.notice.memberSetAdmin', { name: op, target: nameOf(d.changedUser, me, t, true) });
    case ContentType.memberSetOrdinary:
      return t('chat.notice.memberSetOrdinary', { name: op, target: nameOf(d.changedUser, me, t, true) });
    case ContentType.groupAnnouncement:
      return t('chat.notice.groupAnnouncement', { name: op });
    case ContentType.groupNameSet:
      return t('chat.notice.groupNameSet', { name: op, group: d.group?.groupName ?? '' });
  }
  return t('chat.preview.unsupported');
}

/** The text of a message in one line (list preview, quote, merge summary). */
export function messageText(message: MessageItem, me: string, t: TFunction): string {
  if (message.contentType >= NOTICE_FROM) return noticeText(message, me, t);
  switch (message.contentType) {
    case ContentType.text:
      return message.textElem?.content ?? '';
    case ContentType.atText:
      return message.atTextElem?.text ?? '';
    case ContentType.quote:
      return message.quoteElem?.text ?? '';
    case ContentType.picture:
      return t('chat.preview.image');
    case ContentType.voice:
      return t('chat.preview.voice');
    case ContentType.video:
      return t('chat.preview.video');
    case ContentType.file:
      return t('chat.preview.file', { name: message.fileElem?.fileName ?? '' });
    case ContentType.card:
      return t('chat.preview.card', { name: message.cardElem?.nickname ?? '' });
    case ContentType.location:
      return t('chat.preview.location', { name: message.locationElem?.description ?? '' });
    case ContentType.merger:
      return t('chat.preview.merger', { title: message.mergeElem?.title ?? '' });
    case ContentType.face:
      return t('chat.preview.face');
    case ContentType.custom:
      return firstText(message.customElem?.description) || t('chat.preview.custom');
  }
  return t('chat.preview.unsupported');
}

/** A conversation list preview: in a group, user messages name their sender. */
export function previewText(message: MessageItem, me: string, isGroup: boolean, t: TFunction): string {
  const text = messageText(message, me, t);
  if (!isGroup || message.contentType >= NOTICE_FROM) return text;
  const sender = message.sendID === me ? t('chat.notice.you') : shownName(message.senderNickname, t);
  return sender ? t('chat.preview.withSender', { name: sender, text }) : text;
}
