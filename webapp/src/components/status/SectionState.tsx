import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A section of a page (not the whole page) that is still loading: a quiet line in its place. */
export function LoadingNote() {
  const { t } = useTranslation();
  return <p className="muted-note">{t('common.loading')}</p>;
}

/** A section of a page whose load failed: the reason and a retry, in place, the rest of the page still usable. */
export function InlineError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="inline-error" role="alert">
      <p>{message}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('discover.retry')}
      </button>
    </div>
  );
}

/** What a section shows for its query until it has data: the loading line, or the error with a retry; null once it has. */
export function sectionGate(query: UseQueryResult | UseInfiniteQueryResult): ReactNode {
  if (query.isPending) return <LoadingNote />;
  if (query.isError) return <InlineError message={query.error.message} onRetry={() => void query.refetch()} />;
  return null;
}
