import { useTranslation } from 'react-i18next';
import { walletApi, type ExchangeTab, type Order } from '../../../api/wallet';
import { formatDateTime, formatMoney } from '../../../format';
import { RecordsScreen, recordStateClass } from './RecordsScreen';
import styles from './records.module.css';

/** Exchange records: All / Under review / Successful / Failed. */
export function ExchangeRecordPage() {
  const { t } = useTranslation();
  return (
    <RecordsScreen<ExchangeTab, Order>
      name="exchanges"
      title={t('mine.exchangeRecords')}
      tabs={[
        { value: 'all', label: t('records.all') },
        { value: 'review', label: t('records.state.0') },
        { value: 'success', label: t('records.state.1') },
        { value: 'failed', label: t('records.state.2') },
      ]}
      fetchPage={(query, signal) => walletApi.exchangeRecords(query, signal)}
      getKey={(order) => order.id}
      estimateSize={112}
      emptyTitle={t('records.emptyExchanges')}
      renderItem={(order) => <ExchangeRow order={order} />}
    />
  );
}

function ExchangeRow({ order }: { order: Order }) {
  const { t } = useTranslation();
  const card = order.cardNumber ? `${order.bankName ?? ''} ${order.cardNumber.slice(-4)}`.trim() : (order.bankName ?? '');
  return (
    <div className={styles.record}>
      <span className={styles.record__title}>{t('records.exchangeTo', { card })}</span>
      <span className={styles.record__amount}>{formatMoney(order.amount, t)}</span>
      <span className={styles.record__meta}>{t('records.orderNo', { no: order.orderNo })}</span>
      <span data-testid="record-state" className={recordStateClass(order.status)}>{t(`records.state.${order.status}`)}</span>
      <span className={styles.record__meta}>{formatDateTime(order.createdAt, t)}</span>
      <span className={`${styles.record__meta} ${styles['record__meta--right']}`}>
        {order.reviewTime > 0 ? t('records.reviewedAt', { time: formatDateTime(order.reviewTime, t) }) : ''}
      </span>
      {order.remark ? <span className={styles.record__remark}>{t('records.remark', { remark: order.remark })}</span> : null}
    </div>
  );
}
