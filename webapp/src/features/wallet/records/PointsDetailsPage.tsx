import type { TFunction } from 'i18next';
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

export function pointsTypeLabel(type: string, t: TFunction): string {
  switch (type) {
    case 'recharge':
      return t('records.type.recharge');
    case 'exchange':
      return t('records.type.exchange');
    case 'exchange_refund':
      return t('records.type.exchangeRefund');
    case 'bet':
      return t('records.type.bet');
    case 'bet_return':
      return t('records.type.betReturn');
    case 'bet_win':
      return t('records.type.betWin');
    case 'reversal':
      return t('records.type.reversal');
    default:
      return t('records.type.other');
  }
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
