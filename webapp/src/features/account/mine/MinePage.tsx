import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { assetUrl } from '../../../api/assets';
import { APP_VERSION } from '../appUpdate';
import { queryKeys, fetchManifest, useUserInfo, walletSummaryQuery } from '../queries';
import { SignOutButton } from '../SignOutButton';
import { useUpdateCheck } from '../useUpdateCheck';
import { LanguageSwitch } from '../settings/LanguageSwitch';
import { loginPath, MY_PATHS, SETTING_PATHS, TAB_PATHS } from '../../../navigation/paths';
import { PageLoading } from '../../../components/status/PageLoading';
import { Avatar } from '../../../components/avatar/Avatar';
import { EmptyState } from '../../../components/empty-state/EmptyState';
import {
  BellIcon,
  DownloadIcon,
  ExchangeIcon,
  GlobeIcon,
  InfoIcon,
  PointsIcon,
  QrIcon,
  RecordIcon,
  EyeOffIcon,
  ShieldIcon,
  SwitchIcon,
  UserIcon,
  AlbumIcon,
} from '../../../components/icons/Icons';
import { MenuButton, MenuExternalLink, MenuLink, MenuList } from '../../../components/menu/Menu';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { ErrorState } from '../../../components/status/ErrorState';
import { formatMoney } from '../../../format';
import { useSession } from '../../../state/session';
import { showToast } from '../../../state/toast';
import styles from './MinePage.module.css';

/** The mine tab: profile, points account, the links, version check. */
export function MinePage() {
  const { t } = useTranslation();
  const { token } = useSession();
  return (
    <main>
      <PageHeader title={t('pages.mine.title')} action={token ? undefined : <LanguageSwitch />} />
      {token ? (
        <SignedIn />
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

function SignedIn() {
  const { t } = useTranslation();
  const user = useUserInfo({ fresh: true });
  const wallet = useQuery({ ...walletSummaryQuery, refetchOnMount: 'always' });
  const manifest = useQuery({ queryKey: queryKeys.manifest, queryFn: fetchManifest });
  const checkUpdate = useUpdateCheck();
  const check = useMutation({ mutationFn: () => checkUpdate(true) });

  if (user.isPending) return <PageLoading />;
  if (user.isError) {
    return (
      <ErrorState
        message={user.error.message}
        onRetry={() => {
          void user.refetch();
        }}
      />
    );
  }
  const info = user.data;
  const activated = info.isActivation === 1;
  const packages = manifest.data?.package;
  // The forced package when there is one, else the normal one ('' when none is offered).
  const download = packages ? [packages.force.path, packages.normal.path].find((path) => path !== '') ?? '' : '';

  return (
    <div className={styles.mine}>
      <Link className={styles['mine-profile']} to={MY_PATHS.editInformation} aria-label={t('mine.profileLink', { name: info.nickName || info.username })}>
        <Avatar src={info.avatar} name={info.nickName || info.username} size={64} />
        <span className={styles['mine-profile__text']}>
          <span className={styles['mine-profile__name']}>{info.nickName || info.username}</span>
          <span className={styles['mine-profile__account']}>{t('mine.account', { account: info.username })}</span>
          <span className={activated ? `${styles['status-badge']} ${styles['status-badge--on']}` : styles['status-badge']}>
            {activated ? t('mine.activated') : t('mine.notActivated')}
          </span>
        </span>
      </Link>

      <section className={styles['mine-points']} aria-labelledby="mine-points-title">
        <h2 id="mine-points-title" className={styles['mine-points__title']}>
          {t('mine.pointsBalance')}
        </h2>
        <p className={styles['mine-points__amount']} data-testid="points-balance">
          {wallet.isPending ? '—' : wallet.isError ? t('kit.loadFailed') : formatMoney(wallet.data.amount, t)}
        </p>
        {wallet.data && wallet.data.frozenAmount > 0 ? (
          <p className={styles['mine-points__frozen']}>{t('mine.frozen', { amount: formatMoney(wallet.data.frozenAmount, t) })}</p>
        ) : null}
        <div className={styles['mine-points__actions']}>
          <Link className="button button--secondary" to={MY_PATHS.recharge}>
            {t('mine.recharge')}
          </Link>
          <Link className="button" to={MY_PATHS.exchange}>
            {t('mine.exchange')}
          </Link>
        </div>
      </section>

      <MenuList label={t('mine.recordsGroup')}>
        <MenuLink to={MY_PATHS.clickRecord} icon={<RecordIcon />} label={t('mine.clickRecords')} />
        <MenuLink to={MY_PATHS.pointsDetails} icon={<PointsIcon />} label={t('mine.pointsDetails')} />
        <MenuLink to={MY_PATHS.exchangeRecord} icon={<ExchangeIcon />} label={t('mine.exchangeRecords')} />
      </MenuList>
      <MenuList label={t('mine.settingsGroup')}>
        <MenuLink to={MY_PATHS.safetySetting} icon={<ShieldIcon />} label={t('mine.safetySettings')} />
        <MenuLink to={MY_PATHS.privacySetting} icon={<EyeOffIcon />} label={t('mine.privacySettings')} />
        <MenuLink to={SETTING_PATHS.notifications} icon={<BellIcon />} label={t('pushSettings.title')} />
        <MenuLink
          to={MY_PATHS.notice}
          icon={<BellIcon />}
          label={t('mine.notices')}
          badge={info.notice}
          badgeLabel={t('mine.unreadNotices', { count: info.notice })}
        />
        <MenuLink to={MY_PATHS.languageSetting} icon={<GlobeIcon />} label={t('pages.mine.languageSetting')} />
      </MenuList>
      <MenuList label={t('mine.profileGroup')}>
        <MenuLink to={MY_PATHS.editInformation} icon={<UserIcon />} label={t('mine.editProfile')} />
        <MenuLink to={MY_PATHS.changeAvatar} icon={<AlbumIcon />} label={t('mine.changeAvatar')} />
        <MenuLink to={MY_PATHS.shareQrcode} icon={<QrIcon />} label={t('mine.shareQrcode')} />
        <MenuLink to={MY_PATHS.switchAccount} icon={<SwitchIcon />} label={t('mine.switchAccount')} />
      </MenuList>
      <MenuList label={t('mine.appGroup')}>
        {download ? (
          <MenuExternalLink href={assetUrl(download)} icon={<DownloadIcon />} label={t('mine.downloadApp')} />
        ) : (
          <MenuButton
            icon={<DownloadIcon />}
            label={t('mine.downloadApp')}
            onClick={() => {
              showToast(manifest.isError ? manifest.error.message : t('appUpdate.noDownload'));
            }}
          />
        )}
        <MenuButton
          icon={<InfoIcon />}
          label={t('mine.checkVersion')}
          value={t('mine.version', { version: APP_VERSION })}
          disabled={check.isPending}
          onClick={() => {
            check.mutate();
          }}
        />
      </MenuList>

      <div className={styles['mine__sign-out']}>
        <SignOutButton />
      </div>
    </div>
  );
}
