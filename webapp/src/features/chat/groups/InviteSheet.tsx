import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
import type { GroupMemberItem } from '../../../api/socket/types';
import { Sheet } from '../../../components/action-sheet/Sheet';
import { showToast } from '../../../state/toast';
import { chatErrorText } from '../data/errors';
import { useFriends } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { toggled } from '../data/selection';
import { FriendPicker } from './FriendPicker';

interface InviteSheetProps {
  groupID: string;
  members: readonly GroupMemberItem[];
  onClose: () => void;
}

/** Picks friends to invite; members already in are shown checked. A full group says so. */
export function InviteSheet({ groupID, members, onClose }: InviteSheetProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: friends } = useFriends();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const inGroup = new Set(members.map((m) => m.userID));
  const invite = useMutation({
    mutationFn: () => chat.inviteUserToGroup(groupID, [...selected]),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: chatKeys.members(groupID) });
      void client.invalidateQueries({ queryKey: chatKeys.group(groupID) });
      showToast(t('chat.groupInfo.invited'));
      onClose();
    },
  });
  return (
    <Sheet className="invite-sheet" title={t('chat.groupInfo.invite')} onClose={onClose}>
    <FriendPicker
      friends={friends ?? []}
      fixed={inGroup}
      selected={selected}
      onToggle={(id) => {
        setSelected((current) => toggled(current, id));
      }}
    />
    {invite.error ? (
      <p className="chat-form-error" role="alert">
        {chatErrorText(invite.error, t)}
      </p>
    ) : null}
    <div className="group-bottom-bar">
      <button
        type="button"
        className="button button--block"
        disabled={selected.size === 0 || invite.isPending}
        onClick={() => {
          invite.mutate();
        }}
      >
        {t('chat.groupInfo.inviteCount', { count: selected.size })}
      </button>
    </div>
    </Sheet>
  );
}
