import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '../../account/queries';
import { useAccountActions } from '../../account/session';
import { LOGIN_PATH, MY_PATHS, TAB_PATHS } from '../../app/paths';
import { PageLoading } from '../../app/PageLoading';
import { Avatar } from '../../components/avatar/Avatar';
import { MenuItem, MenuLink, MenuList } from '../../components/menu/Menu';
import { PageHeader } from '../../components/page-header/PageHeader';
import { ErrorState } from '../../components/status/ErrorState';

/** Edit information: avatar, nickname, account, account status, share, switch, sign out. */
export function EditInformationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUserInfo();
  const { signOut } = useAccountActions();
  const leave = useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      void navigate(LOGIN_PATH, { replace: true });
    },
  });

  let body;
  if (user.isPending) body = <PageLoading />;
  else if (user.isError) {
    body = (
      <ErrorState
        message={user.error.message}
        onRetry={() => {
          void user.refetch();
        }}
      />
    );
  } else {
    const info = user.data;
    const name = info.nickName || info.username;
    body = (
      <>
        <MenuList label={t('profile.title')}>
          <MenuLink to={MY_PATHS.changeAvatar} label={t('profile.avatar')} value={<Avatar src={info.avatar} name={name} size={40} />} />
          <MenuLink to={MY_PATHS.editNickName} label={t('profile.nickname')} value={info.nickName} />
          <MenuItem label={t('profile.account')} value={info.username} />
          <MenuItem
            label={t('profile.status')}
            value={info.isActivation === 1 ? t('mine.activated') : t('mine.notActivated')}
          />
        </MenuList>
        <MenuList label={t('profile.more')}>
          <MenuLink to={MY_PATHS.shareQrcode} label={t('mine.shareQrcode')} />
          <MenuLink to={MY_PATHS.switchAccount} label={t('mine.switchAccount')} />
        </MenuList>
        <div className="page-actions">
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
        </div>
      </>
    );
  }

  return (
    <main className="page">
      <PageHeader title={t('profile.title')} back fallback={TAB_PATHS.mine} />
      <div className="page-body">{body}</div>
    </main>
  );
}
