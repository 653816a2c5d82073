import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME_PATH } from '../../navigation/paths';
import { useBack } from '../../navigation/useReturn';
import { Dialog } from '../../components/dialog/Dialog';
import { parseDialogQuery } from './dialogQuery';
import styles from './modal.module.css';

interface ModalPageProps {
  /** modal_n: a notice with only the confirm button, closable by nothing else. */
  notice?: boolean;
}

/**
 * The dialog pages (/pages/modal/modal and /pages/modal/modal_n), driven by their query:
 * title, content, confirmText, cancelText, showCancel and url (see dialogQuery.ts). Confirm
 * opens `url` in place of the dialog, or goes back; cancel, Escape and the backdrop go back.
 */
export function ModalPage({ notice = false }: ModalPageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const back = useBack(HOME_PATH);
  // Read once: the page leaves as soon as a button is pressed.
  const [query] = useState(() => parseDialogQuery(params, notice ? 'notice' : 'modal'));

  // One answer only: a second tap while the page leaves would go back one page too many.
  const answered = useRef(false);
  const answer = (action: () => void) => (): void => {
    if (answered.current) return;
    answered.current = true;
    action();
  };
  const confirm = answer(() => {
    if (query.url) void navigate(query.url, { replace: true });
    else back();
  });
  const cancel = answer(back);
  const confirmText = query.confirmText || (notice ? t('modal.dialog.acknowledge') : t('modal.dialog.confirm'));

  return (
    <main className={`page ${styles['modal-page']}`} data-dialog={notice ? 'notice' : 'modal'}>
      <Dialog
        open
        title={query.title || t('modal.dialog.title')}
        onClose={query.showCancel ? cancel : undefined}
        actions={
          <>
            {query.showCancel ? (
              <button type="button" className={`button button--secondary ${styles['dialog-page__button']}`} onClick={cancel}>
                {query.cancelText || t('modal.dialog.cancel')}
              </button>
            ) : null}
            <button type="button" className={`button ${styles['dialog-page__button']}`} onClick={confirm}>
              {confirmText}
            </button>
          </>
        }
      >
        {query.content ? <p className={styles['dialog-page__content']}>{query.content}</p> : null}
      </Dialog>
    </main>
  );
}
