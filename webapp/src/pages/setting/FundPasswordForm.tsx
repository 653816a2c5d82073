import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../api/accounts';
import { walletApi, type WalletSummary } from '../../api/wallet';
import { queryKeys } from '../../account/queries';
import { checkConfirmation, checkFundPassword, type MessageKey } from '../../account/validation';
import { MY_PATHS } from '../../app/paths';
import { useReturn } from '../../app/useReturn';
import { FormMessage } from '../../components/form/FormMessage';
import { PinField } from '../../components/form/PinField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { showToast } from '../../state/toast';

type Field = 'old' | 'password' | 'confirm';

/** Set (no fund password yet) or change (with the old one) the 6-digit fund password. */
export function FundPasswordForm({ change }: { change: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const done = useReturn(MY_PATHS.safetySetting);
  const throttle = useSubmitThrottle();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey } | null>(null);

  const save = useMutation({
    mutationFn: () => (change ? walletApi.changeFundPassword(oldPassword, password) : walletApi.setFundPassword(password)),
    onSuccess: () => {
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
    const checks: [Field, MessageKey | null][] = [
      ['old', change ? checkFundPassword(oldPassword) : null],
      ['password', checkFundPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
      ['password', change && oldPassword === password ? 'validation.fundPasswordSame' : null],
    ];
    const failed = checks.find(([, key]) => key !== null);
    if (failed?.[1]) {
      setProblem({ field: failed[0], key: failed[1] });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    save.mutate();
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="form__note">{t('safety.fundPasswordRule')}</p>
      {change ? (
        <PinField
          label={t('safety.oldFundPassword')}
          name="old-fund-password"
          placeholder={t('safety.fundPasswordPlaceholder')}
          value={oldPassword}
          invalid={problem?.field === 'old'}
          onChange={setOld}
        />
      ) : null}
      <PinField
        label={t('safety.newFundPassword')}
        name="fund-password"
        placeholder={t('safety.fundPasswordPlaceholder')}
        value={password}
        invalid={problem?.field === 'password'}
        onChange={setPassword}
      />
      <PinField
        label={t('safety.confirmFundPassword')}
        name="confirm-fund-password"
        placeholder={t('safety.fundPasswordPlaceholder')}
        value={confirm}
        invalid={problem?.field === 'confirm'}
        onChange={setConfirm}
      />
      <FormMessage message={problem ? t(problem.key) : (save.error?.message ?? null)} />
      <button type="submit" className="button button--block" disabled={save.isPending || throttle.blocked}>
        {save.isPending ? t('kit.saving') : t('kit.confirm')}
      </button>
    </form>
  );
}
