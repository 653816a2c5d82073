import '../../components/ui/ui.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { contentApi } from '../../api/content';
import { FIND_PATHS, incentiveWindowPath, loginPath, TAB_PATHS } from '../../navigation/paths';
import { PageHeader } from '../../components/page-header/PageHeader';
import { sectionGate } from '../../components/status/SectionState';
import { PullRefresh } from '../../components/pull-refresh/PullRefresh';
import { formatMoney } from '../../format';
import { roundsKeys, useLobby, useRoundPushes, useRules } from '../rounds/queries';
import { useServerNow } from '../rounds/useServerNow';
import { useSession } from '../../state/session';
import { useAccountPushes } from '../videos/queries';
import { Carousel } from './Carousel';
import { discoverKeys } from './keys';
import { WindowCard } from './WindowCard';
import styles from './discover.module.css';

/** The discover tab: carousel, the activation windows live, and the ways into videos, same city and service. */
export function FindPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { token } = useSession();
  const signedIn = Boolean(token);
  useRoundPushes();
  useAccountPushes();
  const now = useServerNow();

  const carousel = useQuery({ queryKey: discoverKeys.carousel, queryFn: () => contentApi.carousel({ quiet: true }) });
  const lobby = useLobby(signedIn);
  const rules = useRules();
  const allowance = useQuery({
    queryKey: discoverKeys.allowance,
    queryFn: () => contentApi.checkVideoCount(undefined, { quiet: true }),
    enabled: signedIn,
  });

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: discoverKeys.carousel }),
      client.invalidateQueries({ queryKey: discoverKeys.allowance }),
      client.invalidateQueries({ queryKey: roundsKeys.all }),
    ]);

  let videoHint = t('discover.video.signIn');
  if (signedIn && allowance.data) {
    videoHint = allowance.data.unlimited
      ? t('discover.video.unlimited')
      : t('discover.video.remaining', { remaining: allowance.data.remaining, limit: allowance.data.limit });
  }

  return (
    <main className={styles.discover}>
      <PageHeader title={t('pages.find.title')} />
      <PullRefresh onRefresh={refresh}>
        {carousel.isError ? null : carousel.isPending ? (
          <div className={`${styles.carousel} ${styles['carousel--placeholder']}`} aria-hidden="true" />
        ) : (
          <Carousel banners={carousel.data} />
        )}

        <nav className={styles['discover-entries']} aria-label={t('discover.entries')}>
          <Link className={`${styles['discover-entry']} ${styles['discover-entry--video']}`} to={FIND_PATHS.watchVideo} data-testid="video-entry">
            <span className={styles['discover-entry__title']}>{t('discover.video.title')}</span>
            <span className={styles['discover-entry__hint']} data-testid="video-allowance">
              {videoHint}
            </span>
          </Link>
          <Link className={`${styles['discover-entry']} ${styles['discover-entry--love']}`} to={FIND_PATHS.loveVideo}>
            <span className={styles['discover-entry__title']}>{t('discover.love.title')}</span>
            <span className={styles['discover-entry__hint']}>{t('discover.love.hint')}</span>
          </Link>
          <Link className={`${styles['discover-entry']} ${styles['discover-entry--city']}`} to={TAB_PATHS.city}>
            <span className={styles['discover-entry__title']}>{t('discover.city.title')}</span>
            <span className={styles['discover-entry__hint']}>{t('discover.city.hint')}</span>
          </Link>
          <Link className={`${styles['discover-entry']} ${styles['discover-entry--service']}`} to={FIND_PATHS.customer}>
            <span className={styles['discover-entry__title']}>{t('discover.service.title')}</span>
            <span className={styles['discover-entry__hint']}>{t('discover.service.hint')}</span>
          </Link>
        </nav>

        <section className={styles['discover-windows']} aria-labelledby="discover-windows-title">
          <h2 id="discover-windows-title" className={styles['discover-windows__title']}>
            {t('discover.windows.title')}
            {lobby.data ? (
              <span className={styles['discover-windows__balance']} data-testid="windows-balance">
                {t('discover.windows.available', { amount: formatMoney(lobby.data.availablePoints, t) })}
              </span>
            ) : null}
          </h2>
          {signedIn ? (
            !lobby.isSuccess ? (
              sectionGate(lobby)
            ) : lobby.data.windows.length === 0 ? (
              <p className="muted-note">{t('pages.find.emptyTitle')}</p>
            ) : (
              <ul className={styles['window-cards']}>
                {lobby.data.windows.map((w) => (
                  <WindowCard key={w.windowId} window={w} now={now} />
                ))}
              </ul>
            )
          ) : (
            <>
              {rules.data && rules.data.rules.length > 0 ? (
                <ul className={styles['window-cards']}>
                  {rules.data.rules
                    .filter((r) => r.enabled)
                    .map((r) => (
                      <li key={r.windowId} className={styles['window-card']} data-window={r.windowId}>
                        <Link className={styles['window-card__link']} to={loginPath(incentiveWindowPath(r.windowId))}>
                          <span className={styles['window-card__head']}>
                            <span className={styles['window-card__title']} data-testid="window-title">{t('rounds.windowTitle', { index: r.windowId })}</span>
                          </span>
                          <span className={styles['window-card__issue']}>
                            {t('discover.windows.guestRules', {
                              odds: r.odds,
                              min: formatMoney(r.minBet, t),
                              max: formatMoney(r.maxBet, t),
                            })}
                          </span>
                        </Link>
                      </li>
                    ))}
                </ul>
              ) : null}
              <p className={styles['discover-windows__signin']}>
                <Link className="button" to={loginPath(TAB_PATHS.find)}>
                  {t('discover.windows.signIn')}
                </Link>
              </p>
            </>
          )}
        </section>
      </PullRefresh>
    </main>
  );
}
