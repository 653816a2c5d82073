import { Navigate, type RouteObject } from 'react-router';
import { AppShell } from './AppShell';
import { PageLoading } from './PageLoading';
import { RouteError } from './RouteError';
import { NOT_FOUND_ROUTE_ID } from './routeIds';
import { TabLayout } from './TabLayout';

// Every page is its own chunk (pages load lazily); pages/ maps a route to the screen in features/.
const chatPage = async () => ({
  Component: (await import('../pages/tabBar/ConversationListPage')).ConversationListPage,
});
const findPage = async () => ({ Component: (await import('../pages/tabBar/FindPage')).FindPage });
const minePage = async () => ({ Component: (await import('../pages/tabBar/MinePage')).MinePage });
const cityPage = async () => ({ Component: (await import('../pages/tabBar/CityPage')).CityPage });
const lovePage = async () => ({ Component: (await import('../pages/tabBar/LovePage')).LovePage });
const loginPage = async () => ({ Component: (await import('../pages/auth/LoginPage')).LoginPage });
// Discover, videos, same city, customer service, modal and desktop pages.
const incentiveWindowPage = async () => ({
  Component: (await import('../pages/find/IncentiveWindowPage')).IncentiveWindowPage,
});
const watchVideoPage = async () => ({ Component: (await import('../pages/find/WatchVideoPage')).WatchVideoPage });
const loveVideoPage = async () => ({ Component: (await import('../pages/love/HighlightsPage')).HighlightsPage });
const customerPage = async () => ({ Component: (await import('../pages/customer/CustomerPage')).CustomerPage });
const webviewPage = async () => ({ Component: (await import('../pages/modal/WebviewPage')).WebviewPage });
const updateAlertPage = async () => ({ Component: (await import('../pages/modal/UpdateAlertPage')).UpdateAlertPage });
const shareImagePage = async () => ({ Component: (await import('../pages/modal/ShareImagePage')).ShareImagePage });
const iframePage = async () => ({ Component: (await import('../pages/iframe/IframePage')).IframePage });
// The launch page and the query-driven dialogs ("Init/auth/modal").
const initPage = async () => ({ Component: (await import('../pages/init/InitPage')).InitPage });
const modalPage = async () => {
  const { ModalPage } = await import('../pages/modal/ModalPage');
  return { element: <ModalPage /> };
};
const noticeModalPage = async () => {
  const { ModalPage } = await import('../pages/modal/ModalPage');
  return { element: <ModalPage notice /> };
};
const languageSettingPage = async () => ({
  Component: (await import('../pages/my/LanguageSettingPage')).LanguageSettingPage,
});
const editInformationPage = async () => ({
  Component: (await import('../pages/my/EditInformationPage')).EditInformationPage,
});
const editNickNamePage = async () => ({ Component: (await import('../pages/my/EditNickNamePage')).EditNickNamePage });
const changeAvatarPage = async () => ({ Component: (await import('../pages/my/ChangeAvatarPage')).ChangeAvatarPage });
const shareQrcodePage = async () => ({ Component: (await import('../pages/my/ShareQrcodePage')).ShareQrcodePage });
const switchAccountPage = async () => ({ Component: (await import('../pages/my/SwitchAccountPage')).SwitchAccountPage });
const safetySettingPage = async () => ({ Component: (await import('../pages/my/SafetySettingPage')).SafetySettingPage });
const privacySettingPage = async () => ({
  Component: (await import('../pages/my/PrivacySettingPage')).PrivacySettingPage,
});
const noticePage = async () => ({ Component: (await import('../pages/my/NoticePage')).NoticePage });
const rechargePage = async () => ({ Component: (await import('../pages/my/RechargePage')).RechargePage });
const exchangePage = async () => ({ Component: (await import('../pages/my/ExchangePage')).ExchangePage });
const clickRecordPage = async () => ({ Component: (await import('../pages/my/ClickRecordPage')).ClickRecordPage });
const pointsDetailsPage = async () => ({ Component: (await import('../pages/my/PointsDetailsPage')).PointsDetailsPage });
const exchangeRecordPage = async () => ({
  Component: (await import('../pages/my/ExchangeRecordPage')).ExchangeRecordPage,
});
const modifyPasswordPage = async () => ({
  Component: (await import('../pages/setting/ModifyPasswordPage')).ModifyPasswordPage,
});
const fundPasswordPage = async () => ({ Component: (await import('../pages/setting/FundPasswordPage')).FundPasswordPage });
const changeFundPasswordPage = async () => ({
  Component: (await import('../pages/setting/ChangeFundPasswordPage')).ChangeFundPasswordPage,
});
const phoneNumberPage = async () => ({ Component: (await import('../pages/setting/PhoneNumberPage')).PhoneNumberPage });
const addBankPage = async () => ({ Component: (await import('../pages/setting/AddBankPage')).AddBankPage });
const bankManagementPage = async () => ({
  Component: (await import('../pages/setting/BankManagementPage')).BankManagementPage,
});

