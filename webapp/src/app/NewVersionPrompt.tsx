import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import styles from '../features/rounds/trend.module.css';
import { activateNewVersion, waitingWorkerAtom } from './serviceWorker';

/** Says a new version of the app is installed and waiting, with "update now". */
export function NewVersionPrompt() {
  const { t } = useTranslation();
  const [worker, setWorker] = useAtom(waitingWorkerAtom);
  if (!worker) return null;
  return (
    <div className={styles['round-notice__region']} role="status">
      <div className={styles['round-notice']} data-new-version="">
        <span>{t('app.newVersion')}</span>
        <button
          type="button"
          className="button"
          onClick={() => {
            setWorker(null);
            activateNewVersion(worker);
          }}
        >
          {t('app.newVersionNow')}
        </button>
      </div>
    </div>
  );
}
