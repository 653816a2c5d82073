import '../components/ui/ui.css';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUpdateCheck } from '../account/useUpdateCheck';
import { HOME_PATH } from '../app/paths';
import { updatePromptAtom } from '../state/appUpdate';
import './modal.css';

/**
 * The update prompt as a page (/pages/modal/update-alert): checks the manifest as the mine page
 * does (an ignored version is offered again) and shows the app's update prompt over it. A
 * forced update keeps the prompt and the page; otherwise closing it goes back, and an app that
 * is up to date says so (the 'latest version' toast) and goes back.
 */
export function UpdateAlertPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
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
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(HOME_PATH, { replace: true });
  }, [checked, prompt, navigate]);

  return (
    <main className="page modal-page modal-page--dim" aria-busy={!checked}>
      {checked ? null : <p className="muted-note">{t('common.loading')}</p>}
    </main>
  );
}
