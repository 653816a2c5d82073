import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { chat } from '../../../api/chat';
import { useSearchParam } from '../../../navigation/useSearchParam';
import { MissingPage } from '../../../components/page-header/MissingPage';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { Avatar } from '../../../components/avatar/Avatar';
import { ListRow } from '../../../components/list-row/ListRow';
import { useSelf, useUserInfo } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { ChatFormError } from '../ChatFormError';

const MAX_MESSAGE = 200;

/** /pages/chat/friend-verify?userID=: a friend request with its required verification message. */
export function FriendVerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const userID = useSearchParam('userID');
  const { data: user } = useUserInfo(userID);
  const { data: self } = useSelf();
  const [message, setMessage] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const text = message ?? t('chat.friendVerify.default', { name: self?.nickname ?? '' });

  const send = useMutation({
    mutationFn: (reqMsg: string) => chat.addFriend(userID, reqMsg),
    onSuccess: () => {
      showToast(t('chat.friendVerify.sent'));
      // The profile the user returns to shows the request as waiting (it reads my requests).
      void client.invalidateQueries({ queryKey: chatKeys.friendRequests });
      void navigate(-1);
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const reqMsg = text.trim();
    // Spec section 5: the verification message is required.
    setMissing(!reqMsg);
    if (reqMsg && !send.isPending) send.mutate(reqMsg);
  };

  if (!userID) {
    return <MissingPage title={t('chat.friendVerify.title')} message={t('chat.errors.userNotFound')} />;
  }
  const name = user?.publicInfo?.nickname ?? '';
  return (
    <main className="chat-page">
      <PageHeader title={t('chat.friendVerify.title')} back />
      <form className="chat-page__scroll" onSubmit={onSubmit} noValidate>
        <ListRow left={<Avatar decorative name={name} src={user?.publicInfo?.faceURL} size={44} />} title={name} subtitle={t('chat.userInfo.id', { id: userID })} />
        <label className="chat-field">
          <span className="chat-field__label">{t('chat.friendVerify.label')}</span>
          <textarea
            className="chat-input"
            name="reqMsg"
            rows={3}
            maxLength={MAX_MESSAGE}
            value={text}
            aria-invalid={missing}
            onChange={(event) => {
              setMessage(event.target.value);
            }}
          />
        </label>
        <ChatFormError required={missing ? t('chat.friendVerify.required') : null} error={send.error} />
        <div className="chat-actions">
          <button type="submit" className="button button--block" disabled={send.isPending}>
            {send.isPending ? t('chat.sending') : t('chat.friendVerify.send')}
          </button>
        </div>
      </form>
    </main>
  );
}
