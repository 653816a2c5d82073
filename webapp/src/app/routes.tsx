import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { PageLoading } from '../components/status/PageLoading';
import { AppShell } from './AppShell';
import { RouteError } from './RouteError';
import { NOT_FOUND_ROUTE_ID } from './routeIds';
import { TabLayout } from './TabLayout';

/**
 * A route's screen: the component `load`'s feature module exports as `name`. The import runs
 * when the route is first matched, so each screen is a chunk of its own that the first page
 * never waits for; the type checks that the module exports a component by that name.
 */
function screen<Name extends string, Module extends Record<Name, ComponentType>>(load: () => Promise<Module>, name: Name) {
  return async () => ({ Component: (await load())[name] });
}

// Screens that more than one route shows.
const chatPage = screen(() => import('../features/chat/list/ConversationListPage'), 'ConversationListPage');
const editNickNamePage = screen(() => import('../features/account/profile/EditNickNamePage'), 'EditNickNamePage');
// The query-driven dialogs ("Init/auth/modal"): one screen, the second with a notice to acknowledge.
const modalPage = async () => {
  const { ModalPage } = await import('../features/modal/ModalPage');
  return { element: <ModalPage /> };
};
const noticeModalPage = async () => {
  const { ModalPage } = await import('../features/modal/ModalPage');
  return { element: <ModalPage notice /> };
};

