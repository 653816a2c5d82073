import { createBrowserRouter, Navigate } from 'react-router';
import { Layout, RequireRole } from './Layout';
import { AuditScreen } from './screens/AuditScreen';
import { ContentScreen } from './screens/ContentScreen';
import { CustomerScreen } from './screens/CustomerScreen';
import { DashboardScreen } from './screens/DashboardScreen';
import { LoginScreen } from './screens/LoginScreen';
import { OperatorsScreen } from './screens/OperatorsScreen';
import { ReviewScreen } from './screens/ReviewScreen';
import { UsersScreen } from './screens/UsersScreen';
import { WindowsScreen } from './screens/WindowsScreen';

export const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginScreen /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <DashboardScreen /> },
        { path: 'recharges', element: <ReviewScreen kind="recharge" /> },
        { path: 'exchanges', element: <ReviewScreen kind="exchange" /> },
        { path: 'users', element: <UsersScreen /> },
        { path: 'users/:userId', element: <UsersScreen /> },
        { path: 'customer', element: <CustomerScreen /> },
        { path: 'windows', element: <WindowsScreen /> },
        {
          path: 'content',
          element: (
            <RequireRole role="admin">
              <ContentScreen />
            </RequireRole>
          ),
        },
        { path: 'audit', element: <AuditScreen /> },
        {
          path: 'operators',
          element: (
            <RequireRole role="admin">
              <OperatorsScreen />
            </RequireRole>
          ),
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ],
  { basename: '/admin' },
);
