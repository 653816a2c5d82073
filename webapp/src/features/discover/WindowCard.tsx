import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LobbyWindow } from '../../api/rounds';
import { incentiveWindowPath } from '../../navigation/paths';
import { formatMoney } from '../../format';
import { Countdown } from '../rounds/Countdown';
import { PhaseBadge } from '../rounds/PhaseBadge';
import styles from './discover.module.css';

interface WindowCardProps {
  window: LobbyWindow;
  /** Server time now. */
  now: number;
}

/** One activation window on the discover page: live phase and countdown, this round's figures. */
export function WindowCard({ window: w, now }: WindowCardProps) {
  const { t } = useTranslation();
  const remaining = w.deadline - now;
  return (
    <li className={styles['window-card']} data-window={w.windowId} data-phase={w.phase}>
      <Link className={styles['window-card__link']} to={incentiveWindowPath(w.windowId)}>
        <span className={styles['window-card__head']}>
          <span className={styles['window-card__title']} data-testid="window-title">{t('rounds.windowTitle', { index: w.index })}</span>
          <PhaseBadge phase={w.phase} />
        </span>
        <span className={styles['window-card__issue']}>{w.issue ? t('rounds.issueShort', { issue: w.issue }) : t('rounds.noRoundYet')}</span>
        <span className="window-card__row">
          <span className={styles['window-card__timer']}>
            {t(`rounds.phaseEnds.${w.phase}`)} <Countdown remaining={remaining} />
          </span>
        </span>
        <span className={styles['window-card__figures']}>
          <span>{t('rounds.card.rounds', { count: w.roundsCount })}</span>
          <span>{t('rounds.card.orders', { count: w.ordersCount })}</span>
          <span>{t('rounds.card.total', { amount: formatMoney(w.totalPoints, t) })}</span>
        </span>
      </Link>
    </li>
  );
}
