// Route /pages/setting/modify-password: the screen lives with its feature.
export { ModifyPasswordPage } from '../../features/account/settings/ModifyPasswordPage';
