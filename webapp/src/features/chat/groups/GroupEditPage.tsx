import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { chat } from '../../../api/chat';
import { useSearchParam } from '../../../navigation/useSearchParam';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { Loading } from '../../../components/status/LoadState';
import { useGroup } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { ChatFormError } from '../ChatFormError';

/** /pages/chat/group-edit?groupID=&field=name|notice: the group's name (required) or notice. */
export function GroupEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const groupID = useSearchParam('groupID');
  const isName = useSearchParam('field') !== 'notice';
  const group = useGroup(groupID);
  const [value, setValue] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const current = isName ? (group.data?.groupName ?? '') : (group.data?.notification ?? '');
  const text = value ?? current;

  const save = useMutation({
    mutationFn: (v: string) => chat.setGroupInfo(groupID, isName ? { groupName: v } : { notification: v }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: chatKeys.group(groupID) });
      void client.invalidateQueries({ queryKey: chatKeys.conversations });
      showToast(t('chat.groupEdit.saved'));
      void navigate(-1);
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const v = text.trim();
    setMissing(isName && !v);
    if ((v || !isName) && !save.isPending) save.mutate(v);
  };

  const title = isName ? t('chat.groupInfo.editName') : t('chat.groupInfo.editNotice');
  return (
    <main className="chat-page">
      <PageHeader title={title} back />
      {group.isPending ? (
        <Loading />
      ) : (
        <form className="chat-page__scroll" onSubmit={onSubmit} noValidate>
          <label className="chat-field">
            <span className="chat-field__label">{isName ? t('chat.group.name') : t('chat.groupInfo.notice')}</span>
            {isName ? (
              <input
                className="chat-input"
                name="groupName"
                maxLength={64}
                value={text}
                aria-invalid={missing}
                onChange={(event) => {
                  setValue(event.target.value);
                }}
              />
            ) : (
              <textarea
                className="chat-input"
                name="notification"
                rows={6}
                maxLength={1000}
                value={text}
                onChange={(event) => {
                  setValue(event.target.value);
                }}
              />
            )}
          </label>
          <ChatFormError required={missing ? t('chat.errors.groupNameRequired') : null} error={save.error} />
          <div className="chat-actions">
            <button type="submit" className="button button--block" disabled={save.isPending}>
              {t('chat.save')}
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
