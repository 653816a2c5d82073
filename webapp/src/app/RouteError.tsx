import { useTranslation } from 'react-i18next';
import { EmptyState } from '../components/empty-state/EmptyState';

/** Shown when a page fails to load or render (e.g. its chunk could not be fetched). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main className="page">
      <EmptyState title={t('errors.pageFailed')}>
        <button
          type="button"
          className="button"
          onClick={() => {
            window.location.reload();
          }}
        >
          {t('errors.reload')}
        </button>
      </EmptyState>
    </main>
  );
}
