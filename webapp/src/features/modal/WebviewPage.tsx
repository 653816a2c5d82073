import '../../components/ui/ui.css';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';
import styles from './modal.module.css';

export interface WebviewTarget {
  src: string;
  sameOrigin: boolean;
}

/** Only http(s) URLs and paths of this server are shown; anything else (javascript:, data:) is refused. */
export function webviewTarget(raw: string | null, origin: string = window.location.origin): WebviewTarget | null {
  if (!raw) return null;
  const value = raw.trim();
  let url: URL;
  try {
    url = value.startsWith('/') && !value.startsWith('//') ? new URL(value, origin) : new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return { src: url.toString(), sameOrigin: url.origin === origin };
}

/** A web page inside the app (/pages/modal/webview?url=&title=). */
export function WebviewPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = webviewTarget(params.get('url'));
  const given = params.get('title')?.trim() ?? '';
  const title = given !== '' ? given : t('modal.webview.title');
  return (
    <main className={styles['webview-page']}>
      <PageHeader title={title} back />
      {target ? (
        <>
          <iframe
            className={styles['webview-page__frame']}
            data-testid="webview-frame"
            src={target.src}
            title={title}
            // Pages of this server get no scripts (they would run as the app); other sites are
            // isolated by their origin and may run theirs.
            sandbox={target.sameOrigin ? 'allow-popups' : 'allow-scripts allow-same-origin allow-forms allow-popups'}
            referrerPolicy="no-referrer"
          />
          <a className={styles['webview-page__open']} href={target.src} target="_blank" rel="noopener noreferrer">
            {t('modal.webview.openInBrowser')}
          </a>
        </>
      ) : (
        <EmptyState title={t('modal.webview.invalid')} />
      )}
    </main>
  );
}
