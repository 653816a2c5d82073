export { formatMoney, formatMoneyShort } from './money';
export { formatDateTime, formatTimeAgo, toEpochMs } from './timeAgo';
