import { useTranslation } from 'react-i18next';
import type { Bet } from '../../api/rounds';
import { formatDateTime, formatMoney } from '../../format';

interface MyBetsProps {
  bets: readonly Bet[];
  issue: string;
}

function betState(bet: Bet): 'win' | 'lose' | 'open' | 'refund' {
  if (!bet.matched) return 'open';
  if (bet.result === 'refund') return 'refund'; // the round was voided (docs/ROUNDS.md)
  return bet.result === 'win' ? 'win' : 'lose';
}

/** The caller's bets in the round shown, newest first, with their outcome once settled. */
export function MyBets({ bets, issue }: MyBetsProps) {
  const { t } = useTranslation();
  if (bets.length === 0) {
    return <p className="muted-note">{t('rounds.myBets.empty', { issue })}</p>;
  }
  const sorted = [...bets].sort((a, b) => b.placedAt - a.placedAt);
  return (
    <ul className="my-bets" aria-label={t('rounds.myBets.title')}>
      {sorted.map((bet) => {
        const state = betState(bet);
        return (
          <li key={bet.betId} className={`my-bets__item my-bets__item--${state}`} data-state={state}>
            <span className={`outcome-tag outcome-tag--${bet.content.toLowerCase()}`}>{t(`rounds.content.${bet.content}`)}</span>
            <span className="my-bets__amount">{formatMoney(bet.amount, t)}</span>
            <span className="my-bets__time">{formatDateTime(bet.placedAt, t)}</span>
            <span className="my-bets__state">
              {state === 'open'
                ? t('rounds.myBets.open')
                : state === 'win'
                  ? t('rounds.myBets.win', { amount: formatMoney(bet.payout, t) })
                  : state === 'refund'
                    ? t('rounds.myBets.refund', { amount: formatMoney(bet.payout, t) })
                    : t('rounds.myBets.lose')}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
