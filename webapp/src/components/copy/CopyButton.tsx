import { useTranslation } from 'react-i18next';
import { showToast } from '../../state/toast';
import { CopyIcon } from '../icons/Icons';
import { copyText } from './copyText';
import styles from './CopyButton.module.css';

/** A 44 px copy button; toasts 'copied' or the spec's 'copy failed'. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`icon-button ${styles.copy}`}
      data-testid="copy-button"
      aria-label={label}
      onClick={() => {
        void copyText(text).then((ok) => {
          showToast(ok ? t('kit.copied') : t('kit.copyFailed'));
        });
      }}
    >
      <CopyIcon />
    </button>
  );
}
