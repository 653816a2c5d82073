import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { chat } from '../../../api/chat';
import { Avatar } from '../../../components/avatar/Avatar';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { ListRow } from '../../../components/list-row/ListRow';
import { Loading, LoadError } from '../../../components/status/LoadState';
import { formatTimeAgo } from '../../../format';
import { messageText } from '../data/preview';
import { retryAfterDrop } from '../data/queries';
import { conversationPath } from '../paths';
import { aroundMatch, groupMatches, highlightParts } from './highlight';
import './SearchPage.css';

/** Matches asked for per page. */
const PAGE = 20;

/** The words found, highlighted. */
export function Highlighted({ text, keyword }: { text: string; keyword: string }) {
  return (
    <>
      {highlightParts(aroundMatch(text, keyword), keyword).map((part, i) =>
        part.hit ? (
          <mark key={i} className="search-hit">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** The messages tab of the search: matches in every chat of the user, grouped by chat; a tap opens the chat at the message. */
export function MessageResults({ keyword, me }: { keyword: string; me: string }) {
  const { t } = useTranslation();
  const query = useInfiniteQuery({
    queryKey: ['chat', 'search-messages', keyword],
    queryFn: ({ pageParam }) => chat.searchMessages(keyword, pageParam, PAGE),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.totalCount > page * PAGE ? page + 1 : undefined),
    enabled: keyword !== '',
    retry: retryAfterDrop,
  });
  if (!keyword) return null;
  if (query.isPending) return <Loading />;
  if (!query.data) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const groups = groupMatches(query.data.pages.map((p) => p.searchResultItems ?? []));
  if (groups.length === 0) return <EmptyState title={t('chat.search.empty')} />;
  const count = groups.reduce((n, g) => n + g.messages.length, 0);
  return (
    <div className="chat-scroll search-messages" data-testid="message-results">
      <p className="search-messages__count" role="status">
        {t('chat.search.matches', { count })}
      </p>
      {groups.map((g) => (
        <section key={g.conversationID} aria-label={g.showName} data-conversation={g.conversationID}>
          <h2 className="chat-section-title">{g.showName}</h2>
          {g.messages.map((m) => (
            <ListRow
              key={m.clientMsgID}
              to={`${conversationPath(g.conversationID)}&seq=${m.seq}`}
              left={<Avatar decorative name={m.senderNickname} src={m.senderFaceUrl} size={40} square={false} />}
              title={
                <span className="search-messages__title">
                  <span>{m.senderNickname}</span>
                  <span className="search-messages__time">{formatTimeAgo(m.sendTime, t)}</span>
                </span>
              }
              subtitle={<Highlighted text={messageText(m, me, t)} keyword={keyword} />}
            />
          ))}
        </section>
      ))}
      {query.hasNextPage ? (
        <button
          type="button"
          className="button button--secondary search-messages__more"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? t('chat.search.searching') : t('chat.search.more')}
        </button>
      ) : null}
    </div>
  );
}
