import { useTranslation } from 'react-i18next';
import type { Bet } from '../../api/rounds';
import { formatMoney } from '../../format';

interface WinLoseBannerProps {
  bets: readonly Bet[];
}

/** After the draw: what the player's bets in this round came to. */
export function WinLoseBanner({ bets }: WinLoseBannerProps) {
  const { t } = useTranslation();
  if (bets.length === 0) return null;
  if (bets.some((b) => !b.matched)) {
    return (
      <p className="win-lose win-lose--settling" role="status" data-outcome="settling">
        {t('rounds.winLose.settling')}
      </p>
    );
  }
  const staked = bets.reduce((sum, b) => sum + b.amount, 0);
  const paid = bets.reduce((sum, b) => sum + b.payout, 0);
  const won = bets.some((b) => b.result === 'win');
  const net = paid - staked;
  return (
    <p className={`win-lose win-lose--${won ? 'win' : 'lose'}`} role="status" data-outcome={won ? 'win' : 'lose'}>
      {won
        ? t('rounds.winLose.win', { payout: formatMoney(paid, t), net: `${net >= 0 ? '+' : ''}${formatMoney(net, t)}` })
        : t('rounds.winLose.lose', { amount: formatMoney(staked, t) })}
    </p>
  );
}
