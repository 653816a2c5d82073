import type { ParseKeys, TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { walletApi, type PointsRecord, type PointsTab } from '../../../api/wallet';
import { formatDateTime, formatMoney } from '../../../format';
import { RecordsScreen, recordStateClass } from './RecordsScreen';
import styles from './records.module.css';

/** Points details: every movement of the wallet, All / Income / Expenditure. */
export function PointsDetailsPage() {
  const { t } = useTranslation();
  return (
    <RecordsScreen<PointsTab, PointsRecord>
      name="points"
      title={t('mine.pointsDetails')}
      tabs={[
        { value: 'all', label: t('records.all') },
        { value: 'income', label: t('records.income') },
        { value: 'expenditure', label: t('records.expenditure') },
      ]}
      fetchPage={(query, signal) => walletApi.pointsRecords(query, signal)}
      getKey={(record) => `${record.type}-${record.id}`}
      estimateSize={76}
      emptyTitle={t('records.emptyPoints')}
      renderItem={(record) => <PointsRow record={record} />}
    />
  );
}

/** The label key of each kind of wallet movement the server names; any other kind is 'other'. */
const POINTS_TYPE_KEYS = new Map<string, ParseKeys>([
  ['recharge', 'records.type.recharge'],
  ['exchange', 'records.type.exchange'],
  ['exchange_refund', 'records.type.exchangeRefund'],
  ['bet', 'records.type.bet'],
  ['bet_return', 'records.type.betReturn'],
  ['bet_win', 'records.type.betWin'],
  ['reversal', 'records.type.reversal'],
]);

export function pointsTypeLabel(type: string, t: TFunction): string {
  return t(POINTS_TYPE_KEYS.get(type) ?? 'records.type.other');
}

function PointsRow({ record }: { record: PointsRecord }) {
  const { t } = useTranslation();
  const income = record.amount > 0;
  return (
    <div className={styles.record}>
      <span className={styles.record__title}>{pointsTypeLabel(record.type, t)}</span>
      <span className={income ? `${styles.record__amount} ${styles['record__amount--in']}` : `${styles.record__amount} ${styles['record__amount--out']}`}>
        {income ? '+' : ''}
        {formatMoney(record.amount, t)}
      </span>
      <span className={styles.record__meta}>{t('records.orderNo', { no: record.orderNo })}</span>
      <span data-testid="record-state" className={recordStateClass(record.state)}>{t(`records.state.${record.state}`)}</span>
      <span className={styles.record__meta}>{formatDateTime(record.time, t)}</span>
    </div>
  );
}
