import { useMutation, useQueryClient } from '@tanstack/react-query';
import { HandleResult } from '../../../api/socket/types';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { chat } from '../../../api/chat';
import { useSearchParam } from '../../../navigation/useSearchParam';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { MissingPage } from '../../../components/page-header/MissingPage';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { Avatar } from '../../../components/avatar/Avatar';
import { ConfirmDialog } from '../../../components/dialog/ConfirmDialog';
import { Loading, LoadError } from '../../../components/status/LoadState';
import { chatErrorText } from '../data/errors';
import { useFriendRequestsByMe, useMe, useUserInfo } from '../data/hooks';
import { singleConversationID } from '../data/ids';
import { chatKeys } from '../data/keys';
import { firstText } from '../data/text';
import { conversationPath, friendVerifyPath } from '../paths';
import { PresenceLine } from '../conversation/PresenceLine';
import '../../../components/kit.css';
import './UserInfoPage.css';
import { DELETED_ACCOUNT_NAME, shownName } from '../../../format/deletedAccount';

type Confirm = 'delete' | 'block' | null;

/** /pages/chat/user-info?userID=: profile, remark, send message, blacklist, delete. */
export function UserInfoPage() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const client = useQueryClient();
  const userID = useSearchParam('userID');
  const info = useUserInfo(userID);
  const sent = useFriendRequestsByMe();
  // A request of mine still waiting on this user: "add friend" again would only repeat it.
  const pending = (sent.data ?? []).some((r) => r.toUserID === userID && r.handleResult === HandleResult.pending);
  const [remark, setRemark] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);

  const refresh = (): void => {
    void client.invalidateQueries({ queryKey: chatKeys.users([userID]) });
    void client.invalidateQueries({ queryKey: chatKeys.friends });
    void client.invalidateQueries({ queryKey: chatKeys.blacklist });
    void client.invalidateQueries({ queryKey: chatKeys.conversations });
  };
  const action = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: refresh,
    onError: (e) => {
      showToast(chatErrorText(e, t));
    },
  });

  if (!userID) {
    return <MissingPage title={t('chat.userInfo.title')} message={t('chat.errors.userNotFound')} />;
  }

  let body;
  if (info.isPending) body = <Loading />;
  else if (info.error) body = <LoadError error={info.error} onRetry={() => void info.refetch()} />;
  else if (!info.data?.publicInfo) body = <EmptyState title={t('chat.errors.userNotFound')} />;
  else {
    const { publicInfo, friendInfo, blackInfo } = info.data;
    const isSelf = userID === me;
    // A deleted account reads as one, whatever remark it was given.
    const name =
      publicInfo.nickname === DELETED_ACCOUNT_NAME ? shownName(publicInfo.nickname, t) : firstText(friendInfo?.remark, publicInfo.nickname);
    const saveRemark = (event: SyntheticEvent<HTMLFormElement>): void => {
      event.preventDefault();
      if (remark === null) return;
      const value = remark.trim();
      action.mutate(() => chat.setFriendRemark(userID, value), {
        onSuccess: () => {
          setRemark(null);
          showToast(t('chat.userInfo.remarkSaved'));
        },
      });
    };
    // What deleting the friend and blocking the user ask first, and what a yes does.
    const confirmations = {
      delete: {
        dialog: {
          title: t('chat.userInfo.deleteFriend'),
          text: t('chat.userInfo.deleteConfirm', { name }),
          confirmLabel: t('chat.delete'),
          busy: action.isPending,
        },
        run: () => {
          action.mutate(() => chat.deleteFriend(userID), {
            onSuccess: () => {
              showToast(t('chat.userInfo.deleted'));
            },
          });
        },
      },
      block: {
        dialog: { title: t('chat.userInfo.block'), text: t('chat.userInfo.blockConfirm', { name }), confirmLabel: t('chat.userInfo.block') },
        run: () => {
          action.mutate(() => chat.addBlack(userID));
        },
      },
    };
    body = (
      <div className="chat-page__scroll">
        <section className="chat-profile-card">
          <Avatar decorative name={name} src={publicInfo.faceURL} size={64} />
          <div className="user-info__names">
            <h2 className="user-info__name">{name}</h2>
            {friendInfo?.remark ? <p className="chat-muted-text">{t('chat.userInfo.nickname', { name: publicInfo.nickname })}</p> : null}
            <p className="chat-muted-text">{t('chat.userInfo.id', { id: userID })}</p>
            {isSelf ? null : <PresenceLine userID={userID} className="user-info__presence" />}
          </div>
        </section>
        {isSelf ? <p className="chat-section-title">{t('chat.userInfo.self')}</p> : null}
        {blackInfo ? <p className="chat-form-error">{t('chat.userInfo.blocked')}</p> : null}
        {friendInfo ? (
          <form className="chat-field" onSubmit={saveRemark}>
            <label className="chat-field__label" htmlFor="remark">
              {t('chat.userInfo.remark')}
            </label>
            <div className="user-info__remark">
              <input
                id="remark"
                className="chat-input"
                maxLength={64}
                value={remark ?? friendInfo.remark}
                placeholder={t('chat.userInfo.remarkPlaceholder')}
                onChange={(event) => {
                  setRemark(event.target.value);
                }}
              />
              <button type="submit" className="chat-small-button" disabled={remark === null || action.isPending}>
                {t('chat.save')}
              </button>
            </div>
          </form>
        ) : null}
        {!isSelf ? (
          <div className="chat-actions">
            <button
              type="button"
              className="button button--block"
              onClick={() => {
                void navigate(conversationPath(singleConversationID(me, userID)));
              }}
            >
              {t('chat.userInfo.sendMessage')}
            </button>
            {!friendInfo && pending ? (
              <button type="button" className="button button--block button--secondary" disabled data-testid="friend-request-pending">
                {t('chat.userInfo.requestPending')}
              </button>
            ) : null}
            {!friendInfo && !pending ? (
              <button
                type="button"
                className="button button--block button--secondary"
                onClick={() => {
                  void navigate(friendVerifyPath(userID));
                }}
              >
                {t('chat.userInfo.addFriend')}
              </button>
            ) : null}
            <button
              type="button"
              className="button button--block button--secondary"
              disabled={action.isPending}
              onClick={() => {
                if (blackInfo) action.mutate(() => chat.removeBlack(userID));
                else setConfirm('block');
              }}
            >
              {blackInfo ? t('chat.userInfo.unblock') : t('chat.userInfo.block')}
            </button>
            {friendInfo ? (
              <button
                type="button"
                className="button button--block button--danger"
                disabled={action.isPending}
                onClick={() => {
                  setConfirm('delete');
                }}
              >
                {t('chat.userInfo.deleteFriend')}
              </button>
            ) : null}
          </div>
        ) : null}
        {confirm ? (
          <ConfirmDialog
            {...confirmations[confirm].dialog}
            danger
            onCancel={() => {
              setConfirm(null);
            }}
            onConfirm={() => {
              setConfirm(null);
              confirmations[confirm].run();
            }}
          />
        ) : null}
      </div>
    );
  }

  return (
    <main className="chat-page">
      <PageHeader title={t('chat.userInfo.title')} back />
      {body}
    </main>
  );
}
