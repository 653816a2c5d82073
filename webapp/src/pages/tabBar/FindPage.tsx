import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';

export function FindPage() {
  const { t } = useTranslation();
  return (
    <main>
      <PageHeader title={t('pages.find.title')} />
      <EmptyState title={t('pages.find.emptyTitle')} text={t('pages.find.emptyText')} />
    </main>
  );
}
