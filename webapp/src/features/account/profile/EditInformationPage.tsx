import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../queries';
import { SignOutButton } from '../SignOutButton';
import { MY_PATHS, TAB_PATHS } from '../../../navigation/paths';
import { Avatar } from '../../../components/avatar/Avatar';
import { MenuItem, MenuLink, MenuList } from '../../../components/menu/Menu';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';

/** Edit information: avatar, nickname, account, account status, share, switch, sign out. */
export function EditInformationPage() {
  const { t } = useTranslation();
  const user = useUserInfo();

  const body = queryBody(user, (info) => {
    const name = info.nickName || info.username;
    return (
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
          <SignOutButton />
        </div>
      </>
    );
  });

  return (
    <main className="page">
      <PageHeader title={t('profile.title')} back fallback={TAB_PATHS.mine} />
      <div className="page-body">{body}</div>
    </main>
  );
}
