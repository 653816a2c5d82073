import { useTranslation } from 'react-i18next';
import { MY_PATHS } from '../../../navigation/paths';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { FundPasswordForm } from './FundPasswordForm';

/** Change the fund password (5 wrong old passwords lock it for 10 minutes, server-side). */
export function ChangeFundPasswordPage() {
  const { t } = useTranslation();
  return (
    <main className="page">
      <PageHeader title={t('safety.changeFundPassword')} back fallback={MY_PATHS.safetySetting} />
      <FundPasswordForm change />
    </main>
  );
}
