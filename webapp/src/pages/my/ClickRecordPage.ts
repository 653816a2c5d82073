// Route /pages/my/click-record: the screen lives with its feature.
export { ClickRecordPage } from '../../features/wallet/records/ClickRecordPage';
