import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';

export function LovePage() {
  const { t } = useTranslation();
  return (
    <main>
      <PageHeader title={t('pages.love.title')} />
      <EmptyState title={t('pages.love.emptyTitle')} text={t('pages.love.emptyText')} />
    </main>
  );
}
