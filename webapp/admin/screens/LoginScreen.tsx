import { useAtomValue } from 'jotai';
import { useState, type SyntheticEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { NotOperatorError, signIn } from '../api/signIn';
import { useT } from '../i18n/useT';
import { sessionAtom } from '../state/session';
import { Button, Field, LanguageSelect, errorText, ui } from '../ui/kit';
import css from './login.module.css';

export function LoginScreen() {
  const { t } = useT();
  const session = useAtomValue(sessionAtom);
  const [params] = useSearchParams();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const from = params.get('from') ?? '/';
  if (session) return <Navigate to={from.startsWith('/') && from !== '/login' ? from : '/'} replace />;

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    if (!account.trim() || !password) {
      setError(t('login.required'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      await signIn(account.trim(), password);
    } catch (err) {
      setError(err instanceof NotOperatorError ? t('login.notOperator') : errorText(err, t('common.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={css.page}>
      <form className={css.box} onSubmit={(e) => void submit(e)}>
        <h1>{t('app.title')}</h1>
        <p className={ui.muted}>{t('login.hint')}</p>
        <Field label={t('login.account')}>
          <input className={ui.input} name="account" autoComplete="username" value={account} onChange={(e) => { setAccount(e.target.value); }} />
        </Field>
        <Field label={t('login.password')}>
          <input
            className={ui.input}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => { setPassword(e.target.value); }}
          />
        </Field>
        {error && (
          <p className={ui.error} role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={busy}>
          {t('login.submit')}
        </Button>
        <LanguageSelect className={ui.select} />
      </form>
    </div>
  );
}
