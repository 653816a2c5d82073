import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountsApi, type ChangePasswordInput } from '../../../api/accounts';
import { checkConfirmation, checkPassword } from '../validation';
import { CurrentPasswordField } from '../fields';
import { MY_PATHS } from '../../../navigation/paths';
import { useReturn } from '../../../navigation/useReturn';
import { FormMessage } from '../../../components/form/FormMessage';
import { NewPasswordFields, useNewPassword } from '../../../components/form/NewPasswordFields';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';

type Field = 'old' | 'password' | 'confirm';

/** Change the login password: original, new, confirmation. The user's other sessions end. */
export function ModifyPasswordPage() {
  const { t } = useTranslation();
  const done = useReturn(MY_PATHS.safetySetting);
  const form = useFormChecks<Field>();
  const [oldPassword, setOld] = useState('');
  const { password, confirm, fields: newPasswordFields } = useNewPassword();
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
    const ready = form.ready([
      ['old', oldPassword ? null : 'validation.oldPasswordRequired'],
      ['password', checkPassword(password)],
      ['confirm', checkConfirmation(password, confirm)],
    ]);
    if (ready) save.mutate({ oldPassword, password, confirmPassword: confirm });
  };

  return (
    <main className="page">
      <PageHeader title={t('safety.loginPassword')} back fallback={MY_PATHS.safetySetting} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <CurrentPasswordField original value={oldPassword} invalid={form.invalid('old')} onChange={setOld} />
        <NewPasswordFields {...newPasswordFields} invalid={form.invalid} />
        <FormMessage message={form.message(save.error?.message)} />
        <SubmitButton label={t('kit.confirm')} busyLabel={t('kit.saving')} busy={save.isPending} blocked={form.blocked} />
      </form>
    </main>
  );
}
