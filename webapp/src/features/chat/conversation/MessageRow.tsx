import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MessageStatus, NOTICE_FROM } from '../../../api/socket/types';
import { Avatar } from '../../../components/avatar/Avatar';
import { AlertIcon, CheckIcon } from '../../../components/icons/Icons';
import { useLongPress } from '../../../components/hooks/useLongPress';
import type { ChatMessage } from '../data/messages';
import { noticeText } from '../data/preview';
import { userInfoPath } from '../paths';
import { MessageContent } from './content/MessageContent';
import { TimeSeparator } from './TimeSeparator';
import { useMessageActions } from './messageActions';
import { shownName } from '../../../format/deletedAccount';

interface MessageRowProps {
  message: ChatMessage;
  previous: ChatMessage | undefined;
  me: string;
  /** The current time (minute precision), for "today" and "yesterday". */
  now: number;
  isGroup: boolean;
  selecting: boolean;
  selected: boolean;
  onToggleSelect: (message: ChatMessage) => void;
  onMenu: (message: ChatMessage) => void;
  onRetry: (message: ChatMessage) => void;
  /** Opens who read one's message in a group. */
  onReaders: (message: ChatMessage) => void;
  /** The sender's avatar now (their profile or membership), over the one the message was sent with. */
  currentFace?: string;
}

/**
 * Under one's own sent message: "Read" / "Unread" in a 1:1 chat; in a group small enough for
 * receipts, "Read by N" (or "Read by all"), which opens the list of readers.
 */
function ReadState({
  message: m,
  isGroup,
  onReaders,
}: {
  message: ChatMessage;
  isGroup: boolean;
  onReaders: (message: ChatMessage) => void;
}) {
  const { t } = useTranslation();
  if (!isGroup) {
    return (
      <span className={m.isRead ? 'msg-read msg-read--done' : 'msg-read'} data-testid="read-state">
        {m.isRead ? t('chat.message.read') : t('chat.message.unread')}
      </span>
    );
  }
  const info = m.attachedInfoElem?.groupHasReadInfo;
  if (!info || info.groupMemberCount === 0) return null;
  const label =
    info.unreadCount === 0 ? t('chat.message.readByAll') : t('chat.message.readBy', { count: info.hasReadCount });
  return (
    <button
      type="button"
      className={info.unreadCount === 0 ? 'msg-read msg-read--done msg-read--button' : 'msg-read msg-read--button'}
      data-testid="read-state"
      disabled={info.hasReadCount === 0}
      onClick={() => {
        onReaders(m);
      }}
    >
      {label}
    </button>
  );
}

/** Messages further apart than this get a time between them. */
const GAP_MS = 10 * 60_000;

