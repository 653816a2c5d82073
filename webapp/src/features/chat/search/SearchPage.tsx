import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
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
import { messageText, previewText } from '../data/preview';
import { retryAfterDrop } from '../data/queries';
import { conversationPath, userInfoPath } from '../paths';
import { formatTimeAgo } from '../../../format';
import { groupMatches } from './highlight';
import { Highlighted, MessageResults } from './MessageResults';

type Tab = 'all' | 'messages';

type Row =
  | { kind: 'header'; key: string; title: string }
  | { kind: 'item'; key: string; title: ReactNode; name: string; subtitle?: ReactNode; face: string; to: string; square: boolean }
  | { kind: 'more'; key: string; title: string; to: string };

/** The newest message matches shown in the "All" tab; the messages tab pages through the rest. */
const TOP_MESSAGES = 3;

function matches(text: string | undefined, query: string): boolean {
  return text?.toLowerCase().includes(query) ?? false;
}

/**
 * /pages/chat/search: conversations, contacts (by nickname, remark, id, or the account they
 * sign in with, which the server matches), groups and the newest messages matching the words
 * typed; the messages tab (?tab=messages) pages through every match in the user's chats.
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
      setParams({ tab, q: text.trim() }, { replace: true });
    }, 300);
    return () => {
      window.clearTimeout(id);
    };
  }, [text, tab, setParams]);
  const { data: conversations } = useConversations();
  const { data: friends } = useFriends();
  const { data: groups } = useJoinedGroups(0);
  const asked = tab === 'all' && keyword !== '';
  // Friends by their account too: the server knows it, the friend list does not carry it.
  const friendsFound = useQuery({
    queryKey: ['chat', 'search-friends', keyword],
    queryFn: () => chat.searchFriends(keyword),
    enabled: asked,
    retry: retryAfterDrop,
  });
  const messagesFound = useQuery({
    queryKey: ['chat', 'search-messages', keyword, 'top'],
    queryFn: () => chat.searchMessages(keyword, 1, TOP_MESSAGES),
    enabled: asked,
    retry: retryAfterDrop,
  });
  const searching = asked && (friendsFound.isPending || messagesFound.isPending);

  const rows: Row[] = [];
  if (query) {
    const convs = (conversations ?? []).filter((c) => matches(c.showName, query) || matches(c.conversationID, query));
    const byServer = new Set(friendsFound.data?.map((f) => f.userID) ?? []);
    const people = (friends ?? []).filter(
      (f) =>
        f.friendInfo &&
        (byServer.has(f.friendInfo.userID) ||
          matches(f.friendInfo.nickname, query) ||
          matches(f.friendInfo.remark, query) ||
          matches(f.friendInfo.userID, query)),
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
          name: c.showName,
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
          name: friendName(f),
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
          name: g.groupName,
          subtitle: t('chat.groupInfo.members', { count: g.memberCount }),
          face: g.faceURL,
          to: conversationPath(groupConversationID(g.groupID)),
          square: true,
        });
      }
    }
    const hits = groupMatches([messagesFound.data?.searchResultItems ?? []]);
    if (hits.length > 0) {
      rows.push({ kind: 'header', key: 'h-m', title: t('chat.search.tabMessages') });
      for (const g of hits) {
        for (const m of g.messages) {
          rows.push({
            kind: 'item',
            key: `m-${g.conversationID}-${m.clientMsgID}`,
            title: (
              <span className="search-messages__title">
                <span>{g.showName}</span>
                <span className="search-messages__time">{formatTimeAgo(m.sendTime, t)}</span>
              </span>
            ),
            name: g.showName,
            subtitle: <Highlighted text={`${m.senderNickname}: ${messageText(m, me, t)}`} keyword={keyword} />,
            face: g.faceURL,
            to: `${conversationPath(g.conversationID)}&seq=${m.seq}`,
            square: g.isGroup,
          });
        }
      }
      if ((messagesFound.data?.totalCount ?? 0) > TOP_MESSAGES) {
        rows.push({
          kind: 'more',
          key: 'm-more',
          title: t('chat.search.moreMessages'),
          to: `/pages/chat/search?${new URLSearchParams({ tab: 'messages', q: keyword }).toString()}`,
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
        searching ? null : <EmptyState title={t('chat.search.empty')} />
      ) : (
        <VirtualList
          items={rows}
          label={t('chat.search.results')}
          getKey={(row) => row.key}
          renderItem={(row) =>
            row.kind === 'header' ? (
              <h2 className="chat-section-title">{row.title}</h2>
            ) : row.kind === 'more' ? (
              <ListRow to={row.to} title={row.title} />
            ) : (
              <ListRow to={row.to} title={row.title} subtitle={row.subtitle} left={<Avatar decorative name={row.name} src={row.face} size={44} square={row.square} />} />
            )
          }
        />
      )}
    </main>
  );
}
