import { useTranslation } from 'react-i18next';
import { clickRecordsApi, type Bet, type ClickTab } from '../../../api/clickRecords';
import { formatDateTime, formatMoney } from '../../../format';
import { RecordsScreen, recordStateClass } from './RecordsScreen';
import styles from './records.module.css';

/** Click records: the user's bets, All / Not matched / Matched. */
export function ClickRecordPage() {
  const { t } = useTranslation();
  return (
    <RecordsScreen<ClickTab, Bet>
      name="clicks"
      title={t('mine.clickRecords')}
      tabs={[
        { value: 'all', label: t('records.all') },
        { value: 'unmatched', label: t('records.notMatched') },
        { value: 'matched', label: t('records.matched') },
      ]}
      fetchPage={(query, signal) => clickRecordsApi.list(query, signal)}
      getKey={(bet) => bet.betId}
      estimateSize={96}
      emptyTitle={t('records.emptyClicks')}
      renderItem={(bet) => <BetRow bet={bet} />}
    />
  );
}

function BetRow({ bet }: { bet: Bet }) {
  const { t } = useTranslation();
  let outcome = t('records.notMatched');
  if (bet.matched) outcome = bet.result === 'win' ? t('records.win') : bet.result === 'lose' ? t('records.lose') : t('records.matched');
  return (
    <div className={styles.record}>
      {/* The same words as the window's bet buttons ("Big", "Single"). */}
      <span className={styles.record__title}>{t(`rounds.content.${bet.content}`)}</span>
      <span className={styles.record__amount}>{formatMoney(bet.amount, t)}</span>
      <span className={styles.record__meta}>{t('records.issue', { issue: bet.issue })}</span>
      <span data-testid="record-state" className={recordStateClass(bet.matched ? (bet.result === 'win' ? 1 : 2) : 0)}>{outcome}</span>
      <span className={styles.record__meta}>{formatDateTime(bet.placedAt, t)}</span>
      {bet.matched && bet.result === 'win' ? (
        <span className={styles.record__remark}>{t('records.payout', { amount: formatMoney(bet.payout, t) })}</span>
      ) : null}
    </div>
  );
}
