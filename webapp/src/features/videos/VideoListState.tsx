import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state/EmptyState';

interface VideoListStateProps {
  videos: Pick<UseInfiniteQueryResult, 'isPending' | 'isError' | 'error' | 'refetch'>;
  count: number;
  emptyText: string;
  /** The loading line's class (the feed draws it over video). */
  loadingClassName?: string;
  children: ReactNode;
}

/** A video list's loading line, its failure with a retry, or its empty state; the list once there is one. */
export function VideoListState({ videos, count, emptyText, loadingClassName = 'muted-note', children }: VideoListStateProps) {
  const { t } = useTranslation();
  if (videos.isPending) return <p className={loadingClassName}>{t('common.loading')}</p>;
  if (videos.isError) {
    return (
      <EmptyState title={t('videos.loadFailed')} text={videos.error?.message}>
        <button type="button" className="button" onClick={() => void videos.refetch()}>
          {t('discover.retry')}
        </button>
      </EmptyState>
    );
  }
  if (count === 0) return <EmptyState title={t('pages.love.emptyTitle')} text={emptyText} />;
  return children;
}
