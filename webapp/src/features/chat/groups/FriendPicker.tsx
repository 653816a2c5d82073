import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FullUserItem } from '../../../api/socket/types';
import { currentLanguage } from '../../../i18n';
import { Avatar } from '../../../components/avatar/Avatar';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { friendName } from '../data/names';

interface FriendPickerProps {
  friends: readonly FullUserItem[];
  selected: ReadonlySet<string>;
  onToggle: (userID: string) => void;
  /** Already in the group: shown checked and fixed. */
  fixed?: ReadonlySet<string>;
  footer?: ReactNode;
}

/** Friends with check boxes (create a group, invite members). */
export function FriendPicker({ friends, selected, onToggle, fixed, footer }: FriendPickerProps) {
  const { t, i18n } = useTranslation();
  const rows = friends
    .filter((f) => f.friendInfo)
    .map((f) => ({ id: f.friendInfo?.userID ?? '', name: friendName(f), face: f.friendInfo?.faceURL ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name, currentLanguage(i18n)));
  return (
    <VirtualList
      items={rows}
      label={t('chat.group.pickMembers')}
      getKey={(r) => r.id}
      footer={footer}
      renderItem={(r) => {
        const locked = fixed?.has(r.id) ?? false;
        return (
          <label className="chat-row chat-row--action picker-row">
            <input
              type="checkbox"
              className="picker-row__check"
              checked={locked || selected.has(r.id)}
              disabled={locked}
              onChange={() => {
                onToggle(r.id);
              }}
            />
            <Avatar decorative name={r.name} src={r.face} size={40} />
            <span className="chat-row__main">
              <span className="chat-row__title">{r.name}</span>
            </span>
          </label>
        );
      }}
    />
  );
}
