import { useTranslation } from 'react-i18next';
import './PageLoading.css';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="progressbar" aria-label={t('common.loading')} aria-busy="true">
      <span className="spinner page-loading__spinner" aria-hidden="true" />
    </div>
  );
}
