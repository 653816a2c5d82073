import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageLoading } from './PageLoading';
import { ErrorState } from './ErrorState';

/**
 * What a page shows while the queries it needs are loading or have failed (the error with a
 * retry that asks for all of them again); null once every one has its data.
 */
export function queryGate(queries: readonly UseQueryResult[]): ReactNode {
  if (queries.some((query) => query.isPending)) return <PageLoading />;
  const failed = queries.find((query) => query.isError);
  if (!failed) return null;
  return (
    <ErrorState
      message={failed.error.message}
      onRetry={() => {
        for (const query of queries) void query.refetch();
      }}
    />
  );
}

/** What a page shows for one query: loading, the error with a retry, or `render` of its data. */
export function queryBody<T>(query: UseQueryResult<T>, render: (data: T) => ReactNode): ReactNode {
  return queryGate([query]) ?? (query.isSuccess ? render(query.data) : null);
}
