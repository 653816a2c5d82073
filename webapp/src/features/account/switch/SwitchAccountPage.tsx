import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { forgetAccount, type CachedAccount } from '../cachedAccounts';
import { useAccountActions } from '../session';
import { useCachedAccounts } from '../useCachedAccounts';
import { CurrentPasswordField } from '../fields';
import { LOGIN_PATH, TAB_PATHS } from '../../../navigation/paths';
import { Avatar } from '../../../components/avatar/Avatar';
import { Dialog } from '../../../components/dialog/Dialog';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import { FormMessage } from '../../../components/form/FormMessage';
import { useSubmitThrottle } from '../../../components/form/useSubmitThrottle';
import { CloseIcon, PlusIcon } from '../../../components/icons/Icons';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { useSession } from '../../../state/session';
import { showToast } from '../../../state/toast';
import styles from './SwitchAccountPage.module.css';

/**
 * Switch account: the accounts this device signed in with, the current one marked in use.
 * Another one asks for its password (no password is ever stored) and signs in through
 * `/accountLoginAtm`, which ends the current session. "Add account" opens the sign-in page in
 * the same mode. Any account but the one in use can be removed from this device's list (only
 * the list: nothing on the server changes).
 */
export function SwitchAccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accounts = useCachedAccounts();
  const { userId } = useSession();
  const [target, setTarget] = useState<CachedAccount | null>(null);

  return (
    <main className="page">
      <PageHeader title={t('mine.switchAccount')} back fallback={TAB_PATHS.mine} />
      {accounts.length === 0 ? <EmptyState title={t('switchAccount.emptyTitle')} text={t('switchAccount.emptyText')} /> : null}
      <ul className={styles.accounts} aria-label={t('switchAccount.listLabel')} hidden={accounts.length === 0}>
        {accounts.map((account) => {
          const current = account.id === userId;
          const name = account.nickName || account.username;
          return (
            <li key={account.id}>
              <button
                type="button"
                className={styles.accounts__row}
                data-testid="account-row"
                aria-current={current ? 'true' : undefined}
                onClick={() => {
                  if (!current) setTarget(account);
                }}
              >
                <Avatar src={account.avatar} name={name} size={44} />
                <span className={styles.accounts__text}>
                  <span className={styles.accounts__name}>{name}</span>
                  <span className={styles.accounts__account}>{t('mine.account', { account: account.username })}</span>
                </span>
                {current ? <span className={styles.accounts__current}>{t('switchAccount.inUse')}</span> : null}
              </button>
              {current ? null : (
                <button
                  type="button"
                  className={styles.accounts__remove}
                  aria-label={t('switchAccount.remove', { account: account.username })}
                  onClick={() => {
                    forgetAccount(account.id);
                    showToast(t('switchAccount.removed'));
                  }}
                >
                  <CloseIcon />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <div className="page-actions">
        <button
          type="button"
          className="button button--secondary button--block"
          onClick={() => {
            void navigate(`${LOGIN_PATH}?switch=1&redirect=${encodeURIComponent(TAB_PATHS.mine)}`);
          }}
        >
          <PlusIcon />
          <span>{t('switchAccount.add')}</span>
        </button>
      </div>
      {target ? (
        <SwitchDialog
          account={target}
          onClose={() => {
            setTarget(null);
          }}
          onSwitched={() => {
            showToast(t('switchAccount.switched'));
            void navigate(TAB_PATHS.mine, { replace: true });
          }}
        />
      ) : null}
    </main>
  );
}

function SwitchDialog({ account, onClose, onSwitched }: { account: CachedAccount; onClose: () => void; onSwitched: () => void }) {
  const { t } = useTranslation();
  const { signIn } = useAccountActions();
  const throttle = useSubmitThrottle();
  const [password, setPassword] = useState('');
  const [empty, setEmpty] = useState(false);
  const switchTo = useMutation({
    mutationFn: () => signIn({ account: account.username, password }, { switching: true }),
    onSuccess: onSwitched,
  });
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (switchTo.isPending) return;
    setEmpty(!password);
    if (password && throttle.gate()) switchTo.mutate();
  };
  const formId = `switch-${account.id}`;
  return (
    <Dialog
      open
      title={t('switchAccount.dialogTitle', { account: account.username })}
      onClose={switchTo.isPending ? undefined : onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose} disabled={switchTo.isPending}>
            {t('kit.cancel')}
          </button>
          <button type="submit" form={formId} className="button" disabled={switchTo.isPending || throttle.blocked}>
            {switchTo.isPending ? t('pages.login.submitting') : t('switchAccount.confirm')}
          </button>
        </>
      }
    >
      <form id={formId} className={styles['switch-dialog']} onSubmit={onSubmit} noValidate>
        <CurrentPasswordField value={password} invalid={empty} onChange={setPassword} />
        <FormMessage message={empty ? t('pages.login.passwordRequired') : (switchTo.error?.message ?? null)} />
      </form>
    </Dialog>
  );
}

