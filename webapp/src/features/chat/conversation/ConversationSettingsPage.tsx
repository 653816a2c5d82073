import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
import { useSearchParam } from '../../../navigation/useSearchParam';
import { Avatar } from '../../../components/avatar/Avatar';
import { ConfirmDialog } from '../../../components/dialog/ConfirmDialog';
import { BellIcon, BellOffIcon, PinIcon } from '../../../components/icons/Icons';
import { MenuButton, MenuLink, MenuList, MenuSwitch } from '../../../components/menu/Menu';
import { MissingPage } from '../../../components/page-header/MissingPage';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { Loading, LoadError } from '../../../components/status/LoadState';
import { showToast } from '../../../state/toast';
import { isMuted } from '../data/badge';
import { clearHistory, setMuted, setPinned } from '../data/controls';
import { chatErrorText } from '../data/errors';
import { useConversations, useMe } from '../data/hooks';
import { targetOf } from '../data/ids';
import { retryAfterDrop } from '../data/queries';
import { conversationPath, groupInfoPath, userInfoPath } from '../paths';
import { browserNotifyEnv, notificationsOn, setNotifications } from '../session/notifications';
import './ConversationPage.css';

/** The conversation: from the list when there, else read from the server. */
function useConversation(conversationID: string) {
  const list = useConversations();
  const fromList = list.data?.find((c) => c.conversationID === conversationID);
  const read = useQuery({
    queryKey: ['chat', 'conversation-settings', conversationID],
    queryFn: () => chat.getMultipleConversation([conversationID]).then((items) => items[0] ?? null),
    enabled: Boolean(conversationID) && list.isSuccess && !fromList,
    retry: retryAfterDrop,
  });
  return { item: fromList ?? read.data ?? null, pending: list.isPending || (read.isPending && read.fetchStatus !== 'idle'), error: list.error ?? read.error, refetch: read.refetch };
}

/**
 * /pages/chat/conversation-settings?conversationID=: pin to top, do not disturb and clear
 * history for this chat (all of them follow the user to their other devices), and whether
 * this browser shows notifications for new messages.
 */
export function ConversationSettingsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const me = useMe();
  const conversationID = useSearchParam('conversationID');
  const target = me && conversationID ? targetOf(conversationID, me) : null;
  const { item, pending, error, refetch } = useConversation(target?.conversationID ?? '');
  const [confirmClear, setConfirmClear] = useState(false);
  const [notify, setNotify] = useState(() => notificationsOn());
  const [notifyBusy, setNotifyBusy] = useState(false);
  const title = t('chat.controls.title');

  if (!target) return <MissingPage title={title} message={t('chat.conversation.notFound')} className="page" />;
  if (pending) {
    return (
      <main className="page">
        <PageHeader title={title} back />
        <Loading />
      </main>
    );
  }
  if (!item) {
    if (error) {
      return (
        <main className="page">
          <PageHeader title={title} back />
          <LoadError error={error} onRetry={() => void refetch()} />
        </main>
      );
    }
    return <MissingPage title={title} message={t('chat.conversation.notFound')} className="page" />;
  }

  const id = item.conversationID;
  const isGroup = Boolean(target.groupID);
  const muted = isMuted(item);
  const act = (run: () => Promise<unknown>, done: string): void => {
    run().then(
      () => {
        showToast(done);
      },
      (e: unknown) => {
        showToast(chatErrorText(e, t));
      },
    );
  };
  const permission = browserNotifyEnv.permission();

  return (
    <main className="page conversation-settings">
      <PageHeader title={title} back fallback={conversationPath(id)} />
      <div className="page-body">
        <div className="conversation-settings__card">
          <Avatar decorative name={item.showName} src={item.faceURL} size={48} square={isGroup} />
          <span className="conversation-settings__name">{item.showName}</span>
        </div>
        <MenuList label={title}>
          <MenuSwitch
            icon={<PinIcon />}
            label={t('chat.list.pin')}
            checked={item.isPinned}
            onChange={(next) => {
              act(() => setPinned(client, id, next), next ? t('chat.controls.pinned') : t('chat.controls.unpinned'));
            }}
          />
          <MenuSwitch
            icon={<BellOffIcon />}
            label={t('chat.controls.mute')}
            checked={muted}
            onChange={(next) => {
              act(() => setMuted(client, id, next), next ? t('chat.controls.muted') : t('chat.controls.unmuted'));
            }}
          />
        </MenuList>
        <p className="conversation-settings__note">{t('chat.controls.muteNote')}</p>
        <MenuList label={t('chat.controls.notifications')}>
          <MenuSwitch
            icon={<BellIcon />}
            label={t('chat.controls.notifications')}
            checked={notify}
            disabled={notifyBusy || permission === 'unsupported'}
            onChange={(next) => {
              setNotifyBusy(true);
              void setNotifications(next).then((on) => {
                setNotify(on);
                setNotifyBusy(false);
                if (next && !on) showToast(t('chat.controls.notificationsBlocked'));
              });
            }}
          />
        </MenuList>
        <p className="conversation-settings__note">
          {permission === 'unsupported' ? t('chat.controls.notificationsUnsupported') : t('chat.controls.notificationsNote')}
        </p>
        <MenuList label={t('chat.controls.more')}>
          <MenuLink
            to={isGroup ? groupInfoPath(target.groupID) : userInfoPath(target.recvID)}
            label={isGroup ? t('chat.groupInfo.title') : t('chat.userInfo.title')}
          />
          <MenuButton
            label={t('chat.controls.clear')}
            onClick={() => {
              setConfirmClear(true);
            }}
          />
        </MenuList>
      </div>
      <ConfirmDialog
        open={confirmClear}
        title={t('chat.controls.clearTitle')}
        text={t('chat.controls.clearText', { name: item.showName })}
        confirmLabel={t('chat.controls.clearConfirm')}
        danger
        onCancel={() => {
          setConfirmClear(false);
        }}
        onConfirm={() => {
          setConfirmClear(false);
          act(() => clearHistory(client, id), t('chat.controls.cleared'));
        }}
      />
    </main>
  );
}
