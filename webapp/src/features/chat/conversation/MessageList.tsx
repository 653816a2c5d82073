import { useVirtualizer } from '@tanstack/react-virtual';
import { forwardRef, useCallback, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../data/messages';
import { isMarkNotice } from '../data/marks';
import { useNow } from '../../../components/hooks/useNow';
import { MessageRow } from './MessageRow';
import '../mentions.css';

export interface MessageListHandle {
  scrollToEnd: () => void;
}

interface MessageListProps {
  messages: ChatMessage[];
  isEnd: boolean;
  me: string;
  isGroup: boolean;
  loadOlder: () => Promise<unknown>;
  selecting: boolean;
  selected: ReadonlySet<string>;
  onToggleSelect: (message: ChatMessage) => void;
  onMenu: (message: ChatMessage) => void;
  onRetry: (message: ChatMessage) => void;
  onReaders: (message: ChatMessage) => void;
  /** The list key of a message to bring to the middle and flash (opened from a search). */
  focusKey?: string | null;
  /** Senders' avatars now, by user id: old messages show a changed avatar, not the one sent with. */
  faces?: ReadonlyMap<string, string>;
}

/** Start loading older history this close to the top. */
const LOAD_OLDER_PX = 400;

/**
 * The virtualised messages, anchored at the bottom: it opens at the newest message, follows
 * new ones while the reader is at the end, and keeps the row under the reader still when
 * older history is prepended (anchorTo 'end' of @tanstack/react-virtual).
 */
export const MessageList = forwardRef<MessageListHandle, MessageListProps>(function MessageList(
  { messages: held, isEnd, me, isGroup, loadOlder, selecting, selected, onToggleSelect, onMenu, onRetry, onReaders, focusKey, faces },
  ref,
) {
  const { t } = useTranslation();
  // Reactions and edits are notices that change another message (data/marks.ts): not rows.
  const messages = useMemo(() => held.filter((m) => !isMarkNotice(m)), [held]);
  /** The reader is at (or near) the newest message; else a new one offers the way down. */
  const atBottom = useRef(true);
  const [unseen, setUnseen] = useState(false);
  const newestKey = useRef<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const loading = useRef(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const opened = useRef(false);
  const now = useNow();

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 76,
    getItemKey: (i) => messages[i]?.localKey ?? i,
    overscan: 8,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 80,
    paddingStart: 8,
    paddingEnd: 8,
  });

  useImperativeHandle(ref, () => ({
    scrollToEnd: () => {
      virtualizer.scrollToEnd();
    },
  }));

  // Open at the newest message.
  useLayoutEffect(() => {
    if (!opened.current && messages.length > 0) {
      opened.current = true;
      virtualizer.scrollToEnd();
    }
  }, [messages.length, virtualizer]);

  // Bring the focused message to the middle once it is held.
  const focusedIndex = focusKey ? messages.findIndex((m) => m.localKey === focusKey) : -1;
  const shownFocus = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!focusKey || focusedIndex < 0 || shownFocus.current === focusKey) return;
    shownFocus.current = focusKey;
    opened.current = true;
    virtualizer.scrollToIndex(focusedIndex, { align: 'center' });
  }, [focusKey, focusedIndex, virtualizer]);

  // A message arriving below while the reader is further up: "new messages ↓".
  const lastKey = messages[messages.length - 1]?.localKey ?? null;
  useLayoutEffect(() => {
    const grew = newestKey.current !== null && lastKey !== newestKey.current;
    newestKey.current = lastKey;
    if (grew && !atBottom.current) setUnseen(true);
  }, [lastKey]);

  const goToNewest = useCallback(() => {
    atBottom.current = true;
    setUnseen(false);
    virtualizer.scrollToEnd();
  }, [virtualizer]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el) {
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
      if (atBottom.current) setUnseen(false);
    }
  }, []);

  const maybeLoadOlder = useCallback(() => {
    const el = scrollRef.current;
    if (!el || isEnd || loading.current || !opened.current) return;
    if (el.scrollTop > LOAD_OLDER_PX) return;
    loading.current = true;
    setLoadingOlder(true);
    void loadOlder().finally(() => {
      loading.current = false;
      setLoadingOlder(false);
    });
  }, [isEnd, loadOlder]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      className="msg-scroll chat-scroll"
      ref={scrollRef}
      onScroll={() => {
        onScroll();
        maybeLoadOlder();
      }}
      data-testid="message-list"
    >
      <div className="msg-history-edge" aria-live="polite">
        {isEnd ? t('chat.conversation.noMore') : loadingOlder ? t('chat.conversation.loadingOlder') : ''}
      </div>
      <div className="msg-list" style={{ height: virtualizer.getTotalSize() }} role="log" aria-label={t('chat.conversation.messages')}>
        {items.map((row) => {
          const m = messages[row.index];
          if (!m) return null;
          return (
            <div
              key={row.key}
              className={m.localKey === focusKey ? 'msg-list__item msg-list__item--focus' : 'msg-list__item'}
              data-focused={m.localKey === focusKey ? 'true' : undefined}
              data-index={row.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <MessageRow
                message={m}
                previous={messages[row.index - 1]}
                me={me}
                now={now}
                isGroup={isGroup}
                selecting={selecting}
                selected={selected.has(m.localKey)}
                onToggleSelect={onToggleSelect}
                onMenu={onMenu}
                onRetry={onRetry}
                onReaders={onReaders}
                currentFace={faces?.get(m.sendID)}
              />
            </div>
          );
        })}
      </div>
      {unseen ? (
        <button type="button" className="msg-unseen" onClick={goToNewest} data-testid="new-messages">
          {t('chat.conversation.newMessages')}
        </button>
      ) : null}
    </div>
  );
});
