import { useTranslation } from 'react-i18next';
import type { FullUserItem } from '../../../api/socket/types';
import { ActionSheet } from '../../../components/action-sheet/ActionSheet';
import { useFriends } from '../data/hooks';
import { firstText } from '../data/text';

/** Picks a friend whose business card to send. */
export function CardPicker({ onPick, onClose }: { onPick: (friend: FullUserItem) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useFriends();
  const friends = (data ?? []).filter((f) => f.friendInfo);
  return (
    <ActionSheet
      title={friends.length > 0 ? t('chat.composer.pickCard') : t('chat.contacts.empty')}
      actions={friends.map((f) => ({
        label: firstText(f.friendInfo?.remark, f.friendInfo?.nickname, f.publicInfo?.nickname),
        onSelect: () => {
          onPick(f);
        },
      }))}
      onClose={onClose}
    />
  );
}
