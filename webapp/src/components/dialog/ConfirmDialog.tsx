import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  /** Shown unless false (callers that mount it only when asking may leave it out). */
  open?: boolean;
  title: string;
  /** One line of explanation; `children` for anything richer. */
  text?: string;
  children?: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before something that cannot be undone (delete, dismiss, quit, transfer, sign out). */
export function ConfirmDialog({ open = true, title, text, children, confirmLabel, busy = false, danger = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={title}
      onClose={busy ? undefined : onCancel}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
            {t('kit.cancel')}
          </button>
          <button
            type="button"
            className={danger ? 'button button--danger' : 'button'}
            onClick={onConfirm}
            disabled={busy}
          >
            {confirmLabel ?? t('kit.confirm')}
          </button>
        </>
      }
    >
      {text ? <p>{text}</p> : children}
    </Dialog>
  );
}
