// Route /pages/my/language-setting: the screen lives with its feature.
export { LanguageSettingPage } from '../../features/account/settings/LanguageSettingPage';
