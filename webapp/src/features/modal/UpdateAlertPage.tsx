import '../../components/ui/ui.css';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateCheck } from '../account/useUpdateCheck';
import { HOME_PATH } from '../../navigation/paths';
import { useBack } from '../../navigation/useReturn';
import { updatePromptAtom } from '../../state/appUpdate';
import styles from './modal.module.css';

/**
 * The update prompt as a page (/pages/modal/update-alert): checks the manifest as the mine page
 * does (an ignored version is offered again) and shows the app's update prompt over it. A
 * forced update keeps the prompt and the page; otherwise closing it goes back, and an app that
 * is up to date says so (the 'latest version' toast) and goes back.
 */
export function UpdateAlertPage() {
  const { t } = useTranslation();
  const back = useBack(HOME_PATH);
  const check = useUpdateCheck();
  const prompt = useAtomValue(updatePromptAtom);
  const [checked, setChecked] = useState(false);

  useEffect(() => {
    let live = true;
    void check(true).finally(() => {
      if (live) setChecked(true);
    });
    return () => {
      live = false;
    };
  }, [check]);

  useEffect(() => {
    if (!checked || prompt) return;
    back();
  }, [checked, prompt, back]);

  return (
    <main className={`page ${styles['modal-page']} ${styles['modal-page--dim']}`} aria-busy={!checked}>
      {checked ? null : <p className="muted-note">{t('common.loading')}</p>}
    </main>
  );
}