// Chat: /pages/chat/... and the system pages
const chatRoutes: RouteObject[] = [
  { path: 'pages/chat/search', lazy: screen(() => import('../features/chat/search/SearchPage'), 'SearchPage') },
  {
    path: 'pages/chat/conversation',
    lazy: screen(() => import('../features/chat/conversation/ConversationPage'), 'ConversationPage'),
  },
  {
    path: 'pages/chat/conversation-settings',
    lazy: screen(() => import('../features/chat/conversation/ConversationSettingsPage'), 'ConversationSettingsPage'),
  },
  { path: 'pages/chat/forward', lazy: screen(() => import('../features/chat/forward/ForwardPage'), 'ForwardPage') },
  { path: 'pages/chat/contacts', lazy: screen(() => import('../features/chat/contacts/ContactsPage'), 'ContactsPage') },
  { path: 'pages/chat/add-friend', lazy: screen(() => import('../features/chat/contacts/AddFriendPage'), 'AddFriendPage') },
  {
    path: 'pages/chat/friend-verify',
    lazy: screen(() => import('../features/chat/contacts/FriendVerifyPage'), 'FriendVerifyPage'),
  },
  { path: 'pages/chat/new-friend', lazy: screen(() => import('../features/chat/contacts/NewFriendPage'), 'NewFriendPage') },
  { path: 'pages/chat/user-info', lazy: screen(() => import('../features/chat/contacts/UserInfoPage'), 'UserInfoPage') },
  { path: 'pages/chat/group-list', lazy: screen(() => import('../features/chat/groups/GroupListPage'), 'GroupListPage') },
  { path: 'pages/chat/group', lazy: screen(() => import('../features/chat/groups/CreateGroupPage'), 'CreateGroupPage') },
  { path: 'pages/chat/group-info', lazy: screen(() => import('../features/chat/groups/GroupInfoPage'), 'GroupInfoPage') },
  { path: 'pages/chat/group-edit', lazy: screen(() => import('../features/chat/groups/GroupEditPage'), 'GroupEditPage') },
  { path: 'pages/chat/new-group', lazy: screen(() => import('../features/chat/groups/NewGroupPage'), 'NewGroupPage') },
  { path: 'preview-image', lazy: screen(() => import('../features/chat/system/PreviewImagePage'), 'PreviewImagePage') },
  { path: 'open-location', lazy: screen(() => import('../features/chat/system/OpenLocationPage'), 'OpenLocationPage') },
  { path: 'choose-location', lazy: screen(() => import('../features/chat/system/ChooseLocationPage'), 'ChooseLocationPage') },
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
          { path: 'pages/tabBar/find', lazy: screen(() => import('../features/discover/FindPage'), 'FindPage') },
          { path: 'pages/tabBar/mine', lazy: screen(() => import('../features/account/mine/MinePage'), 'MinePage') },
          { path: 'pages/tabBar/city', lazy: screen(() => import('../features/city/CityPage'), 'CityPage') },
          { path: 'pages/tabBar/love', lazy: screen(() => import('../features/videos/LovePage'), 'LovePage') },
        ],
      },
      { path: 'pages/init/init', lazy: screen(() => import('../features/launch/InitPage'), 'InitPage') },
      { path: 'pages/auth/login', lazy: screen(() => import('../features/account/auth/LoginPage'), 'LoginPage') },
      {
        path: 'pages/my/language-setting',
        lazy: screen(() => import('../features/account/settings/LanguageSettingPage'), 'LanguageSettingPage'),
      },
      {
        path: 'pages/my/edit-information',
        lazy: screen(() => import('../features/account/profile/EditInformationPage'), 'EditInformationPage'),
      },
      { path: 'pages/my/edit-nick-name', lazy: editNickNamePage },
      {
        path: 'pages/my/change-avatar',
        lazy: screen(() => import('../features/account/profile/ChangeAvatarPage'), 'ChangeAvatarPage'),
      },
      {
        path: 'pages/my/share-qrcode',
        lazy: screen(() => import('../features/account/profile/ShareQrcodePage'), 'ShareQrcodePage'),
      },
      {
        path: 'pages/my/switch-account',
        lazy: screen(() => import('../features/account/switch/SwitchAccountPage'), 'SwitchAccountPage'),
      },
      {
        path: 'pages/my/safety-setting',
        lazy: screen(() => import('../features/account/settings/SafetySettingPage'), 'SafetySettingPage'),
      },
      {
        path: 'pages/my/privacy-setting',
        lazy: screen(() => import('../features/chat/privacy/PrivacySettingPage'), 'PrivacySettingPage'),
      },
      { path: 'pages/my/notice', lazy: screen(() => import('../features/notices/NoticePage'), 'NoticePage') },
      { path: 'pages/my/recharge', lazy: screen(() => import('../features/wallet/recharge/RechargePage'), 'RechargePage') },
      { path: 'pages/my/exchange', lazy: screen(() => import('../features/wallet/exchange/ExchangePage'), 'ExchangePage') },
      {
        path: 'pages/my/click-record',
        lazy: screen(() => import('../features/wallet/records/ClickRecordPage'), 'ClickRecordPage'),
      },
      {
        path: 'pages/my/points-details',
        lazy: screen(() => import('../features/wallet/records/PointsDetailsPage'), 'PointsDetailsPage'),
      },
      {
        path: 'pages/my/exchange-record',
        lazy: screen(() => import('../features/wallet/records/ExchangeRecordPage'), 'ExchangeRecordPage'),
      },
      {
        path: 'pages/setting/responsible-play',
        lazy: screen(() => import('../features/protection/ResponsiblePlayPage'), 'ResponsiblePlayPage'),
      },
      {
        path: 'pages/setting/devices',
        lazy: screen(() => import('../features/account/devices/DevicesPage'), 'DevicesPage'),
      },
      {
        path: 'pages/setting/notifications',
        lazy: screen(() => import('../features/account/notifications/NotificationSettingPage'), 'NotificationSettingPage'),
      },
      {
        path: 'pages/setting/account-data',
        lazy: screen(() => import('../features/account/data/AccountDataPage'), 'AccountDataPage'),
      },
      {
        path: 'pages/setting/delete-account',
        lazy: screen(() => import('../features/account/data/DeleteAccountPage'), 'DeleteAccountPage'),
      },
      {
        path: 'pages/setting/modify-password',
        lazy: screen(() => import('../features/account/settings/ModifyPasswordPage'), 'ModifyPasswordPage'),
      },
      {
        path: 'pages/setting/fund-password',
        lazy: screen(() => import('../features/wallet/fund-password/FundPasswordPage'), 'FundPasswordPage'),
      },
      {
        path: 'pages/setting/change-fund-password',
        lazy: screen(() => import('../features/wallet/fund-password/ChangeFundPasswordPage'), 'ChangeFundPasswordPage'),
      },
      {
        path: 'pages/setting/phone-number',
        lazy: screen(() => import('../features/account/settings/PhoneNumberPage'), 'PhoneNumberPage'),
      },
      { path: 'pages/setting/add-bank', lazy: screen(() => import('../features/wallet/bank/AddBankPage'), 'AddBankPage') },
      { path: 'pages/setting/nick-name', lazy: editNickNamePage },
      {
        path: 'pages/setting/bank-management',
        lazy: screen(() => import('../features/wallet/bank/BankManagementPage'), 'BankManagementPage'),
      },
      ...chatRoutes,
      {
        path: 'pages/find/incentive-window',
        lazy: screen(() => import('../features/rounds/IncentiveWindowPage'), 'IncentiveWindowPage'),
      },
      { path: 'pages/find/watch-video', lazy: screen(() => import('../features/videos/WatchVideoPage'), 'WatchVideoPage') },
      { path: 'pages/love/video', lazy: screen(() => import('../features/videos/HighlightsPage'), 'HighlightsPage') },
      { path: 'pages/customer/customer', lazy: screen(() => import('../features/customer/CustomerPage'), 'CustomerPage') },
      { path: 'pages/modal/modal', lazy: modalPage },
      { path: 'pages/modal/modal_n', lazy: noticeModalPage },
      { path: 'pages/modal/webview', lazy: screen(() => import('../features/modal/WebviewPage'), 'WebviewPage') },
      { path: 'pages/modal/update-alert', lazy: screen(() => import('../features/modal/UpdateAlertPage'), 'UpdateAlertPage') },
      { path: 'pages/modal/share-image', lazy: screen(() => import('../features/modal/ShareImagePage'), 'ShareImagePage') },
      { path: 'pages/iframe/iframe', lazy: screen(() => import('../features/modal/IframePage'), 'IframePage') },
      { id: NOT_FOUND_ROUTE_ID, path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
