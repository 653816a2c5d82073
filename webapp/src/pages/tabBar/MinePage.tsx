import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { LANGUAGE_SETTING_PATH, loginPath, TAB_PATHS } from '../../app/paths';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';
import { useSession } from '../../state/session';
import './MinePage.css';

export function MinePage() {
  const { t } = useTranslation();
  const { token, userId } = useSession();
  const signOut = useMutation({ mutationFn: () => api.logout() });

  return (
    <main>
      <PageHeader title={t('pages.mine.title')} />
      {token ? (
        <section className="mine-account" aria-labelledby="mine-account-title">
          <h2 id="mine-account-title" className="mine-account__title">
            {t('pages.mine.signedInTitle')}
          </h2>
          {userId ? <p className="mine-account__id">{t('pages.mine.userId', { id: userId })}</p> : null}
          <ul className="mine-menu">
            <li>
              <Link className="mine-menu__link" to={LANGUAGE_SETTING_PATH}>
                {t('pages.mine.languageSetting')}
              </Link>
            </li>
          </ul>
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={signOut.isPending}
            onClick={() => {
              signOut.mutate();
            }}
          >
            {signOut.isPending ? t('pages.mine.signingOut') : t('pages.mine.signOut')}
          </button>
        </section>
      ) : (
        <EmptyState title={t('pages.mine.signedOutTitle')} text={t('pages.mine.signedOutText')}>
          <Link className="button" to={loginPath(TAB_PATHS.mine)}>
            {t('pages.mine.signIn')}
          </Link>
        </EmptyState>
      )}
    </main>
  );
}
