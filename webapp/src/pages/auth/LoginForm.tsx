import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginInput } from '../../api/client';
import { useAccountActions } from '../../account/session';
import type { MessageKey } from '../../account/validation';
import { FormMessage } from '../../components/form/FormMessage';
import { TextField } from '../../components/form/TextField';
import { useSubmitThrottle } from '../../components/form/useSubmitThrottle';

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
  const throttle = useSubmitThrottle();
  const [account, setAccount] = useState(initialAccount);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<{ field: Field; key: MessageKey } | null>(null);

  const login = useMutation({
    mutationFn: (input: LoginInput) => signIn(input, { switching }),
    onSuccess: onSignedIn,
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (login.isPending) return;
    const trimmed = account.trim();
    if (!trimmed) {
      setProblem({ field: 'account', key: 'pages.login.accountRequired' });
      return;
    }
    if (!password) {
      setProblem({ field: 'password', key: 'pages.login.passwordRequired' });
      return;
    }
    setProblem(null);
    // Validation failures are not submissions; only a request is throttled.
    if (!throttle.gate()) return;
    login.mutate({ account: trimmed, password });
  };

  const message = problem ? t(problem.key) : (login.error?.message ?? null);

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <TextField
        label={t('pages.login.account')}
        name="account"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('pages.login.accountPlaceholder')}
        value={account}
        invalid={problem?.field === 'account'}
        onChange={setAccount}
      />
      <TextField
        label={t('pages.login.password')}
        name="password"
        revealable
        autoComplete="current-password"
        placeholder={t('pages.login.passwordPlaceholder')}
        value={password}
        invalid={problem?.field === 'password'}
        onChange={setPassword}
      />
      <button
        type="button"
        className="form__link"
        onClick={() => {
          onForget(account.trim());
        }}
      >
        {t('auth.forgetLink')}
      </button>
      <FormMessage message={message} />
      <button type="submit" className="button button--block" disabled={login.isPending || throttle.blocked}>
        {login.isPending ? t('pages.login.submitting') : t('pages.login.submit')}
      </button>
    </form>
  );
}
