import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { walletSummaryQuery } from '../../account/queries';
import { MY_PATHS, SETTING_PATHS } from '../../../navigation/paths';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { FundPasswordForm } from './FundPasswordForm';

/**
 * Set the fund password; someone who came here with one is sent to the change form. The
 * password set on this page is not such a case: the form then returns where it was opened
 * from (the bank card form, the exchange), which the redirect would otherwise overtake.
 */
export function FundPasswordPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const wallet = useQuery(walletSummaryQuery);
  const [setHere, markSetHere] = useState(false);
  if (wallet.data?.hasFundPassword && !setHere) return <Navigate to={`${SETTING_PATHS.changeFundPassword}${search}`} replace />;
  const body = queryBody(wallet, () => (
    <FundPasswordForm
      change={false}
      onSaved={() => {
        markSetHere(true);
      }}
    />
  ));
  return (
    <main className="page">
      <PageHeader title={t('safety.setFundPassword')} back fallback={MY_PATHS.safetySetting} />
      {body}
    </main>
  );
}
