import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';

export function ChatPage() {
  const { t } = useTranslation();
  return (
    <main>
      <PageHeader title={t('pages.chat.title')} />
      <EmptyState title={t('pages.chat.emptyTitle')} text={t('pages.chat.emptyText')} />
    </main>
  );
}
