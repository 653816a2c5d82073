// Route /pages/setting/bank-management: the screen lives with its feature.
export { BankManagementPage } from '../../features/wallet/bank/BankManagementPage';
