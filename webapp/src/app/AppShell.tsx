import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { ChatSession } from '../features/chat/session/ChatSession';
import { useUserInfo } from '../features/account/queries';
import { useUpdateCheck } from '../features/account/useUpdateCheck';
import { Toast } from '../components/toast/Toast';
import { UpdatePrompt } from '../components/update-prompt/UpdatePrompt';
import { LaunchChecks } from '../features/launch/LaunchChecks';
import { usePlatformStart } from '../features/launch/platform';
import { RoundOutcomeNotice } from '../features/rounds/RoundOutcomeNotice';
import { useSession } from '../state/session';
import { isOpenPath, isTabPath, loginPath } from '../navigation/paths';
import { NewVersionPrompt } from './NewVersionPrompt';
import { firstScreenShown } from './serviceWorker';
import { NOT_FOUND_ROUTE_ID } from './routeIds';

/**
 * Root layout: the route guard, the 300 ms route animation, the
 * toast and the update prompt. Tab pages share one animated container so the tab bar stays
 * put between tabs.
 */
export function AppShell() {
  const location = useLocation();
  const matches = useMatches();
  const { token } = useSession();
  const unknown = matches.some((match) => match.id === NOT_FOUND_ROUTE_ID);
  useSessionCache(token);
  // Spec section 2: with a token but no user info yet, the guard fetches it.
  useUserInfo();
  useLaunchUpdateCheck();
  usePlatformStart(location.pathname);
  // The router renders the shell once the first page's chunk is in: the first screen is up,
  // and the service worker's install may start downloading the rest of the build.
  useEffect(() => {
    firstScreenShown();
  }, []);

  if (!unknown && !token && !isOpenPath(location.pathname)) {
    return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  }

  const animationKey = isTabPath(location.pathname) ? 'tabs' : location.pathname;
  return (
    <>
      <div key={animationKey} className="route-enter">
        <Outlet />
      </div>
      <ChatSession />
      {token ? <RoundOutcomeNotice /> : null}
      <Toast />
      <UpdatePrompt />
      <NewVersionPrompt />
      <LaunchChecks />
    </>
  );
}

/** When the session ends (sign-out, or the API module dropped it), forget its data. */
function useSessionCache(token: string | null): void {
  const queryClient = useQueryClient();
  const previous = useRef(token);
  useEffect(() => {
    if (previous.current && !token) queryClient.removeQueries();
    previous.current = token;
  }, [token, queryClient]);
}

/** The update check, once per launch. */
function useLaunchUpdateCheck(): void {
  const check = useUpdateCheck();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    void check(false);
  }, [check]);
}
