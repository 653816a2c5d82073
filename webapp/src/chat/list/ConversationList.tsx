import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chat } from '../../api/chat';
import type { ConversationItem } from '../../api/socket/types';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { showToast } from '../../state/toast';
import { ActionSheet, type SheetAction } from '../components/ActionSheet';
import { Loading, LoadError } from '../components/LoadState';
import { PullToRefresh } from '../components/PullToRefresh';
import { useNow } from '../components/useNow';
import { chatErrorText } from '../data/errors';
import { useConversations } from '../data/hooks';
import { sortConversations } from '../data/ids';
import { chatKeys } from '../data/keys';
import { ConversationRow } from './ConversationRow';
import { ListToolbar } from './ListToolbar';

const ROW_HEIGHT = 72;

/** The signed-in chat tab: the virtualised conversations with their long-press menu. */
export function ConversationList({ me }: { me: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data, error, isPending, refetch } = useConversations();
  const now = useNow();
  const [menuFor, setMenuFor] = useState<ConversationItem | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const list = data ?? [];
  // The virtualizer's methods read mutable state, so the React Compiler must not memoize this
  // component; the rule only reports that bail-out (facebook/react#34493). We do not run the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- skipping memoization here is correct
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => list[i]?.conversationID ?? i,
    overscan: 6,
  });

  const update = (id: string, change: (c: ConversationItem) => ConversationItem | null): void => {
    client.setQueryData<ConversationItem[]>(chatKeys.conversations, (current) =>
      current
        ? sortConversations(
            current.flatMap((c) => {
              if (c.conversationID !== id) return [c];
              const next = change(c);
              return next ? [next] : [];
            }),
          )
        : current,
    );
  };

  /** Optimistic, rolled back (re-read) when the server refuses. */
  const act = (run: () => Promise<unknown>, optimistic: () => void): void => {
    optimistic();
    run().catch((e: unknown) => {
      showToast(chatErrorText(e, t));
      void client.invalidateQueries({ queryKey: chatKeys.conversations });
      void client.invalidateQueries({ queryKey: chatKeys.unread });
    });
  };

  const menu: SheetAction[] = menuFor
    ? [
        {
          label: menuFor.isPinned ? t('chat.list.unpin') : t('chat.list.pin'),
          onSelect: () => {
            const { conversationID: id, isPinned } = menuFor;
            act(
              () => chat.pinConversation(id, !isPinned),
              () => {
                update(id, (c) => ({ ...c, isPinned: !isPinned }));
              },
            );
          },
        },
        ...(menuFor.unreadCount > 0
          ? [
              {
                label: t('chat.list.markRead'),
                onSelect: () => {
                  const { conversationID: id, unreadCount } = menuFor;
                  act(
                    () => chat.markConversationMessageAsRead(id),
                    () => {
                      update(id, (c) => ({ ...c, unreadCount: 0 }));
                      client.setQueryData<number>(chatKeys.unread, (n) => Math.max(0, (n ?? 0) - unreadCount));
                    },
                  );
                },
              },
            ]
          : []),
        {
          label: t('chat.list.delete'),
          danger: true,
          onSelect: () => {
            const { conversationID: id, unreadCount } = menuFor;
            act(
              () => chat.deleteConversationAndDeleteAllMsg(id),
              () => {
                update(id, () => null);
                client.setQueryData<number>(chatKeys.unread, (n) => Math.max(0, (n ?? 0) - unreadCount));
                client.removeQueries({ queryKey: chatKeys.messages(id) });
              },
            );
          },
        },
      ]
    : [];

  let body;
  if (isPending) body = <Loading />;
  else if (error && !data) body = <LoadError error={error} onRetry={() => void refetch()} />;
  else if (list.length === 0) {
    body = <EmptyState title={t('pages.chat.emptyTitle')} text={t('pages.chat.emptyText')} />;
  } else {
    body = (
      <ul className="conversation-list" style={{ height: virtualizer.getTotalSize() }} aria-label={t('chat.list.label')}>
        {virtualizer.getVirtualItems().map((row) => {
          const c = list[row.index];
          if (!c) return null;
          return (
            <li
              key={row.key}
              className="conversation-list__item"
              style={{ transform: `translateY(${row.start}px)` }}
              data-index={row.index}
              ref={virtualizer.measureElement}
            >
              <ConversationRow conversation={c} me={me} now={now} onMenu={setMenuFor} />
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <>
      <ListToolbar />
      <div className="conversation-scroll chat-scroll" ref={scrollRef}>
        <PullToRefresh
          atTop={() => (scrollRef.current?.scrollTop ?? 0) <= 0}
          onRefresh={() => Promise.all([refetch(), client.invalidateQueries({ queryKey: chatKeys.unread })])}
        >
          {body}
        </PullToRefresh>
      </div>
      {menuFor ? (
        <ActionSheet
          title={menuFor.showName}
          actions={menu}
          onClose={() => {
            setMenuFor(null);
          }}
        />
      ) : null}
    </>
  );
}
