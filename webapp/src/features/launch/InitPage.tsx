import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useUserInfo } from '../account/queries';
import { assetUrl } from '../../api/assets';
import { appPath, HOME_PATH, INIT_PATH } from '../../navigation/paths';
import { PageLoading } from '../../components/status/PageLoading';
import { useSession } from '../../state/session';
import styles from './InitPage.module.css';
import { splashQuery, useAppName } from './platform';

/** The longest an operator's launch image holds the page (the settings allow 0-30 s; skip ends it sooner). */
const SPLASH_MAX_SECONDS = 30;

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
 * The launch page (/pages/init/init?redirect=): the operator's app name, or its launch image
 * (`/onloadImg`, shown for its seconds or until skipped), while the app shell's launch work
 * runs — the route guard fetches the user info when there is a token, the update check and
 * the desktop check start — then the page is replaced by `redirect`. The guard still applies
 * there: a page that needs a sign-in goes to the login page first. On a desktop the launch
 * check takes the app into the phone frame, where this page runs again and redirects.
 */
export function InitPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const appName = useAppName();
  const splash = useQuery(splashQuery);
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

  const image = splash.data?.image ?? '';
  const seconds = Math.min(Math.max(Math.round(splash.data?.seconds ?? 0), 0), SPLASH_MAX_SECONDS);
  const [ticks, setTicks] = useState(0);
  const [skipped, setSkipped] = useState(false);
  useEffect(() => {
    if (!image) return undefined;
    const timer = window.setInterval(() => {
      setTicks((n) => n + 1);
    }, 1_000);
    return () => {
      window.clearInterval(timer);
    };
  }, [image]);
  const left = skipped ? 0 : Math.max(seconds - ticks, 0);

  // The launch image holds the page for its seconds; an answer that does not come holds it
  // no longer than the user info may.
  const splashDone = splash.isError || (splash.isSuccess && (!image || left === 0)) || (splash.isPending && waitedEnough);
  const ready = (!waitingForUser || waitedEnough) && splashDone;
  useEffect(() => {
    if (ready) void navigate(target, { replace: true });
  }, [ready, target, navigate]);

  if (image) {
    return (
      <main className={`${styles['init-page']} ${styles['init-page--image']}`}>
        <img className={styles['init-page__image']} src={assetUrl(image)} alt={appName} data-testid="launch-image" />
        <button
          type="button"
          className={styles['init-page__skip']}
          onClick={() => {
            setSkipped(true);
          }}
        >
          {t('app.skip', { seconds: left })}
        </button>
      </main>
    );
  }
  return (
    <main className={styles['init-page']} aria-busy="true">
      <h1 className={styles['init-page__title']}>{appName}</h1>
      <PageLoading />
    </main>
  );
}
