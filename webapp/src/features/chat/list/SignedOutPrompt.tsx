import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LOGIN_PATH } from '../../../navigation/paths';
import { EmptyState } from '../../../components/empty-state/EmptyState';

/** The chat tab of a guest: what signing in gives, and the way there. */
export function SignedOutPrompt() {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('chat.list.signedOutTitle')} text={t('chat.list.signedOutText')}>
      <Link className="button" to={LOGIN_PATH}>
        {t('chat.list.signIn')}
      </Link>
    </EmptyState>
  );
}
