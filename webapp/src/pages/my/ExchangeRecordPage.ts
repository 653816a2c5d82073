// Route /pages/my/exchange-record: the screen lives with its feature.
export { ExchangeRecordPage } from '../../features/wallet/records/ExchangeRecordPage';
