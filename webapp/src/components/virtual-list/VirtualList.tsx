import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import { PullRefresh } from '../pull-refresh/PullRefresh';
import '../kit.css';

interface VirtualListProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  estimateSize?: number;
  label: string;
  /** Pull-to-refresh when given. */
  onRefresh?: () => Promise<unknown>;
  /** Shown under the rows (empty states, load more). */
  footer?: ReactNode;
}

/** A list that renders only the rows in view, in its own scrolling area filling the page. */
export function VirtualList<T>({ items, getKey, renderItem, estimateSize = 64, label, onRefresh, footer }: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer's methods read mutable state, so the React Compiler must not memoize this
  // component; the rule only reports that bail-out (facebook/react#34493). We do not run the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- skipping memoization here is correct
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    getItemKey: (i) => {
      const item = items[i];
      return item === undefined ? i : getKey(item);
    },
    overscan: 6,
  });
  const list = (
    <>
      <ul className="chat-vlist" style={{ height: virtualizer.getTotalSize() }} aria-label={label}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          return (
            <li
              key={row.key}
              className="chat-vlist__item"
              data-index={row.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {renderItem(item)}
            </li>
          );
        })}
      </ul>
      {footer}
    </>
  );
  return (
    <div className="chat-vlist__scroll chat-scroll" ref={scrollRef}>
      {onRefresh ? (
        <PullRefresh onRefresh={onRefresh} atTop={() => (scrollRef.current?.scrollTop ?? 0) <= 0}>
          {list}
        </PullRefresh>
      ) : (
        list
      )}
    </div>
  );
}
