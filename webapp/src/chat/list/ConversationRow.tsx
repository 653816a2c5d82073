import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ConversationItem } from '../../api/socket/types';
import { formatTimeAgo } from '../../format';
import { Avatar } from '../components/Avatar';
import { Badge } from '../components/Badge';
import { useLongPress } from '../components/useLongPress';
import { parseLatestMessage } from '../data/ids';
import { previewText } from '../data/preview';
import { useTyping } from '../data/typing';
import { conversationPath } from '../paths';

interface ConversationRowProps {
  conversation: ConversationItem;
  me: string;
  now: number;
  onMenu: (conversation: ConversationItem) => void;
}

/** One conversation: face, name, time-ago, latest message or draft, unread badge; long press for the menu. */
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
      aria-label={c.unreadCount > 0 ? t('chat.list.rowLabel', { name: c.showName, count: c.unreadCount }) : c.showName}
      onClick={() => {
        void navigate(conversationPath(c.conversationID));
      }}
      {...press}
    >
      <span className="conversation-row__avatar">
        <Avatar name={c.showName} url={c.faceURL} size={48} square={isGroup} />
        <span className="conversation-row__badge">
          <Badge count={c.unreadCount} />
        </span>
      </span>
      <span className="conversation-row__main">
        <span className="conversation-row__top">
          <span className="conversation-row__name">{c.showName}</span>
          {time > 0 ? <span className="conversation-row__time">{formatTimeAgo(time, t, now)}</span> : null}
        </span>
        <span className={previewClass}>{preview}</span>
      </span>
    </button>
  );
}
