import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { chat } from '../../../api/chat';
import { useSearchParam } from '../../../navigation/useSearchParam';
import { GroupRole, GroupStatus, GroupType, type GroupMemberItem } from '../../../api/socket/types';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { MissingPage } from '../../../components/page-header/MissingPage';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { ActionSheet, type SheetAction } from '../../../components/action-sheet/ActionSheet';
import { Avatar } from '../../../components/avatar/Avatar';
import { ConfirmDialog } from '../../../components/dialog/ConfirmDialog';
import { ChevronIcon, PlusIcon } from '../../../components/icons/Icons';
import { ListRow } from '../../../components/list-row/ListRow';
import { Loading, LoadError } from '../../../components/status/LoadState';
import { useNow } from '../../../components/hooks/useNow';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { chatErrorText } from '../data/errors';
import { useGroup, useGroupMembers, useMe } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { formatDuration } from '../data/preview';
import { CHAT_PATHS, groupEditPath, userInfoPath } from '../paths';
import { InviteSheet } from './InviteSheet';
import '../../../components/kit.css';
import './groups.css';

/** Mute lengths offered (seconds): 1 minute to 30 days, the server's cap. */
export const MUTE_CHOICES = [60, 600, 3_600, 43_200, 86_400, 604_800, 2_592_000] as const;

type Row =
  | { kind: 'card'; key: string }
  | { kind: 'notice'; key: string }
  | { kind: 'setting'; key: string; title: string; value?: string; to?: string; onClick?: () => void }
  | { kind: 'header'; key: string; title: string }
  | { kind: 'invite'; key: string }
  | { kind: 'member'; key: string; member: GroupMemberItem }
  | { kind: 'actions'; key: string };

type Confirm = { kind: 'quit' | 'dismiss' } | { kind: 'transfer' | 'kick'; member: GroupMemberItem } | null;

