import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { Toast } from '../components/toast/Toast';
import { LaunchChecks } from '../launch/LaunchChecks';
import { useSession } from '../state/session';
import { isOpenPath, isTabPath, loginPath } from './paths';
import { NOT_FOUND_ROUTE_ID } from './routeIds';

/**
 * Root layout: the route guard (spec sections 2 and 6), the 300 ms route animation and the
 * toast. Tab pages share one animated container so the tab bar stays put between tabs.
 */
export function AppShell() {
  const location = useLocation();
  const matches = useMatches();
  const { token } = useSession();
  const unknown = matches.some((match) => match.id === NOT_FOUND_ROUTE_ID);

  if (!unknown && !token && !isOpenPath(location.pathname)) {
    return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  }

  const animationKey = isTabPath(location.pathname) ? 'tabs' : location.pathname;
  return (
    <>
      <div key={animationKey} className="route-enter">
        <Outlet />
      </div>
      <Toast />
      <LaunchChecks />
    </>
  );
}
