import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccountActions } from './session';
import { LOGIN_PATH } from '../../navigation/paths';

/** Signs out and goes to the login page; the mine page and the edit information page both offer it. */
export function SignOutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { signOut } = useAccountActions();
  const leave = useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      void navigate(LOGIN_PATH, { replace: true });
    },
  });
  return (
    <button
      type="button"
      className="button button--secondary button--block"
      disabled={leave.isPending}
      onClick={() => {
        leave.mutate();
      }}
    >
      {leave.isPending ? t('pages.mine.signingOut') : t('pages.mine.signOut')}
    </button>
  );
}