/** /pages/chat/group-info?groupID=: info, members with roles, and the management */
export function GroupInfoPage() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const client = useQueryClient();
  const groupID = useSearchParam('groupID');
  const group = useGroup(groupID);
  const dismissed = group.data?.status === GroupStatus.dismissed;
  const members = useGroupMembers(groupID, !dismissed);
  const now = useNow(1_000);
  const [menuFor, setMenuFor] = useState<GroupMemberItem | null>(null);
  const [muteFor, setMuteFor] = useState<GroupMemberItem | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [inviting, setInviting] = useState(false);

  const action = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: chatKeys.members(groupID) });
      void client.invalidateQueries({ queryKey: chatKeys.group(groupID) });
    },
    onError: (e) => {
      showToast(chatErrorText(e, t));
    },
  });

  if (!groupID) {
    return <MissingPage title={t('chat.groupInfo.title')} message={t('chat.errors.groupNotFound')} />;
  }
  if (group.isPending) {
    return (
      <main className="chat-page">
        <PageHeader title={t('chat.groupInfo.title')} back />
        <Loading />
      </main>
    );
  }
  if (group.error || !group.data) {
    return (
      <main className="chat-page">
        <PageHeader title={t('chat.groupInfo.title')} back />
        {group.error ? (
          <LoadError error={group.error} onRetry={() => void group.refetch()} />
        ) : (
          <EmptyState title={t('chat.errors.groupNotFound')} />
        )}
      </main>
    );
  }

  const g = group.data;
  const list = members.data ?? [];
  const mine = list.find((m) => m.userID === me);
  const myRole = mine?.roleLevel ?? 0;
  const isAdmin = myRole >= GroupRole.admin;
  const isOwner = myRole === GroupRole.owner;
  const channel = g.groupType === GroupType.channel;

  const roleTag = (m: GroupMemberItem) => {
    const tags = [];
    if (m.roleLevel === GroupRole.owner) tags.push(<span key="o" className="chat-tag chat-tag--owner">{t('chat.groupInfo.owner')}</span>);
    if (m.roleLevel === GroupRole.admin) tags.push(<span key="a" className="chat-tag chat-tag--admin">{t('chat.groupInfo.admin')}</span>);
    if (m.muteEndTime > now) tags.push(<span key="m" className="chat-tag chat-tag--muted">{t('chat.groupInfo.mutedTag')}</span>);
    return tags.length > 0 ? <span className="group-info__tags">{tags}</span> : null;
  };

  const rows: Row[] = [{ kind: 'card', key: 'card' }];
  if (dismissed) {
    rows.push({ kind: 'header', key: 'dismissed', title: t('chat.errors.groupDismissed') });
  } else {
    rows.push({ kind: 'header', key: 'notice-h', title: t('chat.groupInfo.notice') });
    rows.push({ kind: 'notice', key: 'notice' });
    if (isAdmin) {
      rows.push({ kind: 'setting', key: 'edit-name', title: t('chat.groupInfo.editName'), value: g.groupName, to: groupEditPath(groupID, 'name') });
      rows.push({ kind: 'setting', key: 'edit-notice', title: t('chat.groupInfo.editNotice'), to: groupEditPath(groupID, 'notice') });
      rows.push({
        kind: 'setting',
        key: 'mute-all',
        title: t('chat.groupInfo.muteAll'),
        value: g.status === GroupStatus.muted ? t('chat.groupInfo.on') : t('chat.groupInfo.off'),
        onClick: () => {
          action.mutate(() => chat.changeGroupMute(groupID, g.status !== GroupStatus.muted));
        },
      });
      rows.push({ kind: 'setting', key: 'requests', title: t('chat.newGroup.title'), to: CHAT_PATHS.newGroup });
    }
    rows.push({ kind: 'header', key: 'members-h', title: t('chat.groupInfo.members', { count: g.memberCount }) });
    if (mine) rows.push({ kind: 'invite', key: 'invite' });
    for (const m of list) rows.push({ kind: 'member', key: m.userID, member: m });
    if (mine) rows.push({ kind: 'actions', key: 'actions' });
  }

  const memberMenu = (m: GroupMemberItem): SheetAction[] => {
    const acts: SheetAction[] = [{ label: t('chat.groupInfo.viewProfile'), onSelect: () => void navigate(userInfoPath(m.userID)) }];
    const canManage = isAdmin && m.userID !== me && m.roleLevel < myRole;
    if (!canManage) return acts;
    if (m.muteEndTime > now) {
      acts.push({ label: t('chat.groupInfo.unmute'), onSelect: () => { action.mutate(() => chat.changeGroupMemberMute(groupID, m.userID, 0)); } });
    } else {
      acts.push({ label: t('chat.groupInfo.mute'), onSelect: () => { setMuteFor(m); } });
    }
    if (isOwner) {
      acts.push(
        m.roleLevel === GroupRole.admin
          ? { label: t('chat.groupInfo.cancelAdmin'), onSelect: () => { action.mutate(() => chat.setGroupMemberRole(groupID, m.userID, GroupRole.member)); } }
          : { label: t('chat.groupInfo.setAdmin'), onSelect: () => { action.mutate(() => chat.setGroupMemberRole(groupID, m.userID, GroupRole.admin)); } },
      );
      acts.push({ label: t('chat.groupInfo.transfer'), onSelect: () => { setConfirm({ kind: 'transfer', member: m }); } });
    }
    acts.push({ label: t('chat.groupInfo.kick'), danger: true, onSelect: () => { setConfirm({ kind: 'kick', member: m }); } });
    return acts;
  };

  const renderRow = (row: Row) => {
    switch (row.kind) {
      case 'card':
        return (
          <section className="chat-profile-card group-info__card">
            <Avatar decorative name={g.groupName} src={g.faceURL} size={64} square />
            <div>
              <h2>{g.groupName}</h2>
              <p className="chat-muted-text">{channel ? t('chat.groupInfo.channel') : t('chat.groupInfo.group')}</p>
              <p className="chat-muted-text">{t('chat.groupInfo.id', { id: g.groupID })}</p>
            </div>
          </section>
        );
      case 'notice':
        return <p className="group-info__notice">{g.notification || t('chat.groupInfo.noNotice')}</p>;
      case 'setting':
        return (
          <ListRow
            title={row.title}
            to={row.to}
            onClick={row.onClick}
            right={
              <>
                {row.value ? <span>{row.value}</span> : null}
                <ChevronIcon />
              </>
            }
          />
        );
      case 'header':
        return <h2 className="chat-section-title">{row.title}</h2>;
      case 'invite':
        return (
          <ListRow
            onClick={() => {
              setInviting(true);
            }}
            left={
              <span className="chat-entry-icon" aria-hidden="true">
                <PlusIcon size={24} />
              </span>
            }
            title={t('chat.groupInfo.invite')}
          />
        );
      case 'member': {
        const m = row.member;
        const muted = m.muteEndTime > now;
        return (
          <ListRow
            onClick={() => {
              setMenuFor(m);
            }}
            left={<Avatar decorative name={m.nickname} src={m.faceURL} size={40} />}
            title={
              <>
                {m.nickname}
                {m.userID === me ? ` ${t('chat.groupInfo.me')}` : ''}
                {roleTag(m)}
              </>
            }
            subtitle={muted ? t('chat.groupInfo.mutedFor', { time: formatDuration(Math.ceil((m.muteEndTime - now) / 1000), t) }) : undefined}
            label={t('chat.groupInfo.memberLabel', { name: m.nickname })}
          />
        );
      }
      case 'actions':
        return (
          <div className="chat-actions">
            {isOwner ? (
              <button type="button" className="button button--block button--danger" onClick={() => { setConfirm({ kind: 'dismiss' }); }}>
                {channel ? t('chat.groupInfo.dismissChannel') : t('chat.groupInfo.dismiss')}
              </button>
            ) : (
              <button type="button" className="button button--block button--danger" onClick={() => { setConfirm({ kind: 'quit' }); }}>
                {channel ? t('chat.groupInfo.quitChannel') : t('chat.groupInfo.quit')}
              </button>
            )}
          </div>
        );
    }
  };

  let confirmDialog = null;
  if (confirm) {
    // What is asked, and what runs on yes: leaving or dismissing the group, or a step on one member.
    let ask: { label: string; text: string; run: () => Promise<unknown>; onSuccess?: () => void };
    if (!('member' in confirm)) {
      const quit = confirm.kind === 'quit';
      ask = {
        label: quit ? t('chat.groupInfo.quit') : t('chat.groupInfo.dismiss'),
        text: quit ? t('chat.groupInfo.quitConfirm', { name: g.groupName }) : t('chat.groupInfo.dismissConfirm', { name: g.groupName }),
        run: () => (quit ? chat.quitGroup(groupID) : chat.dismissGroup(groupID)),
        onSuccess: () => {
          void client.invalidateQueries({ queryKey: chatKeys.groups });
          void client.invalidateQueries({ queryKey: chatKeys.conversations });
          showToast(quit ? t('chat.groupInfo.quitDone') : t('chat.groupInfo.dismissDone'));
          if (quit) void navigate('/', { replace: true });
        },
      };
    } else {
      const m = confirm.member;
      const transfer = confirm.kind === 'transfer';
      ask = {
        label: transfer ? t('chat.groupInfo.transfer') : t('chat.groupInfo.kick'),
        text: transfer ? t('chat.groupInfo.transferConfirm', { name: m.nickname }) : t('chat.groupInfo.kickConfirm', { name: m.nickname }),
        run: () => (transfer ? chat.transferGroupOwner(groupID, m.userID) : chat.kickGroupMember(groupID, [m.userID])),
      };
    }
    confirmDialog = (
      <ConfirmDialog
        title={ask.label}
        text={ask.text}
        confirmLabel={ask.label}
        danger
        busy={action.isPending}
        onCancel={() => {
          setConfirm(null);
        }}
        onConfirm={() => {
          setConfirm(null);
          action.mutate(ask.run, ask.onSuccess ? { onSuccess: ask.onSuccess } : undefined);
        }}
      />
    );
  }

  return (
    <main className="chat-page">
      <PageHeader title={t('chat.groupInfo.title')} back />
      {members.error && !dismissed ? <p className="chat-form-error">{chatErrorText(members.error, t)}</p> : null}
      <VirtualList
        items={rows}
        label={t('chat.groupInfo.title')}
        getKey={(row) => row.key}
        onRefresh={() => Promise.all([group.refetch(), members.refetch()])}
        footer={members.isPending && !dismissed ? <Loading /> : null}
        renderItem={renderRow}
      />
      {menuFor ? (
        <ActionSheet
          title={menuFor.nickname}
          actions={memberMenu(menuFor)}
          onClose={() => {
            setMenuFor(null);
          }}
        />
      ) : null}
      {muteFor ? (
        <ActionSheet
          title={t('chat.groupInfo.muteTitle', { name: muteFor.nickname })}
          actions={MUTE_CHOICES.map((seconds) => ({
            label: formatDuration(seconds, t),
            onSelect: () => {
              const target = muteFor;
              action.mutate(() => chat.changeGroupMemberMute(groupID, target.userID, seconds), {
                onSuccess: () => {
                  showToast(t('chat.groupInfo.mutedDone', { name: target.nickname, time: formatDuration(seconds, t) }));
                },
              });
            },
          }))}
          onClose={() => {
            setMuteFor(null);
          }}
        />
      ) : null}
      {inviting ? (
        <InviteSheet
          groupID={groupID}
          members={list}
          onClose={() => {
            setInviting(false);
          }}
        />
      ) : null}
      {confirmDialog}
    </main>
  );
}
