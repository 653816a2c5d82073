import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { Avatar } from '../../../components/avatar/Avatar';
import { ListRow } from '../../../components/list-row/ListRow';
import { VirtualList } from '../../../components/virtual-list/VirtualList';
import { SegmentTabs } from '../../../components/tabs/SegmentTabs';
import { friendName } from '../data/names';
import { useConversations, useFriends, useJoinedGroups, useMe } from '../data/hooks';
import { groupConversationID, parseLatestMessage } from '../data/ids';
import { previewText } from '../data/preview';
import { conversationPath, userInfoPath } from '../paths';
import { MessageResults } from './MessageResults';

type Tab = 'all' | 'messages';

type Row =
  | { kind: 'header'; key: string; title: string }
  | { kind: 'item'; key: string; title: string; subtitle?: string; face: string; to: string; square: boolean };

function matches(text: string | undefined, query: string): boolean {
  return text?.toLowerCase().includes(query) ?? false;
}

/**
 * /pages/chat/search: conversations, contacts and groups matching the words typed; the
 * messages tab (?tab=messages) searches the text of every chat on the server.
 */
export function SearchPage() {
  const { t } = useTranslation();
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'messages' ? 'messages' : 'all';
  const [text, setText] = useState(params.get('q') ?? '');
  const query = useDeferredValue(text.trim().toLowerCase());
  // The messages tab asks the server once typing pauses, not on every key.
  const [keyword, setKeyword] = useState(text.trim());
  useEffect(() => {
    const id = window.setTimeout(() => {
      setKeyword(text.trim());
      // Kept in the URL, so coming back from a result shows the same search.
      if (tab === 'messages') setParams({ tab, q: text.trim() }, { replace: true });
    }, 300);
    return () => {
      window.clearTimeout(id);
    };
  }, [text, tab, setParams]);
  const { data: conversations } = useConversations();
  const { data: friends } = useFriends();
  const { data: groups } = useJoinedGroups(0);

  const rows: Row[] = [];
  if (query) {
    const convs = (conversations ?? []).filter((c) => matches(c.showName, query) || matches(c.conversationID, query));
    const people = (friends ?? []).filter(
      (f) =>
        f.friendInfo &&
        (matches(f.friendInfo.nickname, query) || matches(f.friendInfo.remark, query) || matches(f.friendInfo.userID, query)),
    );
    const found = (groups ?? []).filter((g) => matches(g.groupName, query) || matches(g.groupID, query));
    if (convs.length > 0) {
      rows.push({ kind: 'header', key: 'h-c', title: t('chat.search.conversations') });
      for (const c of convs) {
        const latest = parseLatestMessage(c);
        rows.push({
          kind: 'item',
          key: `c-${c.conversationID}`,
          title: c.showName,
          subtitle: latest ? previewText(latest, me, Boolean(c.groupID), t) : undefined,
          face: c.faceURL,
          to: conversationPath(c.conversationID),
          square: Boolean(c.groupID),
        });
      }
    }
    if (people.length > 0) {
      rows.push({ kind: 'header', key: 'h-f', title: t('chat.search.contacts') });
      for (const f of people) {
        rows.push({
          kind: 'item',
          key: `f-${f.friendInfo?.userID ?? ''}`,
          title: friendName(f),
          subtitle: t('chat.userInfo.id', { id: f.friendInfo?.userID ?? '' }),
          face: f.friendInfo?.faceURL ?? '',
          to: userInfoPath(f.friendInfo?.userID ?? ''),
          square: false,
        });
      }
    }
    if (found.length > 0) {
      rows.push({ kind: 'header', key: 'h-g', title: t('chat.search.groups') });
      for (const g of found) {
        rows.push({
          kind: 'item',
          key: `g-${g.groupID}`,
          title: g.groupName,
          subtitle: t('chat.groupInfo.members', { count: g.memberCount }),
          face: g.faceURL,
          to: conversationPath(groupConversationID(g.groupID)),
          square: true,
        });
      }
    }
  }

  return (
    <main className="chat-page">
      <PageHeader title={t('chat.search.title')} back />
      <div className="chat-page__fixed chat-search-form">
        <input
          className="chat-input"
          type="search"
          autoFocus
          value={text}
          placeholder={tab === 'messages' ? t('chat.search.messagesPlaceholder') : t('chat.search.placeholder')}
          aria-label={tab === 'messages' ? t('chat.search.messagesPlaceholder') : t('chat.search.placeholder')}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </div>
      <div className="chat-page__fixed">
        <SegmentTabs<Tab>
          label={t('chat.search.title')}
          segments={[
            { value: 'all', label: t('chat.search.tabAll') },
            { value: 'messages', label: t('chat.search.tabMessages') },
          ]}
          value={tab}
          onChange={(next) => {
            setParams({ tab: next, q: text }, { replace: true });
          }}
        />
      </div>
      {tab === 'messages' ? (
        <MessageResults keyword={keyword} me={me} />
      ) : query && rows.length === 0 ? (
        <EmptyState title={t('chat.search.empty')} />
      ) : (
        <VirtualList
          items={rows}
          label={t('chat.search.results')}
          getKey={(row) => row.key}
          renderItem={(row) =>
            row.kind === 'header' ? (
              <h2 className="chat-section-title">{row.title}</h2>
            ) : (
              <ListRow to={row.to} title={row.title} subtitle={row.subtitle} left={<Avatar decorative name={row.title} src={row.face} size={44} square={row.square} />} />
            )
          }
        />
      )}
    </main>
  );
}
