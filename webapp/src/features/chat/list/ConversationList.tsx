import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { chat } from '../../../api/chat';
import type { ConversationItem } from '../../../api/socket/types';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { showToast } from '../../../state/toast';
import { ActionSheet, type SheetAction } from '../../../components/action-sheet/ActionSheet';
import { Loading, LoadError } from '../../../components/status/LoadState';
import { PullRefresh } from '../../../components/pull-refresh/PullRefresh';
import { useNow } from '../../../components/hooks/useNow';
import { CHAT_PATHS } from '../paths';
import { chatErrorText } from '../data/errors';
import { useConversations } from '../data/hooks';
import { isMuted } from '../data/badge';
import { deleteConversation, markReadLocally, setMuted, setPinned } from '../data/controls';
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

  /** Shown at once (data/controls.ts); a refusal is re-read and said. */
  const act = (run: () => Promise<unknown>): void => {
    run().catch((e: unknown) => {
      showToast(chatErrorText(e, t));
    });
  };

  const menu: SheetAction[] = menuFor
    ? [
        {
          label: menuFor.isPinned ? t('chat.list.unpin') : t('chat.list.pin'),
          onSelect: () => {
            const { conversationID: id, isPinned } = menuFor;
            act(() => setPinned(client, id, !isPinned));
          },
        },
        {
          label: isMuted(menuFor) ? t('chat.controls.unmute') : t('chat.controls.mute'),
          onSelect: () => {
            const { conversationID: id } = menuFor;
            const muted = isMuted(menuFor);
            act(() => setMuted(client, id, !muted));
          },
        },
        ...(menuFor.unreadCount > 0
          ? [
              {
                label: t('chat.list.markRead'),
                onSelect: () => {
                  const { conversationID: id } = menuFor;
                  markReadLocally(client, id);
                  act(() =>
                    chat.markConversationMessageAsRead(id).catch((e: unknown) => {
                      void client.invalidateQueries({ queryKey: chatKeys.conversations });
                      void client.invalidateQueries({ queryKey: chatKeys.unread });
                      throw e;
                    }),
                  );
                },
              },
            ]
          : []),
        {
          label: t('chat.list.delete'),
          danger: true,
          onSelect: () => {
            const { conversationID: id } = menuFor;
            act(() => deleteConversation(client, id));
          },
        },
      ]
    : [];

  let body;
  if (isPending) body = <Loading />;
  else if (error && !data) body = <LoadError error={error} onRetry={() => void refetch()} />;
  else if (list.length === 0) {
    // Nobody to talk to yet: the way to find someone is right here (issue 35 #4).
    body = (
      <EmptyState title={t('pages.chat.emptyTitle')} text={t('pages.chat.emptyText')}>
        <Link className="button" to={CHAT_PATHS.addFriend} data-testid="empty-add-friend">
          {t('chat.list.addFriend')}
        </Link>
      </EmptyState>
    );
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
        <PullRefresh
          atTop={() => (scrollRef.current?.scrollTop ?? 0) <= 0}
          onRefresh={() => Promise.all([refetch(), client.invalidateQueries({ queryKey: chatKeys.unread })])}
        >
          {body}
        </PullRefresh>
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
