import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { chat } from '../../../api/chat';
import { GroupType } from '../../../api/socket/types';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { Loading } from '../../../components/status/LoadState';
import { useFriends } from '../data/hooks';
import { groupConversationID } from '../data/ids';
import { toggled } from '../data/selection';
import { conversationPath } from '../paths';
import { FriendPicker } from './FriendPicker';
import { ChatFormError } from '../ChatFormError';
import './groups.css';

/** /pages/chat/group?type=2 (create group chat) or 3 (create channel): name required, pick members. */
export function CreateGroupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const type = params.get('type') === String(GroupType.channel) ? GroupType.channel : GroupType.group;
  const friends = useFriends();
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [missing, setMissing] = useState(false);

  const create = useMutation({
    mutationFn: (groupName: string) => chat.createGroup({ groupName, groupType: type, needVerification: 0 }, [...selected]),
    onSuccess: (group) => {
      void navigate(conversationPath(groupConversationID(group.groupID)), { replace: true });
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const groupName = name.trim();
    // Spec section 5: a group name is required.
    setMissing(!groupName);
    if (groupName && !create.isPending) create.mutate(groupName);
  };

  const title = type === GroupType.channel ? t('chat.list.createChannel') : t('chat.list.createGroup');
  return (
    <main className="chat-page">
      <PageHeader title={title} back />
      <form className="chat-page__fixed" onSubmit={onSubmit} noValidate id="create-group">
        <label className="chat-field">
          <span className="chat-field__label">{type === GroupType.channel ? t('chat.group.channelName') : t('chat.group.name')}</span>
          <input
            className="chat-input"
            name="groupName"
            maxLength={64}
            value={name}
            aria-invalid={missing}
            placeholder={t('chat.group.namePlaceholder')}
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </label>
        <ChatFormError required={missing ? t('chat.errors.groupNameRequired') : null} error={create.error} />
        <h2 className="chat-section-title">{t('chat.group.pickMembersCount', { count: selected.size })}</h2>
      </form>
      {friends.isPending ? (
        <Loading />
      ) : (
        <FriendPicker
          friends={friends.data ?? []}
          selected={selected}
          onToggle={(id) => {
            setSelected((current) => toggled(current, id));
          }}
          footer={(friends.data ?? []).length === 0 ? <p className="chat-section-title">{t('chat.contacts.empty')}</p> : null}
        />
      )}
      <div className="group-bottom-bar">
        <button type="submit" form="create-group" className="button button--block" disabled={create.isPending}>
          {create.isPending ? t('chat.sending') : t('chat.group.create')}
        </button>
      </div>
    </main>
  );
}
