import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { walletSummaryQuery } from '../../account/queries';
import { MY_PATHS, SETTING_PATHS } from '../../../navigation/paths';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { FundPasswordForm } from './FundPasswordForm';

/** Set the fund password; someone who has one is sent to the change form. */
export function FundPasswordPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const wallet = useQuery(walletSummaryQuery);
  if (wallet.data?.hasFundPassword) return <Navigate to={`${SETTING_PATHS.changeFundPassword}${search}`} replace />;
  const body = queryBody(wallet, () => <FundPasswordForm change={false} />);
  return (
    <main className="page">
      <PageHeader title={t('safety.setFundPassword')} back fallback={MY_PATHS.safetySetting} />
      {body}
    </main>
  );
}
