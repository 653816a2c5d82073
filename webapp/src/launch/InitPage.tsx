import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useUserInfo } from '../account/queries';
import { appPath, HOME_PATH, INIT_PATH } from '../app/paths';
import { PageLoading } from '../app/PageLoading';
import { useSession } from '../state/session';
import './InitPage.css';

/**
 * The longest the splash waits for the signed-in user's info before opening the page anyway:
 * long enough for a slow mobile network (and for a loaded test box), short of a hang.
 */
export const LAUNCH_WAIT_MS = 10_000;

/** Where the launch page goes: its `redirect` when that is a path of this app (not itself), else home. */
export function launchTarget(raw: string | null): string {
  const path = appPath(raw?.trim());
  return path && !path.startsWith(INIT_PATH) ? path : HOME_PATH;
}

/**
 * The launch page (/pages/init/init?redirect=): a splash while the app shell's launch work
 * runs — the route guard fetches the user info when there is a token, the update check and
 * the desktop check start — then the page is replaced by `redirect`. The guard still applies
 * there: a page that needs a sign-in goes to the login page first. On a desktop the launch
 * check takes the app into the phone frame, where this page runs again and redirects.
 */
export function InitPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [target] = useState(() => launchTarget(params.get('redirect')));
  const { token } = useSession();
  // The same query the guard runs (one request); paused offline or failed, the page opens anyway.
  const user = useUserInfo();
  const waitingForUser = Boolean(token) && user.isPending && user.fetchStatus === 'fetching';
  const [waitedEnough, setWaitedEnough] = useState(false);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      setWaitedEnough(true);
    }, LAUNCH_WAIT_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, []);

  const ready = !waitingForUser || waitedEnough;
  useEffect(() => {
    if (ready) void navigate(target, { replace: true });
  }, [ready, target, navigate]);

  return (
    <main className="init-page" aria-busy="true">
      <h1 className="init-page__title">{t('app.title')}</h1>
      <PageLoading />
    </main>
  );
}
