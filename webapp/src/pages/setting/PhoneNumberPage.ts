// Route /pages/setting/phone-number: the screen lives with its feature.
export { PhoneNumberPage } from '../../features/account/settings/PhoneNumberPage';
