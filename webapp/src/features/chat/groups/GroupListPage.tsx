import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { GroupType } from '../../../api/socket/types';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { Avatar } from '../../../components/avatar/Avatar';
import { PlusIcon } from '../../../components/icons/Icons';
import { ListRow } from '../../../components/list-row/ListRow';
import { chatQueryGate } from '../../../components/status/LoadState';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { useJoinedGroups } from '../data/hooks';
import { groupConversationID } from '../data/ids';
import { conversationPath, createGroupPath } from '../paths';

/** /pages/chat/group-list?type=2 (my groups) or 3 (my channels). */
export function GroupListPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const type = params.get('type') === String(GroupType.channel) ? GroupType.channel : GroupType.group;
  const groups = useJoinedGroups(type);
  const title = type === GroupType.channel ? t('chat.groupList.channels') : t('chat.groupList.groups');
  const list = groups.data ?? [];

  const empty = <EmptyState title={type === GroupType.channel ? t('chat.groupList.noChannels') : t('chat.groupList.noGroups')} />;
  const footer = chatQueryGate(groups) ?? (list.length === 0 ? empty : null);

  return (
    <main className="chat-page">
      <PageHeader
        title={title}
        back
        action={
          <Link
            to={createGroupPath(type)}
            className="icon-button chat-icon-button"
            aria-label={type === GroupType.channel ? t('chat.list.createChannel') : t('chat.list.createGroup')}
          >
            <PlusIcon size={24} />
          </Link>
        }
      />
      <VirtualList
        items={list}
        label={title}
        getKey={(g) => g.groupID}
        onRefresh={() => groups.refetch()}
        footer={footer}
        renderItem={(g) => (
          <ListRow
            to={conversationPath(groupConversationID(g.groupID))}
            left={<Avatar decorative name={g.groupName} src={g.faceURL} size={44} square />}
            title={g.groupName}
            subtitle={t('chat.groupInfo.members', { count: g.memberCount })}
          />
        )}
      />
    </main>
  );
}
