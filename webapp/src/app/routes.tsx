import { Navigate, type RouteObject } from 'react-router';
import { AppShell } from './AppShell';
import { PageLoading } from './PageLoading';
import { RouteError } from './RouteError';
import { NOT_FOUND_ROUTE_ID } from './routeIds';
import { TabLayout } from './TabLayout';

// Every page is its own chunk (spec section 2: pages load lazily).
const chatPage = async () => ({
  Component: (await import('../chat/list/ConversationListPage')).ConversationListPage,
});
const findPage = async () => ({ Component: (await import('../pages/tabBar/FindPage')).FindPage });
const minePage = async () => ({ Component: (await import('../pages/tabBar/MinePage')).MinePage });
const cityPage = async () => ({ Component: (await import('../pages/tabBar/CityPage')).CityPage });
const lovePage = async () => ({ Component: (await import('../pages/tabBar/LovePage')).LovePage });
const loginPage = async () => ({ Component: (await import('../pages/auth/LoginPage')).LoginPage });
const languageSettingPage = async () => ({
  Component: (await import('../pages/my/LanguageSettingPage')).LanguageSettingPage,
});

// Chat (issue 9): /pages/chat/... and the system pages of spec section 2.
const chatRoutes: RouteObject[] = [
  { path: 'pages/chat/search', lazy: async () => ({ Component: (await import('../chat/search/SearchPage')).SearchPage }) },
  { path: 'pages/chat/conversation', lazy: async () => ({ Component: (await import('../chat/conversation/ConversationPage')).ConversationPage }) },
  { path: 'pages/chat/forward', lazy: async () => ({ Component: (await import('../chat/forward/ForwardPage')).ForwardPage }) },
  { path: 'pages/chat/contacts', lazy: async () => ({ Component: (await import('../chat/contacts/ContactsPage')).ContactsPage }) },
  { path: 'pages/chat/add-friend', lazy: async () => ({ Component: (await import('../chat/contacts/AddFriendPage')).AddFriendPage }) },
  { path: 'pages/chat/friend-verify', lazy: async () => ({ Component: (await import('../chat/contacts/FriendVerifyPage')).FriendVerifyPage }) },
  { path: 'pages/chat/new-friend', lazy: async () => ({ Component: (await import('../chat/contacts/NewFriendPage')).NewFriendPage }) },
  { path: 'pages/chat/user-info', lazy: async () => ({ Component: (await import('../chat/contacts/UserInfoPage')).UserInfoPage }) },
  { path: 'pages/chat/group-list', lazy: async () => ({ Component: (await import('../chat/groups/GroupListPage')).GroupListPage }) },
  { path: 'pages/chat/group', lazy: async () => ({ Component: (await import('../chat/groups/CreateGroupPage')).CreateGroupPage }) },
  { path: 'pages/chat/group-info', lazy: async () => ({ Component: (await import('../chat/groups/GroupInfoPage')).GroupInfoPage }) },
  { path: 'pages/chat/group-edit', lazy: async () => ({ Component: (await import('../chat/groups/GroupEditPage')).GroupEditPage }) },
  { path: 'pages/chat/new-group', lazy: async () => ({ Component: (await import('../chat/groups/NewGroupPage')).NewGroupPage }) },
  { path: 'preview-image', lazy: async () => ({ Component: (await import('../chat/system/PreviewImagePage')).PreviewImagePage }) },
  { path: 'open-location', lazy: async () => ({ Component: (await import('../chat/system/OpenLocationPage')).OpenLocationPage }) },
  { path: 'choose-location', lazy: async () => ({ Component: (await import('../chat/system/ChooseLocationPage')).ChooseLocationPage }) },
];

/** The route table of spec section 2 (pages are added here as their issues land). */
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
      { path: 'pages/auth/login', lazy: loginPage },
      { path: 'pages/my/language-setting', lazy: languageSettingPage },
      ...chatRoutes,
      { id: NOT_FOUND_ROUTE_ID, path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
