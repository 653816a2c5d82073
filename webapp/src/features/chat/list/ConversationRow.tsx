import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ConversationItem } from '../../../api/socket/types';
import { formatTimeAgo } from '../../../format';
import { Avatar } from '../../../components/avatar/Avatar';
import { Badge } from '../../../components/badge/Badge';
import { BellOffIcon } from '../../../components/icons/Icons';
import { useLongPress } from '../../../components/hooks/useLongPress';
import { isMuted } from '../data/badge';
import { parseLatestMessage } from '../data/ids';
import { GroupAtType, mentionsMe } from '../data/mentions';
import '../mentions.css';
import { previewText } from '../data/preview';
import { useTyping } from '../data/typing';
import { conversationPath } from '../paths';
import { shownName } from '../../../format/deletedAccount';

interface ConversationRowProps {
  conversation: ConversationItem;
  me: string;
  now: number;
  onMenu: (conversation: ConversationItem) => void;
}

/**
 * One conversation: face, name, time-ago, latest message or draft, unread badge (grey when the
 * chat is set to do not disturb, with a struck bell); long press or right click for the menu.
 */
export function ConversationRow({ conversation: c, me, now, onMenu }: ConversationRowProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const typing = useTyping(c.conversationID);
  const press = useLongPress(() => {
    onMenu(c);
  });
  const isGroup = Boolean(c.groupID);
  const latest = parseLatestMessage(c);
  const time = Math.max(c.latestMsgSendTime, c.draftTextTime);
  const muted = isMuted(c);
  const name = shownName(c.showName, t);
  const label = c.unreadCount > 0 ? t('chat.list.rowLabel', { name, count: c.unreadCount }) : name;

  let preview = latest ? previewText(latest, me, isGroup, t) : '';
  let previewClass = 'conversation-row__preview';
  if (typing) {
    preview = t('chat.conversation.typing');
    previewClass += ' conversation-row__preview--accent';
  } else if (c.draftText) {
    preview = t('chat.list.draft', { text: c.draftText });
    previewClass += ' conversation-row__preview--draft';
  }

  return (
    <button
      type="button"
      className={c.isPinned ? 'conversation-row conversation-row--pinned' : 'conversation-row'}
      data-conversation={c.conversationID}
      data-muted={muted ? 'true' : undefined}
      aria-label={muted ? t('chat.controls.rowMuted', { label }) : label}
      onClick={() => {
        void navigate(conversationPath(c.conversationID));
      }}
      {...press}
    >
      <span className="conversation-row__avatar">
        <Avatar decorative name={name} src={c.faceURL} size={48} square={isGroup} />
        <span className={muted ? 'conversation-row__badge conversation-row__badge--muted' : 'conversation-row__badge'}>
          <Badge count={c.unreadCount} />
        </span>
      </span>
      <span className="conversation-row__main">
        <span className="conversation-row__top">
          <span className="conversation-row__name">{name}</span>
          {time > 0 ? <span className="conversation-row__time">{formatTimeAgo(time, t, now)}</span> : null}
        </span>
        <span className="conversation-row__bottom">
          <span className={previewClass}>
            {mentionsMe(c.groupAtType) || c.groupAtType === GroupAtType.atAll ? (
              <span className="conversation-row__mention" data-testid="mention-mark">
                {mentionsMe(c.groupAtType) ? t('chat.mention.you') : t('chat.mention.everyone')}{' '}
              </span>
            ) : null}
            {preview}
          </span>
          {muted ? (
            <span className="conversation-row__muted" role="img" aria-label={t('chat.controls.mutedLabel')}>
              <BellOffIcon size={16} />
            </span>
          ) : null}
        </span>
      </span>
    </button>
  );
}
