import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api, type LoginInput } from '../../api/client';
import { safeRedirect } from '../../app/paths';
import { PageHeader } from '../../components/page-header/PageHeader';
import './LoginPage.css';

type FieldError = 'account' | 'password' | null;

/** Account sign-in (POST /accountLogin); returns to `?redirect=` afterwards. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<FieldError>(null);

  const login = useMutation({
    mutationFn: (input: LoginInput) => api.accountLogin(input, { quiet: true }),
    onSuccess: () => {
      void navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
  });

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (login.isPending) return;
    const trimmed = account.trim();
    if (!trimmed) {
      setFieldError('account');
      return;
    }
    if (!password) {
      setFieldError('password');
      return;
    }
    setFieldError(null);
    login.mutate({ account: trimmed, password });
  };

  let message: string | null = null;
  if (fieldError === 'account') message = t('pages.login.accountRequired');
  else if (fieldError === 'password') message = t('pages.login.passwordRequired');
  else if (login.error) message = login.error.message;

  return (
    <main className="page">
      <PageHeader title={t('pages.login.title')} back />
      <form className="login-form" onSubmit={onSubmit} noValidate>
        <label className="login-form__field">
          <span className="login-form__label">{t('pages.login.account')}</span>
          <input
            className="login-form__input"
            name="account"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={t('pages.login.accountPlaceholder')}
            value={account}
            aria-invalid={fieldError === 'account'}
            onChange={(event) => {
              setAccount(event.target.value);
            }}
          />
        </label>
        <label className="login-form__field">
          <span className="login-form__label">{t('pages.login.password')}</span>
          <input
            className="login-form__input"
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder={t('pages.login.passwordPlaceholder')}
            value={password}
            aria-invalid={fieldError === 'password'}
            onChange={(event) => {
              setPassword(event.target.value);
            }}
          />
        </label>
        <p className="login-form__message" role="alert">
          {message}
        </p>
        <button type="submit" className="button button--block" disabled={login.isPending}>
          {login.isPending ? t('pages.login.submitting') : t('pages.login.submit')}
        </button>
      </form>
    </main>
  );
}
