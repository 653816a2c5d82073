import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Layout, RequireRole } from './Layout';
import { AuditScreen } from './screens/AuditScreen';
import { ContentScreen } from './screens/ContentScreen';
import { CustomerScreen } from './screens/CustomerScreen';
import { DashboardScreen } from './screens/DashboardScreen';
import { LoginScreen } from './screens/LoginScreen';
import { OperatorsScreen } from './screens/OperatorsScreen';
import { ProtectionScreen } from './screens/ProtectionScreen';
import { ReviewScreen } from './screens/ReviewScreen';
import { UsersScreen } from './screens/UsersScreen';
import { WindowsScreen } from './screens/WindowsScreen';

/** A screen only admins may open. */
const adminOnly = (screen: ReactNode) => <RequireRole role="admin">{screen}</RequireRole>;

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
        { path: 'content', element: adminOnly(<ContentScreen />) },
        { path: 'protection', element: <ProtectionScreen /> },
        { path: 'audit', element: <AuditScreen /> },
        { path: 'operators', element: adminOnly(<OperatorsScreen />) },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ],
  { basename: '/admin' },
);
