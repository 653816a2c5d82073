import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FullUserItem } from '../../../api/socket/types';
import { currentLanguage } from '../../../i18n';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { Avatar } from '../../../components/avatar/Avatar';
import { Badge } from '../../../components/badge/Badge';
import { ChannelIcon, ContactsIcon, GroupIcon, PersonAddIcon, PlusIcon } from '../../../components/icons/Icons';
import { ListRow } from '../../../components/list-row/ListRow';
import { chatQueryGate } from '../../../components/status/LoadState';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { useFriends, usePendingFriendRequests, usePendingGroupRequests } from '../data/hooks';
import { friendName } from '../data/names';
import { CHAT_PATHS, groupListPath, userInfoPath } from '../paths';

type Row =
  | { kind: 'entry'; key: string; title: string; to: string; badge: number; icon: ReactNode }
  | { kind: 'header'; key: string; title: string }
  | { kind: 'friend'; key: string; friend: FullUserItem; name: string };

/** /pages/chat/contacts: new friends, new groups, my groups, my channels, then the friends. */
export function ContactsPage() {
  const { t, i18n } = useTranslation();
  const friends = useFriends();
  const newFriends = usePendingFriendRequests();
  const newGroups = usePendingGroupRequests();

  const sorted = [...(friends.data ?? [])]
    .filter((f) => f.friendInfo)
    .map((friend) => ({ friend, name: friendName(friend) }))
    .sort((a, b) => a.name.localeCompare(b.name, currentLanguage(i18n)));

  const rows: Row[] = [
    { kind: 'entry', key: 'new-friend', title: t('chat.newFriend.title'), to: CHAT_PATHS.newFriend, badge: newFriends, icon: <PersonAddIcon /> },
    { kind: 'entry', key: 'new-group', title: t('chat.newGroup.title'), to: CHAT_PATHS.newGroup, badge: newGroups, icon: <ContactsIcon /> },
    { kind: 'entry', key: 'groups', title: t('chat.groupList.groups'), to: groupListPath(2), badge: 0, icon: <GroupIcon /> },
    { kind: 'entry', key: 'channels', title: t('chat.groupList.channels'), to: groupListPath(3), badge: 0, icon: <ChannelIcon /> },
    { kind: 'header', key: 'friends-header', title: t('chat.contacts.friends', { count: sorted.length }) },
    ...sorted.map(({ friend, name }) => ({ kind: 'friend' as const, key: friend.friendInfo?.userID ?? name, friend, name })),
  ];

  const footer = chatQueryGate(friends) ?? (sorted.length === 0 ? <p className="chat-section-title">{t('chat.contacts.empty')}</p> : null);

  return (
    <main className="chat-page">
      <PageHeader
        title={t('chat.contacts.title')}
        back
        action={
          <Link to={CHAT_PATHS.addFriend} className="icon-button chat-icon-button" aria-label={t('chat.addFriend.title')}>
            <PlusIcon size={24} />
          </Link>
        }
      />
      <VirtualList
        items={rows}
        label={t('chat.contacts.title')}
        getKey={(row) => row.key}
        onRefresh={() => friends.refetch()}
        footer={footer}
        renderItem={(row) => {
          if (row.kind === 'header') return <h2 className="chat-section-title">{row.title}</h2>;
          if (row.kind === 'entry') {
            return (
              <ListRow
                to={row.to}
                title={row.title}
                left={
                  <span className="chat-entry-icon" aria-hidden="true">
                    {row.icon}
                  </span>
                }
                right={<Badge count={row.badge} />}
                label={row.badge > 0 ? t('chat.contacts.entryWithCount', { name: row.title, count: row.badge }) : row.title}
              />
            );
          }
          const info = row.friend.friendInfo;
          return (
            <ListRow
              to={userInfoPath(info?.userID ?? '')}
              title={row.name}
              subtitle={info?.remark && info.remark !== info.nickname ? info.nickname : undefined}
              left={<Avatar decorative name={row.name} src={info?.faceURL} size={44} />}
            />
          );
        }}
      />
    </main>
  );
}
