import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../app/PageLoading';
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
