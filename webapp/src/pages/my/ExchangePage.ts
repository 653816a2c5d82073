// Route /pages/my/exchange: the screen lives with its feature.
export { ExchangePage } from '../../features/wallet/exchange/ExchangePage';
