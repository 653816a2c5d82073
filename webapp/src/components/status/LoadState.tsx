import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from './PageLoading';
import { EmptyState } from '../empty-state/EmptyState';
import { chatErrorText } from '../../features/chat/data/errors';

interface LoadStateProps {
  error: unknown;
  onRetry: () => void;
}

/** The error state of a chat screen, with a retry button. */
export function LoadError({ error, onRetry }: LoadStateProps) {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('chat.loadFailed')} text={chatErrorText(error, t)}>
      <button type="button" className="button" onClick={onRetry}>
        {t('chat.retry')}
      </button>
    </EmptyState>
  );
}

export { PageLoading as Loading };

/**
 * What a chat list shows while its query loads, or after it failed with nothing to show (the
 * error with a retry); null once there is data, even if a later refetch failed.
 */
export function chatQueryGate(query: { isPending: boolean; error: unknown; data: unknown; refetch: () => Promise<unknown> }): ReactNode {
  if (query.isPending) return <PageLoading />;
  if (query.error && !query.data) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return null;
}