/** Messages of one sender this close follow on without the avatar and name again. */
const GROUP_MS = 3 * 60_000;

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** The emoji under a message with their counts; a tap shows who reacted. */
function Reactions({ message: m, me }: { message: ChatMessage; me: string }) {
  const { t } = useTranslation();
  const actions = useMessageActions();
  if (!m.reactions || m.reactions.length === 0) return null;
  return (
    <ul className="msg-reactions" aria-label={t('chat.message.reactions')} data-testid="reactions">
      {m.reactions.map((r) => (
        <li key={r.emoji}>
          <button
            type="button"
            className={r.userIDList.includes(me) ? 'msg-reaction msg-reaction--mine' : 'msg-reaction'}
            onClick={() => actions?.showReaction(m, r)}
            aria-label={t('chat.message.reactionCount', { emoji: r.emoji, count: r.count })}
            data-emoji={r.emoji}
          >
            <span aria-hidden="true">{r.emoji}</span> <span aria-hidden="true">{r.count}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function timeOf(m: ChatMessage): number {
  return m.sendTime || m.createTime;
}

/** One row of the conversation: a time separator when due, then a notice tip or a bubble. */
export const MessageRow = memo(function MessageRow({
  message: m,
  previous,
  me,
  now,
  isGroup,
  selecting,
  selected,
  onToggleSelect,
  onMenu,
  onRetry,
  onReaders,
  currentFace,
}: MessageRowProps) {
  const { t } = useTranslation();
  const press = useLongPress(() => {
    if (!selecting) onMenu(m);
  });
  const at = timeOf(m);
  const showTime = !previous || at - timeOf(previous) > GAP_MS || new Date(at).toDateString() !== new Date(timeOf(previous)).toDateString();
  const separator = showTime ? <TimeSeparator time={at} now={now} /> : null;

  if (m.contentType >= NOTICE_FROM) {
    return (
      <div className="msg-row" data-seq={m.seq}>
        {separator}
        <p className="msg-notice">{noticeText(m, me, t)}</p>
      </div>
    );
  }

  const mine = m.sendID === me;
  // Consecutive messages of one sender: one avatar and name for the run, a time on each.
  const grouped =
    !showTime &&
    previous.sendID === m.sendID &&
    previous.contentType < NOTICE_FROM &&
    at - timeOf(previous) <= GROUP_MS;
  const failed = m.status === MessageStatus.failed;
  const sending = m.status === MessageStatus.sending;
  const bubble = (
    // Focusable, so the keyboard's menu key opens the message menu as a long press does.
    <div className={mine ? 'msg-bubble msg-bubble--mine' : 'msg-bubble'} tabIndex={0} {...press}>
      <MessageContent message={m} me={me} />
    </div>
  );

  return (
    <div className="msg-row" data-seq={m.seq} data-status={m.status} data-key={m.localKey}>
      {separator}
      <div className={`msg-line${mine ? ' msg-line--mine' : ''}${grouped ? ' msg-line--grouped' : ''}`}>
        {selecting ? (
          <label className="msg-select">
            <input
              type="checkbox"
              checked={selected}
              onChange={() => {
                onToggleSelect(m);
              }}
              aria-label={t('chat.message.select')}
            />
          </label>
        ) : null}
        {grouped ? (
          <span className="msg-avatar msg-avatar--space" aria-hidden="true" />
        ) : (
          <Link to={userInfoPath(m.sendID)} className="msg-avatar" aria-label={t('chat.message.profileOf', { name: shownName(m.senderNickname, t) })}>
            <Avatar decorative name={m.senderNickname} src={currentFace ?? m.senderFaceUrl} size={38} />
          </Link>
        )}
        <div className="msg-body">
          {isGroup && !mine && !grouped ? <span className="msg-sender">{shownName(m.senderNickname, t)}</span> : null}
          <div className="msg-bubble-line">
            {mine && failed ? (
              <button
                type="button"
                className="msg-status msg-status--failed"
                onClick={() => {
                  onRetry(m);
                }}
                aria-label={t('chat.message.retry')}
              >
                <AlertIcon />
              </button>
            ) : null}
            {mine && sending ? (
              <span className="msg-status msg-status--sending spinner" role="img" aria-label={t('chat.message.sending')} />
            ) : null}
            {bubble}
            {mine && m.status === MessageStatus.sent ? (
              <span className="visually-hidden">
                <CheckIcon size={24} />
                {t('chat.message.sent')}
              </span>
            ) : null}
          </div>
          <Reactions message={m} me={me} />
          <span className="msg-meta">
            {at > 0 ? <time className="msg-time" dateTime={new Date(at).toISOString()}>{clock(at)}</time> : null}
            {m.editTime ? (
              <span className="msg-edited" data-testid="edited">
                {t('chat.message.edited')}
              </span>
            ) : null}
            {mine && m.status === MessageStatus.sent ? <ReadState message={m} isGroup={isGroup} onReaders={onReaders} /> : null}
          </span>
          {failed && m.failure ? (
            <p className="msg-failure" role="alert">
              {m.failure.text}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
});
