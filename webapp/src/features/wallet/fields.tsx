import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ParseKeys } from 'i18next';
import { SETTING_PATHS, withRedirect } from '../../navigation/paths';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PinField } from '../../components/form/PinField';
import { TextField } from '../../components/form/TextField';
import { sanitizeAmount } from '../account/validation';

/** An amount typed in a wallet form: required and a positive number of at most two decimals. */
export function checkAmount(amount: string, cents: number | null): ParseKeys | null {
  if (!amount) return 'validation.amountRequired';
  if (cents === null || cents <= 0) return 'validation.amountFormat';
  return null;
}

interface AmountFieldProps {
  label: string;
  placeholder: string;
  hint?: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
  trailing?: ReactNode;
}

/** Points or currency with at most two decimals; anything else typed is dropped as it comes. */
export function AmountField({ onChange, ...props }: AmountFieldProps) {
  return (
    <TextField
      name="amount"
      inputMode="decimal"
      autoComplete="off"
      onChange={(value) => {
        onChange(sanitizeAmount(value));
      }}
      {...props}
    />
  );
}

/** The 6-digit fund password that authorises a payout or a new bank card. */
export function FundPasswordField(props: { value: string; invalid: boolean; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return <PinField label={t('bank.fundPassword')} name="fund-password" placeholder={t('safety.fundPasswordPlaceholder')} {...props} />;
}

/** Shown instead of a form that needs a fund password the user has not set; setting one comes back here. */
export function NeedFundPassword({ text, returnTo }: { text: string; returnTo: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('bank.needFundPasswordTitle')} text={text}>
      <Link className="button" to={withRedirect(SETTING_PATHS.fundPassword, returnTo)}>
        {t('safety.setFundPassword')}
      </Link>
    </EmptyState>
  );
}
