import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type ReactNode, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../status/PageLoading';
import { EmptyState } from '../empty-state/EmptyState';
import { ErrorState } from '../status/ErrorState';
import './InfiniteList.css';

/** What every paged list route answers. */
export interface ListPage<T> {
  list: T[];
  total: number;
  page: number;
}

/** For useInfiniteQuery: the next page while fewer than `total` items are loaded. */
export function nextPageParam<T>(last: ListPage<T>, pages: ListPage<T>[]): number | undefined {
  const loaded = pages.reduce((n, p) => n + p.list.length, 0);
  return loaded < last.total && last.list.length > 0 ? last.page + 1 : undefined;
}

/** Pull this far (px, after damping) and let go to refresh. */
export const PULL_THRESHOLD = 56;
const PULL_MAX = 96;

interface InfiniteListProps<T> {
  query: UseInfiniteQueryResult<InfiniteData<ListPage<T>>>;
  label: string;
  getKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Expected row height; rows are measured once shown. */
  estimateSize: number;
  emptyTitle: string;
  emptyText?: string;
}

/**
 * A virtualised list over an infinite query: only the rows in view (plus a few) are in the
 * DOM, the next page loads as the end comes into view, and pulling down at the top refreshes.
 * Loading, empty and error states included.
 */
export function InfiniteList<T>({ query, label, getKey, renderItem, estimateSize, emptyTitle, emptyText }: InfiniteListProps<T>) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const items = query.data?.pages.flatMap((p) => p.list) ?? [];
  const [pull, setPull] = useState(0);
  const start = useRef<number | null>(null);
  const refreshing = query.isRefetching && !query.isFetchingNextPage;

  // The virtualizer hands out fresh functions each render; nothing here memoizes them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimateSize,
    overscan: 6,
    initialRect: { width: 390, height: 700 },
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : getKey(item);
    },
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    if (lastIndex >= items.length - 3 && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      void fetchNextPage();
    }
  }, [lastIndex, items.length, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  const onTouchStart = (event: TouchEvent<HTMLDivElement>): void => {
    start.current = (scroller.current?.scrollTop ?? 0) <= 0 ? (event.touches[0]?.clientY ?? null) : null;
  };
  const onTouchMove = (event: TouchEvent<HTMLDivElement>): void => {
    if (start.current === null) return;
    const dy = (event.touches[0]?.clientY ?? start.current) - start.current;
    setPull(dy > 0 ? Math.min(dy * 0.5, PULL_MAX) : 0);
  };
  const onTouchEnd = (): void => {
    if (start.current !== null && pull >= PULL_THRESHOLD && !query.isFetching) void query.refetch();
    start.current = null;
    setPull(0);
  };

  let pullText = '';
  if (refreshing) pullText = t('kit.refreshing');
  else if (pull >= PULL_THRESHOLD) pullText = t('kit.releaseToRefresh');
  else if (pull > 0) pullText = t('kit.pullToRefresh');

  let body: ReactNode;
  if (query.isPending) {
    body = <PageLoading />;
  } else if (query.isError && items.length === 0) {
    body = (
      <ErrorState
        message={query.error.message}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  } else if (items.length === 0) {
    body = <EmptyState title={emptyTitle} text={emptyText} />;
  } else {
    body = (
      <>
        <ul className="infinite-list__rows" aria-label={label} style={{ height: virtualizer.getTotalSize() }}>
          {virtualItems.map((row) => {
            const item = items[row.index];
            if (item === undefined) return null;
            return (
              <li
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className="infinite-list__row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {renderItem(item)}
              </li>
            );
          })}
        </ul>
        <div className="infinite-list__footer">
          {isFetchingNextPage ? t('kit.loadingMore') : null}
          {isFetchNextPageError ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                void fetchNextPage();
              }}
            >
              {t('kit.loadMoreFailed')}
            </button>
          ) : null}
          {!hasNextPage && !isFetchingNextPage ? t('kit.noMore') : null}
        </div>
      </>
    );
  }

  return (
    <div
      ref={scroller}
      className="infinite-list"
      onTouchStart={onTouchStart}
      onTouchMove={onTouchMove}
      onTouchEnd={onTouchEnd}
      onTouchCancel={onTouchEnd}
    >
      <div
        className="infinite-list__pull"
        role="status"
        aria-live="polite"
        style={{ height: refreshing ? 40 : pull }}
      >
        {pullText}
      </div>
      {body}
    </div>
  );
}
