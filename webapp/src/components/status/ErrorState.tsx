import { useTranslation } from 'react-i18next';
import { EmptyState } from '../empty-state/EmptyState';

/** A load that failed: the reason and a way to try again. */
export function ErrorState({ message, onRetry }: { message?: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('kit.loadFailed')} text={message}>
      <button type="button" className="button" onClick={onRetry}>
        {t('kit.retry')}
      </button>
    </EmptyState>
  );
}
