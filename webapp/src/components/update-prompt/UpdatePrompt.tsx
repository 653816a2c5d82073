import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { assetUrl } from '../../api/assets';
import { ignoreVersion } from '../../features/account/appUpdate';
import { updatePromptAtom } from '../../state/appUpdate';
import { Dialog } from '../dialog/Dialog';
import './UpdatePrompt.css';

/**
 * The update prompts: a forced update cannot be closed; an optional one can
 * be closed, or ignored (remembered in `ignore_app_version`).
 */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const [prompt, setPrompt] = useAtom(updatePromptAtom);
  if (!prompt) return null;
  const forced = prompt.kind === 'force';
  const close = (): void => {
    setPrompt(null);
  };
  return (
    <Dialog
      open
      title={t('appUpdate.title', { version: prompt.pkg.version })}
      onClose={forced ? undefined : close}
      actions={
        <div className="update-prompt__actions">
          <a className="button button--block" href={assetUrl(prompt.pkg.path)} target="_blank" rel="noopener noreferrer">
            {t('appUpdate.updateNow')}
          </a>
          {forced ? null : (
            <>
              <button
                type="button"
                className="button button--secondary button--block"
                onClick={() => {
                  ignoreVersion(prompt.pkg.version);
                  close();
                }}
              >
                {t('appUpdate.ignore')}
              </button>
              <button type="button" className="button button--text button--block" onClick={close}>
                {t('appUpdate.later')}
              </button>
            </>
          )}
        </div>
      }
    >
      <p className="update-prompt__kind">{forced ? t('appUpdate.forcedText') : t('appUpdate.optionalText')}</p>
      {prompt.pkg.remark ? <p className="update-prompt__remark">{prompt.pkg.remark}</p> : null}
    </Dialog>
  );
}
