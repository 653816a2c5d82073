import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../../api/accounts';
import { walletApi, type WalletSummary } from '../../../api/wallet';
import { queryKeys } from '../../account/queries';
import { checkConfirmation, checkFundPassword } from '../../account/validation';
import { MY_PATHS } from '../../../navigation/paths';
import { useReturn } from '../../../navigation/useReturn';
import { FormMessage } from '../../../components/form/FormMessage';
import { PinField } from '../../../components/form/PinField';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { showToast } from '../../../state/toast';

type Field = 'old' | 'password' | 'confirm';

/** Set (no fund password yet) or change (with the old one) the 6-digit fund password. */
export function FundPasswordForm({ change, onSaved }: { change: boolean; onSaved?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const done = useReturn(MY_PATHS.safetySetting);
  const form = useFormChecks<Field>();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const save = useMutation({
    mutationFn: () => (change ? walletApi.changeFundPassword(oldPassword, password) : walletApi.setFundPassword(password)),
    onSuccess: () => {
      onSaved?.();
      queryClient.setQueryData<UserInfo>(queryKeys.user, (old) => (old ? { ...old, hasFundPassword: true } : old));
      queryClient.setQueryData<WalletSummary>(queryKeys.wallet, (old) => (old ? { ...old, hasFundPassword: true } : old));
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
      showToast(change ? t('safety.fundPasswordChanged') : t('safety.fundPasswordSet'));
      done();
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    const ready = form.ready([
      ['old', change ? checkFundPassword(oldPassword) : null],
      ['password', checkFundPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
      ['password', change && oldPassword === password ? 'validation.fundPasswordSame' : null],
    ]);
    if (ready) save.mutate();
  };

  // The old one (only when changing), then the new one twice.
  const all: [Field, string, string, string, (value: string) => void][] = [
    ['old', t('safety.oldFundPassword'), 'old-fund-password', oldPassword, setOld],
    ['password', t('safety.newFundPassword'), 'fund-password', password, setPassword],
    ['confirm', t('safety.confirmFundPassword'), 'confirm-fund-password', confirm, setConfirm],
  ];
  const fields = change ? all : all.slice(1);

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="form__note">{t('safety.fundPasswordRule')}</p>
      {fields.map(([field, label, name, value, onChange]) => (
        <PinField
          key={field}
          label={label}
          name={name}
          placeholder={t('safety.fundPasswordPlaceholder')}
          value={value}
          invalid={form.invalid(field)}
          onChange={onChange}
        />
      ))}
      <FormMessage message={form.message(save.error?.message)} />
      <SubmitButton label={t('kit.confirm')} busyLabel={t('kit.saving')} busy={save.isPending} blocked={form.blocked} />
    </form>
  );
}
