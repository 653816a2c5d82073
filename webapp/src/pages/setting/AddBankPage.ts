// Route /pages/setting/add-bank: the screen lives with its feature.
export { AddBankPage } from '../../features/wallet/bank/AddBankPage';
