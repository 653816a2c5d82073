import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginInput } from '../../../api/client';
import { useAccountActions } from '../session';
import { AccountField, CurrentPasswordField } from '../fields';
import { FormMessage } from '../../../components/form/FormMessage';
import { SubmitButton } from '../../../components/form/SubmitButton';
import { useFormChecks } from '../../../components/form/useFormChecks';

interface LoginFormProps {
  initialAccount: string;
  switching: boolean;
  onSignedIn: () => void;
  onForget: (account: string) => void;
}

type Field = 'account' | 'password';

/** Account and password; the server's refusals (wrong credential, lockout) are shown as said. */
export function LoginForm({ initialAccount, switching, onSignedIn, onForget }: LoginFormProps) {
  const { t } = useTranslation();
  const { signIn } = useAccountActions();
  const form = useFormChecks<Field>();
  const [account, setAccount] = useState(initialAccount);
  const [password, setPassword] = useState('');

  const login = useMutation({
    mutationFn: (input: LoginInput) => signIn(input, { switching }),
    onSuccess: onSignedIn,
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (login.isPending) return;
    const trimmed = account.trim();
    const ready = form.ready([
      ['account', trimmed ? null : 'pages.login.accountRequired'],
      ['password', password ? null : 'pages.login.passwordRequired'],
    ]);
    if (ready) login.mutate({ account: trimmed, password });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <AccountField value={account} invalid={form.invalid('account')} onChange={setAccount} />
      <CurrentPasswordField value={password} invalid={form.invalid('password')} onChange={setPassword} />
      <button
        type="button"
        className="form__link"
        onClick={() => {
          onForget(account.trim());
        }}
      >
        {t('auth.forgetLink')}
      </button>
      <FormMessage message={form.message(login.error?.message)} />
      <SubmitButton label={t('pages.login.submit')} busyLabel={t('pages.login.submitting')} busy={login.isPending} blocked={form.blocked} />
    </form>
  );
}
