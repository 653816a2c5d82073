import { Navigate, type RouteObject } from 'react-router';
import { AppShell } from './AppShell';
import { PageLoading } from './PageLoading';
import { RouteError } from './RouteError';
import { NOT_FOUND_ROUTE_ID } from './routeIds';
import { TabLayout } from './TabLayout';

// Every page is its own chunk (spec section 2: pages load lazily).
const chatPage = async () => ({ Component: (await import('../pages/tabBar/ChatPage')).ChatPage });
const findPage = async () => ({ Component: (await import('../pages/tabBar/FindPage')).FindPage });
const minePage = async () => ({ Component: (await import('../pages/tabBar/MinePage')).MinePage });
const cityPage = async () => ({ Component: (await import('../pages/tabBar/CityPage')).CityPage });
const lovePage = async () => ({ Component: (await import('../pages/tabBar/LovePage')).LovePage });
const loginPage = async () => ({ Component: (await import('../pages/auth/LoginPage')).LoginPage });
const languageSettingPage = async () => ({
  Component: (await import('../pages/my/LanguageSettingPage')).LanguageSettingPage,
});

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
      { id: NOT_FOUND_ROUTE_ID, path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
