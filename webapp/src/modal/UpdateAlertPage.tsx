import '../components/ui/ui.css';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { browserStore, STORAGE_KEYS } from '../api/storage';
import { HOME_PATH } from '../app/paths';
import { EmptyState } from '../components/empty-state/EmptyState';
import { useManifest } from '../launch/manifest';
import { decideUpdate } from '../launch/update';
import { APP_VERSION } from '../launch/version';
import './modal.css';

/**
 * The update prompt (/pages/modal/update-alert?type=force|normal). Forced: only the update
 * button, no way out. Optional: update, later, or ignore this version for good.
 */
export function UpdateAlertPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const manifest = useManifest();
  const close = (): void => {
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(HOME_PATH, { replace: true });
  };

  if (manifest.isPending) {
    return (
      <main className="page modal-page">
        <p className="muted-note">{t('common.loading')}</p>
      </main>
    );
  }
  if (manifest.isError) {
    return (
      <main className="page modal-page">
        <EmptyState title={t('modal.update.checkFailed')} text={manifest.error.message}>
          <button type="button" className="button" onClick={() => void manifest.refetch()}>
            {t('discover.retry')}
          </button>
        </EmptyState>
      </main>
    );
  }

  // What the manifest says now decides, not the query: a forced update cannot be skipped by editing the URL.
  const decision = decideUpdate({
    manifest: manifest.data,
    ignored: browserStore.get(STORAGE_KEYS.ignoreAppVersion),
    resourceSeen: null,
    fromMine: params.get('type') === 'normal',
  });

  if (decision.kind !== 'force' && decision.kind !== 'normal') {
    return (
      <main className="page modal-page">
        <EmptyState title={t('modal.update.latest')} text={t('modal.update.current', { version: APP_VERSION })}>
          <button type="button" className="button" onClick={close}>
            {t('discover.close')}
          </button>
        </EmptyState>
      </main>
    );
  }

  const forced = decision.kind === 'force';
  const { pkg } = decision;
  return (
    <main className="page modal-page modal-page--dim">
      <section className="update-card" role="alertdialog" aria-modal="true" aria-labelledby="update-title" data-kind={decision.kind}>
        <h1 id="update-title" className="update-card__title">
          {forced ? t('modal.update.forceTitle') : t('modal.update.title')}
        </h1>
        <p className="update-card__version">{t('modal.update.versions', { current: APP_VERSION, next: pkg.version })}</p>
        {pkg.remark ? <p className="update-card__remark">{pkg.remark}</p> : null}
        {pkg.path ? (
          <a className="button button--block" href={pkg.path} target="_blank" rel="noopener noreferrer">
            {t('modal.update.now')}
          </a>
        ) : null}
        {forced ? (
          <p className="update-card__note">{t('modal.update.forceNote')}</p>
        ) : (
          <div className="update-card__actions">
            <button type="button" className="button button--secondary" onClick={close}>
              {t('modal.update.later')}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                browserStore.set(STORAGE_KEYS.ignoreAppVersion, pkg.version);
                close();
              }}
            >
              {t('modal.update.ignore')}
            </button>
          </div>
        )}
      </section>
    </main>
  );
}
