import { useTranslation } from 'react-i18next';
import type { GroupMemberItem } from '../../../api/socket/types';
import { Avatar } from '../../../components/avatar/Avatar';
import { AT_ALL, memberName, pickable, type MentionTarget } from '../data/mentions';
import '../mentions.css';

interface MentionPickerProps {
  members: readonly GroupMemberItem[];
  query: string;
  me: string;
  /** Owners and admins may mention everyone. */
  canMentionAll: boolean;
  onPick: (target: MentionTarget) => void;
}

/** MAX_SHOWN members at most: the list narrows as the name is typed. */
const MAX_SHOWN = 30;

/** The members to mention, shown above the message box while an "@" is being typed. */
export function MentionPicker({ members, query, me, canMentionAll, onPick }: MentionPickerProps) {
  const { t } = useTranslation();
  const allName = t('chat.mention.all');
  const found = pickable(members, query, me).slice(0, MAX_SHOWN);
  const showAll = canMentionAll && allName.toLowerCase().includes(query.toLowerCase());
  if (found.length === 0 && !showAll) {
    return (
      <p className="mention-picker mention-picker--empty" role="status">
        {t('chat.mention.none')}
      </p>
    );
  }
  return (
    <ul className="mention-picker" role="listbox" aria-label={t('chat.mention.pick')} data-testid="mention-picker">
      {showAll ? (
        <li role="option" aria-selected={false}>
          <button
            type="button"
            className="mention-picker__item"
            onMouseDown={(e) => {
              e.preventDefault(); // keep the focus (and the caret) in the message box
            }}
            onClick={() => {
              onPick({ userID: AT_ALL, name: allName });
            }}
          >
            <span className="mention-picker__name">@{allName}</span>
          </button>
        </li>
      ) : null}
      {found.map((m) => (
        <li key={m.userID} role="option" aria-selected={false}>
          <button
            type="button"
            className="mention-picker__item"
            onMouseDown={(e) => {
              e.preventDefault();
            }}
            onClick={() => {
              onPick({ userID: m.userID, name: memberName(m) });
            }}
          >
            <Avatar decorative name={memberName(m)} src={m.faceURL} size={28} />
            <span className="mention-picker__name">{memberName(m)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
