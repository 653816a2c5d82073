import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerMessage } from '../../api/customer';
import { MessageBubble } from './MessageBubble';
import type { OutgoingMessage } from './useCustomerChat';

type Row =
  | { key: string; kind: 'welcome'; text: string }
  | { key: string; kind: 'message'; message: CustomerMessage }
  | { key: string; kind: 'outgoing'; outgoing: OutgoingMessage };

interface MessageListProps {
  welcome: string | null;
  messages: readonly CustomerMessage[];
  outgoing: readonly OutgoingMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  onRetry: (clientMsgId: string) => void;
  onOpenImage: (url: string) => void;
  /** Bumped by the page when the user sends: the list goes to the newest message. */
  sendCount: number;
}

/** How close to the top (px) the list asks for older messages. */
const LOAD_OLDER_MARGIN = 240;

/**
 * The conversation, virtualised (only the rows near the screen are in the page). It stays at
 * the newest message while the user is there; scrolling up loads older pages, and the message
 * that was on top of the screen stays where it was when they arrive.
 */
export function MessageList({ welcome, messages, outgoing, hasOlder, loadingOlder, loadOlder, onRetry, onOpenImage, sendCount }: MessageListProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ key: string; offset: number } | null>(null);
  /** A message arrived while the user was reading further up: offer the way down. */
  const [unseen, setUnseen] = useState(false);
  const lastKey = useRef<string | null>(null);

  const rows = useMemo<Row[]>(() => {
    const list: Row[] = [];
    // The welcome text opens the conversation: it shows once the oldest page is in.
    if (welcome && !hasOlder) list.push({ key: 'welcome', kind: 'welcome', text: welcome });
    for (const message of messages) list.push({ key: message._id, kind: 'message', message });
    for (const o of outgoing) list.push({ key: `out:${o.clientMsgId}`, kind: 'outgoing', outgoing: o });
    return list;
  }, [welcome, hasOlder, messages, outgoing]);

  // The app is not built with the React Compiler; the virtualizer re-renders this list itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 8,
    paddingStart: 8,
    paddingEnd: 8,
    getItemKey: (index) => rows[index]?.key ?? index,
  });

  const toNewest = useCallback(() => {
    if (rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, virtualizer]);

  // New rows: keep the anchored message in place after older ones arrive, else follow the newest.
  useLayoutEffect(() => {
    const newest = rows[rows.length - 1]?.key ?? null;
    const grew = newest !== lastKey.current;
    lastKey.current = newest;
    const kept = anchor.current;
    if (kept) {
      const index = rows.findIndex((r) => r.key === kept.key);
      const start = virtualizer.measurementsCache[index]?.start;
      if (start !== undefined) virtualizer.scrollToOffset(start - kept.offset);
      anchor.current = null;
      return;
    }
    if (atBottom.current) toNewest();
    else if (grew) setUnseen(true);
  }, [rows, virtualizer, toNewest]);

  const goToNewest = useCallback(() => {
    atBottom.current = true;
    setUnseen(false);
    toNewest();
  }, [toNewest]);

  useEffect(() => {
    if (sendCount > 0) goToNewest();
  }, [sendCount, goToNewest]);

  const askForOlder = useCallback(() => {
    const el = scroller.current;
    if (!el || !hasOlder || loadingOlder) return;
    const short = el.scrollHeight <= el.clientHeight;
    if (!short && (atBottom.current || el.scrollTop > LOAD_OLDER_MARGIN)) return;
    const first = virtualizer.getVirtualItems().find((item) => item.end > el.scrollTop);
    if (first) anchor.current = { key: String(first.key), offset: first.start - el.scrollTop };
    loadOlder();
  }, [hasOlder, loadingOlder, loadOlder, virtualizer]);

  // A first page shorter than the screen cannot be scrolled: fetch on until it fills.
  useEffect(() => {
    askForOlder();
  }, [askForOlder, rows.length]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scroller}
      className="customer-page__messages"
      onScroll={(event) => {
        const el = event.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        if (atBottom.current && unseen) setUnseen(false);
        askForOlder();
      }}
    >
      {unseen ? (
        <button type="button" className="customer-page__unseen" onClick={goToNewest}>
          {t('customer.newMessages')}
        </button>
      ) : null}
      {loadingOlder ? <p className="muted-note customer-page__older">{t('common.loading')}</p> : null}
      <ol
        className="customer-page__list"
        aria-label={t('customer.messages')}
        data-loaded={messages.length}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <li
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="customer-page__row"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row.kind === 'welcome' ? (
                <div className="bubble-row" data-from="welcome">
                  <div className="bubble bubble--welcome">
                    <p className="bubble__text">{row.text}</p>
                  </div>
                </div>
              ) : row.kind === 'message' ? (
                <MessageBubble message={row.message} onOpenImage={onOpenImage} />
              ) : (
                <MessageBubble outgoing={row.outgoing} onRetry={onRetry} />
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
