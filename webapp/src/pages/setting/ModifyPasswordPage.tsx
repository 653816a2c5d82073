import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type ChangePasswordInput } from '../../api/accounts';
import { checkConfirmation, checkPassword, type MessageKey } from '../../account/validation';
import { MY_PATHS } from '../../app/paths';
import { useReturn } from '../../app/useReturn';
import { FormMessage } from '../../components/form/FormMessage';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';
import { PageHeader } from '../../components/page-header/PageHeader';
import { showToast } from '../../state/toast';

type Field = 'old' | 'password' | 'confirm';

/** Change the login password: original, new, confirmation. The user's other sessions end. */
export function ModifyPasswordPage() {
  const { t } = useTranslation();
  const done = useReturn(MY_PATHS.safetySetting);
  const throttle = useSubmitThrottle();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey } | null>(null);
  const save = useMutation({
    mutationFn: (input: ChangePasswordInput) => accountsApi.changePassword(input),
    onSuccess: () => {
      showToast(t('safety.passwordChanged'));
      done();
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    const checks: [Field, MessageKey | null][] = [
      ['old', oldPassword ? null : 'validation.oldPasswordRequired'],
      ['password', checkPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
    ];
    const failed = checks.find(([, key]) => key !== null);
    if (failed?.[1]) {
      setProblem({ field: failed[0], key: failed[1] });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    save.mutate({ oldPassword, password, confirmPassword: confirm });
  };

  return (
    <main className="page">
      <PageHeader title={t('safety.loginPassword')} back fallback={MY_PATHS.safetySetting} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('safety.oldPassword')}
          name="old-password"
          revealable
          autoComplete="current-password"
          placeholder={t('safety.oldPasswordPlaceholder')}
          value={oldPassword}
          invalid={problem?.field === 'old'}
          onChange={setOld}
        />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          invalid={problem?.field === 'password' || problem?.field === 'confirm' ? problem.field : null}
        />
        <FormMessage message={problem ? t(problem.key) : (save.error?.message ?? null)} />
        <button type="submit" className="button button--block" disabled={save.isPending || throttle.blocked}>
          {save.isPending ? t('kit.saving') : t('kit.confirm')}
        </button>
      </form>
    </main>
  );
}
