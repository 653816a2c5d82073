import { useEffect } from 'react';

interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * Asks `query` for its next page once the row in view, `shown` (undefined: none yet), comes
 * within `margin` rows of the last of the `count` loaded; one request at a time.
 */
export function useNextPageNearEnd(query: PagedQuery, shown: number | undefined, count: number, margin: number): void {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (shown !== undefined && shown >= count - margin && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [shown, count, margin, hasNextPage, isFetchingNextPage, fetchNextPage]);
}
