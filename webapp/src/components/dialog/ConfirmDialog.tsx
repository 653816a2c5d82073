import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ open, title, children, confirmLabel, busy = false, danger = false, onConfirm, onCancel }: ConfirmDialogProps) {
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
      {children}
    </Dialog>
  );
}
