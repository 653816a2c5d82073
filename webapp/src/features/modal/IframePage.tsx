import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { appPath, HOME_PATH, FIND_PATHS } from '../../navigation/paths';
import styles from './modal.module.css';
import { useAppName } from '../launch/platform';

/** The page to show inside the frame: a path of this app, never the frame itself or another site. */
export function framedPath(raw: string | null): string {
  const path = appPath(raw);
  if (!path || path.startsWith(FIND_PATHS.iframe)) return HOME_PATH;
  return path;
}

/**
 * The desktop frame (/pages/iframe/iframe?path=): the app at phone size in the middle of a
 * desktop screen. The address bar follows the page shown inside, so a reload returns to it.
 */
export function IframePage() {
  const { t } = useTranslation();
  const appName = useAppName();
  const [params] = useSearchParams();
  const frame = useRef<HTMLIFrameElement>(null);
  const [path] = useState(() => framedPath(params.get('path')));

  // Same origin: follow the page inside (its router changes pages without loading the frame).
  useEffect(() => {
    let last = '';
    const timer = setInterval(() => {
      try {
        const inner = frame.current?.contentWindow?.location;
        if (!inner || inner.href === 'about:blank') return;
        const current = `${inner.pathname}${inner.search}`;
        if (current === last) return;
        last = current;
        const next = `${FIND_PATHS.iframe}?${new URLSearchParams({ path: current }).toString()}`;
        window.history.replaceState(window.history.state, '', next);
      } catch {
        // Not readable (another origin): leave the address as it is.
      }
    }, 500);
    return () => {
      clearInterval(timer);
    };
  }, []);
  return (
    <main className={styles['iframe-page']}>
      <div className={styles['iframe-page__device']}>
        <iframe
          ref={frame}
          className={styles['iframe-page__frame']}
          data-testid="iframe-frame"
          src={path}
          title={appName}
        />
      </div>
      <p className={styles['iframe-page__hint']}>{t('iframe.hint')}</p>
    </main>
  );
}
