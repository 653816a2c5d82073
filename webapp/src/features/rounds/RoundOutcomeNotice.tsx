import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { onAnyBusinessPush } from '../../api/chat';
import { deliverBusinessPush, pushHub } from '../../api/pushes';
import type { BetContent, RoundResult } from '../../api/rounds';
import { FIND_PATHS } from '../../navigation/paths';
import { formatMoney } from '../../format';
import { roundsKeys } from './queries';
import styles from './trend.module.css';

/** The round.outcome push: a round the player bet in is drawn and paid. */
export interface RoundOutcome {
  result: RoundResult;
  bets: number;
  staked: number;
  payout: number;
}

/** The push's data read back, or null when it is not one. */
export function readOutcome(value: unknown): RoundOutcome | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const result = v.result as RoundResult | undefined;
  if (!result || typeof result.issue !== 'string' || !Array.isArray(result.digits) || !Array.isArray(result.outcome)) return null;
  if (typeof v.staked !== 'number' || typeof v.payout !== 'number' || typeof v.bets !== 'number') return null;
  return { result, bets: v.bets, staked: v.staked, payout: v.payout };
}

const SHOWN_MS = 6_000;

/**
 * Mounted once in the app shell. Feeds the chat socket's business pushes into the app's push
 * hub (the window screens listen there), and tells the player how a round they bet in ended —
 * the digits, the outcome and what it paid — on whatever screen they are; a tap opens the window.
 */
export function RoundOutcomeNotice() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [shown, setShown] = useState<RoundOutcome | null>(null);

  useEffect(
    () =>
      onAnyBusinessPush((key, data) => {
        deliverBusinessPush({ key, data });
      }),
    [],
  );

  useEffect(
    () =>
      pushHub.on('round.outcome', (value) => {
        const outcome = readOutcome(value);
        if (!outcome) return;
        setShown(outcome);
        void client.invalidateQueries({ queryKey: roundsKeys.window(outcome.result.windowId) });
        void client.invalidateQueries({ queryKey: roundsKeys.lobby });
      }),
    [client],
  );

  useEffect(() => {
    if (!shown) return undefined;
    const timer = window.setTimeout(() => {
      setShown(null);
    }, SHOWN_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [shown]);

  if (!shown) return null;
  const r = shown.result;
  const outcome = r.outcome.map((o: BetContent) => t(`rounds.content.${o}`)).join(' · ');
  const won = shown.payout > 0;
  return (
    <div className={styles['round-notice__region']} role="status" aria-live="polite">
      <button
        type="button"
        className={`${styles['round-notice']} ${won ? styles['round-notice--won'] : ''}`}
        data-issue={r.issue}
        data-payout={shown.payout}
        onClick={() => {
          setShown(null);
          void navigate(`${FIND_PATHS.incentiveWindow}?id=${r.windowId}`);
        }}
      >
        <span className={styles['round-notice__title']}>
          {t('rounds.notice.title', { index: r.windowId, issue: r.issue })}
        </span>
        <span>{t('rounds.notice.result', { digits: r.digits.join(' '), sum: r.sum, outcome })}</span>
        <span className={styles['round-notice__payout']}>
          {won
            ? t('rounds.notice.won', { payout: formatMoney(shown.payout, t), staked: formatMoney(shown.staked, t) })
            : t('rounds.notice.lost', { staked: formatMoney(shown.staked, t) })}
        </span>
      </button>
    </div>
  );
}
