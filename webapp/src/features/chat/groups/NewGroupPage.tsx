import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { chat, getGroupByName } from '../../../api/chat';
import type { GroupApplicationItem, GroupItem } from '../../../api/socket/types';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { Avatar } from '../../../components/avatar/Avatar';
import { ListRow } from '../../../components/list-row/ListRow';
import { chatQueryGate } from '../../../components/status/LoadState';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { chatErrorText } from '../data/errors';
import { useGroupRequests } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { userInfoPath } from '../paths';
import { ApplicationState } from '../contacts/ApplicationState';
import { ChatSearchForm } from '../ChatSearchForm';
import './groups.css';

type Row =
  | { kind: 'header'; key: string; title: string }
  | { kind: 'request'; key: string; request: GroupApplicationItem }
  | { kind: 'found'; key: string; group: GroupItem };

/**
 * /pages/chat/new-group: applications to join my groups (owner and admins answer them), and
 * a search by group name to apply to one.
 */
export function NewGroupPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const requests = useGroupRequests();
  const [name, setName] = useState('');
  const search = useMutation({ mutationFn: (n: string) => getGroupByName(n) });
  const [busy, setBusy] = useState(false);

  const run = (work: () => Promise<unknown>, done: string): void => {
    if (busy) return;
    setBusy(true);
    work()
      .then(() => {
        showToast(done);
        void client.invalidateQueries({ queryKey: chatKeys.groupRequests });
        void client.invalidateQueries({ queryKey: chatKeys.groups });
      })
      .catch((e: unknown) => {
        showToast(chatErrorText(e, t));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const onSearch = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const n = name.trim();
    if (n && !search.isPending) search.mutate(n);
  };

  const list = [...(requests.data ?? [])].sort((a, b) => b.reqTime - a.reqTime);
  const found = search.data ?? [];
  const rows: Row[] = [
    ...found.map((g) => ({ kind: 'found' as const, key: `g-${g.groupID}`, group: g })),
    { kind: 'header', key: 'requests', title: t('chat.newGroup.requests') },
    ...list.map((r) => ({ kind: 'request' as const, key: `r-${r.groupID}-${r.userID}`, request: r })),
  ];

  const footer = chatQueryGate(requests) ?? (list.length === 0 ? <EmptyState title={t('chat.newGroup.empty')} /> : null);

  return (
    <main className="chat-page">
      <PageHeader title={t('chat.newGroup.title')} back />
      <ChatSearchForm
        fixed
        value={name}
        maxLength={64}
        placeholder={t('chat.newGroup.searchPlaceholder')}
        busy={search.isPending}
        onChange={setName}
        onSubmit={onSearch}
      />
      {search.isSuccess && found.length === 0 ? <p className="chat-section-title">{t('chat.search.empty')}</p> : null}
      <VirtualList
        items={rows}
        label={t('chat.newGroup.title')}
        getKey={(row) => row.key}
        estimateSize={72}
        onRefresh={() => requests.refetch()}
        footer={footer}
        renderItem={(row) => {
          if (row.kind === 'header') return <h2 className="chat-section-title">{row.title}</h2>;
          if (row.kind === 'found') {
            const g = row.group;
            return (
              <div className="request-row">
                <ListRow
                  left={<Avatar decorative name={g.groupName} src={g.faceURL} size={44} square />}
                  title={g.groupName}
                  subtitle={t('chat.groupInfo.members', { count: g.memberCount })}
                />
                <div className="request-row__actions">
                  <button
                    type="button"
                    className="chat-small-button"
                    disabled={busy}
                    onClick={() => {
                      run(() => chat.joinGroup(g.groupID, ''), t('chat.newGroup.applied'));
                    }}
                  >
                    {t('chat.newGroup.join')}
                  </button>
                </div>
              </div>
            );
          }
          const r = row.request;
          return (
            <div className="request-row">
              <ListRow
                to={userInfoPath(r.userID)}
                left={<Avatar decorative name={r.nickname} src={r.userFaceURL} size={44} />}
                title={t('chat.newGroup.wantsToJoin', { name: r.nickname, group: r.groupName })}
                subtitle={r.reqMsg}
              />
              <div className="request-row__actions">
                <ApplicationState
                  result={r.handleResult}
                  busy={busy}
                  onAnswer={(accept) => {
                    if (accept) run(() => chat.acceptGroupApplication(r.groupID, r.userID), t('chat.newFriend.added'));
                    else run(() => chat.refuseGroupApplication(r.groupID, r.userID), t('chat.newFriend.refused'));
                  }}
                />
              </div>
            </div>
          );
        }}
      />
    </main>
  );
}
