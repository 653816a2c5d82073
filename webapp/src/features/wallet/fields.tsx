import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ParseKeys } from 'i18next';
import { SETTING_PATHS, withRedirect } from '../../navigation/paths';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PinField } from '../../components/form/PinField';
import { TextField } from '../../components/form/TextField';
import { parseAmount } from '../../format/amount';
import { AMOUNT_PROBLEM_KEYS } from '../../components/form/amountMessages';

/** An amount typed in a wallet form: the message key saying why it is refused, or null. */
export function checkAmount(amount: string): ParseKeys | null {
  const parsed = parseAmount(amount);
  return parsed.ok ? null : AMOUNT_PROBLEM_KEYS[parsed.problem];
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

/**
 * Points or currency: kept exactly as typed (up to two decimals are meant; anything else is
 * refused by checkAmount with its reason when the form is sent, never changed here).
 */
export function AmountField(props: AmountFieldProps) {
  return <TextField name="amount" inputMode="decimal" autoComplete="off" {...props} />;
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
