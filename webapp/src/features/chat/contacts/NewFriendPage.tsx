import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
import { HandleResult, type FriendApplicationItem } from '../../../api/socket/types';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { showToast } from '../../../state/toast';
import { Avatar } from '../../../components/avatar/Avatar';
import { ListRow } from '../../../components/list-row/ListRow';
import { chatQueryGate } from '../../../components/status/LoadState';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { chatErrorText } from '../data/errors';
import { useFriendRequestsByMe, useFriendRequestsToMe, useMe } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { userInfoPath } from '../paths';
import { ApplicationState } from './ApplicationState';

type Row = { kind: 'header'; key: string; title: string } | { kind: 'request'; key: string; request: FriendApplicationItem; incoming: boolean };

/** /pages/chat/new-friend: friend applications to me (accept / refuse, 'Added') and mine. */
export function NewFriendPage() {
  const { t } = useTranslation();
  const me = useMe();
  const client = useQueryClient();
  const toMe = useFriendRequestsToMe();
  const byMe = useFriendRequestsByMe();
  const [busy, setBusy] = useState<string | null>(null);

  const answer = (request: FriendApplicationItem, accept: boolean): void => {
    if (busy) return;
    setBusy(request.fromUserID);
    const call = accept ? chat.acceptFriendApplication(request.fromUserID) : chat.refuseFriendApplication(request.fromUserID);
    call
      .then(() => {
        // Shown at once; the push and the re-read confirm it.
        client.setQueryData<FriendApplicationItem[]>(chatKeys.friendRequestsToMe, (list) =>
          list?.map((r) =>
            r.fromUserID === request.fromUserID
              ? { ...r, handleResult: accept ? HandleResult.accepted : HandleResult.refused }
              : r,
          ),
        );
        void client.invalidateQueries({ queryKey: chatKeys.friendRequests });
        if (accept) void client.invalidateQueries({ queryKey: chatKeys.friends });
      })
      .catch((e: unknown) => {
        showToast(chatErrorText(e, t));
      })
      .finally(() => {
        setBusy(null);
      });
  };

  const incoming = [...(toMe.data ?? [])].sort((a, b) => b.createTime - a.createTime);
  const outgoing = [...(byMe.data ?? [])].sort((a, b) => b.createTime - a.createTime);
  const rows: Row[] = [
    ...incoming.map((r) => ({ kind: 'request' as const, key: `in-${r.fromUserID}`, request: r, incoming: true })),
    ...(outgoing.length > 0 ? [{ kind: 'header' as const, key: 'sent', title: t('chat.newFriend.sent') }] : []),
    ...outgoing.map((r) => ({ kind: 'request' as const, key: `out-${r.toUserID}`, request: r, incoming: false })),
  ];

  const footer = chatQueryGate(toMe) ?? (rows.length === 0 ? <EmptyState title={t('chat.newFriend.empty')} /> : null);

  return (
    <main className="chat-page">
      <PageHeader title={t('chat.newFriend.title')} back />
      <VirtualList
        items={rows}
        label={t('chat.newFriend.title')}
        getKey={(row) => row.key}
        estimateSize={72}
        onRefresh={() => Promise.all([toMe.refetch(), byMe.refetch()])}
        footer={footer}
        renderItem={(row) => {
          if (row.kind === 'header') return <h2 className="chat-section-title">{row.title}</h2>;
          const r = row.request;
          const other = row.incoming
            ? { id: r.fromUserID, name: r.fromNickname, face: r.fromFaceURL }
            : { id: r.toUserID, name: r.toNickname, face: r.toFaceURL };
          return (
            <div className="request-row" data-user={other.id}>
              <ListRow
                to={other.id === me ? undefined : userInfoPath(other.id)}
                left={<Avatar decorative name={other.name} src={other.face} size={44} />}
                title={other.name}
                subtitle={r.reqMsg}
              />
              <div className="request-row__actions">
                <ApplicationState
                  result={r.handleResult}
                  busy={busy !== null}
                  onAnswer={
                    row.incoming
                      ? (accept) => {
                          answer(r, accept);
                        }
                      : undefined
                  }
                />
              </div>
            </div>
          );
        }}
      />
    </main>
  );
}
