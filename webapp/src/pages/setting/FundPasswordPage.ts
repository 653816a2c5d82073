// Route /pages/setting/fund-password: the screen lives with its feature.
export { FundPasswordPage } from '../../features/wallet/fund-password/FundPasswordPage';
