// Route /pages/setting/change-fund-password: the screen lives with its feature.
export { ChangeFundPasswordPage } from '../../features/wallet/fund-password/ChangeFundPasswordPage';
