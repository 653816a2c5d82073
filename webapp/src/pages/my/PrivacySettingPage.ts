// Route /pages/my/privacy-setting: the screen lives with its feature.
export { PrivacySettingPage } from '../../features/chat/privacy/PrivacySettingPage';