// Chat: /pages/chat/... and the system pages
const chatRoutes: RouteObject[] = [
  { path: 'pages/chat/search', lazy: async () => ({ Component: (await import('../pages/chat/SearchPage')).SearchPage }) },
  { path: 'pages/chat/conversation', lazy: async () => ({ Component: (await import('../pages/chat/ConversationPage')).ConversationPage }) },
  {
    path: 'pages/chat/conversation-settings',
    lazy: async () => ({ Component: (await import('../pages/chat/ConversationSettingsPage')).ConversationSettingsPage }),
  },
  { path: 'pages/chat/forward', lazy: async () => ({ Component: (await import('../pages/chat/ForwardPage')).ForwardPage }) },
  { path: 'pages/chat/contacts', lazy: async () => ({ Component: (await import('../pages/chat/ContactsPage')).ContactsPage }) },
  { path: 'pages/chat/add-friend', lazy: async () => ({ Component: (await import('../pages/chat/AddFriendPage')).AddFriendPage }) },
  { path: 'pages/chat/friend-verify', lazy: async () => ({ Component: (await import('../pages/chat/FriendVerifyPage')).FriendVerifyPage }) },
  { path: 'pages/chat/new-friend', lazy: async () => ({ Component: (await import('../pages/chat/NewFriendPage')).NewFriendPage }) },
  { path: 'pages/chat/user-info', lazy: async () => ({ Component: (await import('../pages/chat/UserInfoPage')).UserInfoPage }) },
  { path: 'pages/chat/group-list', lazy: async () => ({ Component: (await import('../pages/chat/GroupListPage')).GroupListPage }) },
  { path: 'pages/chat/group', lazy: async () => ({ Component: (await import('../pages/chat/CreateGroupPage')).CreateGroupPage }) },
  { path: 'pages/chat/group-info', lazy: async () => ({ Component: (await import('../pages/chat/GroupInfoPage')).GroupInfoPage }) },
  { path: 'pages/chat/group-edit', lazy: async () => ({ Component: (await import('../pages/chat/GroupEditPage')).GroupEditPage }) },
  { path: 'pages/chat/new-group', lazy: async () => ({ Component: (await import('../pages/chat/NewGroupPage')).NewGroupPage }) },
  { path: 'preview-image', lazy: async () => ({ Component: (await import('../pages/system/PreviewImagePage')).PreviewImagePage }) },
  { path: 'open-location', lazy: async () => ({ Component: (await import('../pages/system/OpenLocationPage')).OpenLocationPage }) },
  { path: 'choose-location', lazy: async () => ({ Component: (await import('../pages/system/ChooseLocationPage')).ChooseLocationPage }) },
];

/** The route table (pages are added here as their issues land). */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: AppShell,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteError,
    children: [
      {
        id: 'tabs',
        Component: TabLayout,
        children: [
          { index: true, lazy: chatPage },
          { path: 'pages/tabBar/chat', lazy: chatPage },
          { path: 'pages/tabBar/find', lazy: findPage },
          { path: 'pages/tabBar/mine', lazy: minePage },
          { path: 'pages/tabBar/city', lazy: cityPage },
          { path: 'pages/tabBar/love', lazy: lovePage },
        ],
      },
      { path: 'pages/init/init', lazy: initPage },
      { path: 'pages/auth/login', lazy: loginPage },
      { path: 'pages/my/language-setting', lazy: languageSettingPage },
      { path: 'pages/my/edit-information', lazy: editInformationPage },
      { path: 'pages/my/edit-nick-name', lazy: editNickNamePage },
      { path: 'pages/my/change-avatar', lazy: changeAvatarPage },
      { path: 'pages/my/share-qrcode', lazy: shareQrcodePage },
      { path: 'pages/my/switch-account', lazy: switchAccountPage },
      { path: 'pages/my/safety-setting', lazy: safetySettingPage },
      { path: 'pages/my/privacy-setting', lazy: privacySettingPage },
      { path: 'pages/my/notice', lazy: noticePage },
      { path: 'pages/my/recharge', lazy: rechargePage },
      { path: 'pages/my/exchange', lazy: exchangePage },
      { path: 'pages/my/click-record', lazy: clickRecordPage },
      { path: 'pages/my/points-details', lazy: pointsDetailsPage },
      { path: 'pages/my/exchange-record', lazy: exchangeRecordPage },
      { path: 'pages/setting/modify-password', lazy: modifyPasswordPage },
      { path: 'pages/setting/fund-password', lazy: fundPasswordPage },
      { path: 'pages/setting/change-fund-password', lazy: changeFundPasswordPage },
      { path: 'pages/setting/phone-number', lazy: phoneNumberPage },
      { path: 'pages/setting/add-bank', lazy: addBankPage },
      { path: 'pages/setting/nick-name', lazy: editNickNamePage },
      { path: 'pages/setting/bank-management', lazy: bankManagementPage },
      ...chatRoutes,
      { path: 'pages/find/incentive-window', lazy: incentiveWindowPage },
      { path: 'pages/find/watch-video', lazy: watchVideoPage },
      { path: 'pages/love/video', lazy: loveVideoPage },
      { path: 'pages/customer/customer', lazy: customerPage },
      { path: 'pages/modal/modal', lazy: modalPage },
      { path: 'pages/modal/modal_n', lazy: noticeModalPage },
      { path: 'pages/modal/webview', lazy: webviewPage },
      { path: 'pages/modal/update-alert', lazy: updateAlertPage },
      { path: 'pages/modal/share-image', lazy: shareImagePage },
      { path: 'pages/iframe/iframe', lazy: iframePage },
      { id: NOT_FOUND_ROUTE_ID, path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
