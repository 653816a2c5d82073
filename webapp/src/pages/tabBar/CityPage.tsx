import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';

export function CityPage() {
  const { t } = useTranslation();
  return (
    <main>
      <PageHeader title={t('pages.city.title')} />
      <EmptyState title={t('pages.city.emptyTitle')} text={t('pages.city.emptyText')} />
    </main>
  );
}
