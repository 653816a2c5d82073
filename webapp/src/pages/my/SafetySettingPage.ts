// Route /pages/my/safety-setting: the screen lives with its feature.
export { SafetySettingPage } from '../../features/account/settings/SafetySettingPage';
