import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useUserInfo, walletSummaryQuery } from '../queries';
import { SETTING_PATHS, TAB_PATHS } from '../../../navigation/paths';
import { CardIcon, DownloadIcon, KeyIcon, LockIcon, PhoneIcon, ShieldIcon } from '../../../components/icons/Icons';
import { MenuLink, MenuList } from '../../../components/menu/Menu';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { queryBody } from '../../../components/status/QueryGate';
import { DevicesIcon } from '../devices/DevicesIcon';

/** Safety settings: phone number, bank cards, login password, fund password; your data and account. */
export function SafetySettingPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const wallet = useQuery(walletSummaryQuery);

  const body = queryBody(user, (info) => {
    const hasFundPassword = wallet.data?.hasFundPassword ?? info.hasFundPassword;
    return (
      <MenuList label={t('safety.title')}>
        <MenuLink
          to={SETTING_PATHS.phoneNumber}
          icon={<PhoneIcon />}
          label={t('safety.phone')}
          value={info.phone || t('safety.notBound')}
        />
        <MenuLink
          to={SETTING_PATHS.bankManagement}
          icon={<CardIcon />}
          label={t('safety.bankCards')}
          value={wallet.data ? t('safety.cardCount', { count: wallet.data.bankCardCount }) : undefined}
        />
        <MenuLink to={SETTING_PATHS.modifyPassword} icon={<LockIcon />} label={t('safety.loginPassword')} />
        <MenuLink
          to={hasFundPassword ? SETTING_PATHS.changeFundPassword : SETTING_PATHS.fundPassword}
          icon={<KeyIcon />}
          label={t('safety.fundPassword')}
          value={hasFundPassword ? t('safety.set') : t('safety.notSet')}
        />
        <MenuLink to={SETTING_PATHS.devices} icon={<DevicesIcon />} label={t('devices.link')} />
        <MenuLink to={SETTING_PATHS.responsiblePlay} icon={<ShieldIcon />} label={t('protection.link')} />
        <MenuLink to={SETTING_PATHS.accountData} icon={<DownloadIcon />} label={t('leave.link')} />
      </MenuList>
    );
  });

  return (
    <main className="page">
      <PageHeader title={t('safety.title')} back fallback={TAB_PATHS.mine} />
      <div className="page-body">{body}</div>
    </main>
  );
}
