import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { api } from './api/client';
import { useT, type TextKey } from './i18n/useT';
import { clearSession, sessionAtom, writeSession, type Role } from './state/session';
import { Button, Empty, LanguageSelect, Toasts } from './ui/kit';
import css from './layout.module.css';

interface NavItem {
  to: string;
  label: TextKey;
  /** Roles that see the item; absent: every operator. */
  roles?: Role[];
}

const NAV: NavItem[] = [
  { to: '/', label: 'nav.dashboard' },
  { to: '/recharges', label: 'nav.recharges' },
  { to: '/exchanges', label: 'nav.exchanges' },
  { to: '/users', label: 'nav.users' },
  { to: '/customer', label: 'nav.customer' },
  { to: '/windows', label: 'nav.windows' },
  { to: '/content', label: 'nav.content', roles: ['admin'] },
  { to: '/protection', label: 'protection.nav' },
  { to: '/audit', label: 'nav.audit' },
  { to: '/operators', label: 'nav.operators', roles: ['admin'] },
];

export function Layout() {
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  const { t } = useT();
  // The role is asked again on every start and every few minutes, so a change by an admin shows.
  const me = useQuery({
    queryKey: ['me', session?.userId],
    queryFn: () => api<{ role: Role }>('/admin/me'),
    enabled: Boolean(session),
    refetchInterval: 300_000,
  });
  const role = me.data?.role;
  useEffect(() => {
    if (session && role && role !== session.role) writeSession({ ...session, role });
  }, [session, role]);
  if (!session) return <Navigate to={`/login?from=${encodeURIComponent(location.pathname)}`} replace />;
  const signOut = () => {
    void api('/logout').catch(() => undefined);
    clearSession();
  };
  return (
    <div className={css.shell}>
      <nav className={css.nav} aria-label={t('nav.label')}>
        <div className={css.brand}>{t('app.title')}</div>
        {NAV.filter((n) => !n.roles || n.roles.includes(session.role)).map((n) => (
          <NavLink key={n.to} to={n.to} end={n.to === '/'} className={({ isActive }) => [css.link, isActive && css.active].filter(Boolean).join(' ')}>
            {t(n.label)}
          </NavLink>
        ))}
      </nav>
      <div className={css.main}>
        <header className={css.header}>
          <span className={css.who}>
            {session.account} · <span data-testid="role">{t(session.role === 'admin' ? 'roles.admin' : 'roles.agent')}</span>
          </span>
          <LanguageSelect className={css.lang} />
          <Button small onClick={signOut}>
            {t('login.signOut')}
          </Button>
        </header>
        <main className={css.content}>
          <Outlet />
        </main>
      </div>
      <Toasts />
    </div>
  );
}

/** Shows its children only to the given role; the server refuses the calls anyway. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const session = useAtomValue(sessionAtom);
  const { t } = useT();
  if (session?.role !== role) return <Empty>{t('common.noRight')}</Empty>;
  return children;
}
