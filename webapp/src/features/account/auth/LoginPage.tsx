import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect, TAB_PATHS } from '../../../navigation/paths';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { SegmentTabs } from '../../../components/tabs/SegmentTabs';
import { LanguageSwitch } from '../settings/LanguageSwitch';
import { isInviteCode } from '../validation';
import { ForgetForm } from './ForgetForm';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';
import styles from './LoginPage.module.css';

type Mode = 'login' | 'register' | 'forget';

function modeOf(params: URLSearchParams): Mode {
  const mode = params.get('mode');
  if (mode === 'login' || mode === 'register' || mode === 'forget') return mode;
  // An invitation link opens on the register tab.
  return isInviteCode(params.get('inviteCode')) ? 'register' : 'login';
}

/**
 * `/pages/auth/login`: sign-in and register tabs, and the forgotten-password form. With
 * `?switch=1` (add account, from the switch-account screen) it signs in through
 * `/accountLoginAtm`, which ends the session being left. Returns to `?redirect=` afterwards.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const mode = modeOf(params);
  const switching = params.get('switch') === '1';
  const account = params.get('account') ?? '';

  const setMode = (next: Mode, extra: Record<string, string> = {}): void => {
    const copy = new URLSearchParams(params);
    copy.set('mode', next);
    copy.delete('account');
    for (const [key, value] of Object.entries(extra)) copy.set(key, value);
    setParams(copy, { replace: true });
  };

  const done = (): void => {
    const fallback = switching ? TAB_PATHS.mine : '/';
    const redirect = params.get('redirect');
    void navigate(redirect ? safeRedirect(redirect) : fallback, { replace: true });
  };

  let title = t('pages.login.title');
  if (mode === 'forget') title = t('auth.forgetTitle');
  else if (switching) title = t('auth.addAccountTitle');
  else if (mode === 'register') title = t('auth.registerTab');

  return (
    <main className={`page ${styles['login-page']}`}>
      <PageHeader title={title} back fallback={switching ? TAB_PATHS.mine : '/'} action={<LanguageSwitch />} />
      {mode === 'forget' ? (
        <ForgetForm
          initialAccount={account}
          onDone={(resetAccount) => {
            setMode('login', { account: resetAccount });
          }}
          onCancel={() => {
            setMode('login');
          }}
        />
      ) : (
        <>
          <SegmentTabs
            label={t('auth.tabsLabel')}
            segments={[
              { value: 'login', label: t('auth.loginTab') },
              { value: 'register', label: t('auth.registerTab') },
            ]}
            value={mode}
            onChange={(next) => {
              setMode(next);
            }}
          />
          {mode === 'login' ? (
            <LoginForm
              key={account}
              initialAccount={account}
              switching={switching}
              onSignedIn={done}
              onForget={(typed) => {
                setMode('forget', typed ? { account: typed } : {});
              }}
            />
          ) : (
            <RegisterForm switching={switching} launchInviteCode={params.get('inviteCode')} onSignedIn={done} />
          )}
        </>
      )}
    </main>
  );
}
