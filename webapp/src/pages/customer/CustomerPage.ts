// Route /pages/customer/customer: the screen lives with its feature.
export { CustomerPage } from '../../features/customer/CustomerPage';
