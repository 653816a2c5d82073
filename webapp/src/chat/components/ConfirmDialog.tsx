import { useEffect, useId, useRef } from 'react';
import { useLatest } from './useLatest';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import './components.css';

interface ConfirmDialogProps {
  title: string;
  text?: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before something that cannot be undone (delete, dismiss, quit, transfer). */
export function ConfirmDialog({ title, text, confirmLabel, danger = false, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const onEscape = useLatest(onCancel);
  useEffect(() => {
    const before = document.activeElement;
    cancel.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') onEscape.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (before instanceof HTMLElement) before.focus();
    };
  }, [onEscape]);
  return createPortal(
    <div className="chat-sheet__backdrop chat-sheet__backdrop--centre" role="presentation" onClick={onCancel}>
      <div
        className="chat-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onClick={(event) => {
          event.stopPropagation();
        }}
      >
        <h2 id={titleId} className="chat-dialog__title">
          {title}
        </h2>
        {text ? <p className="chat-dialog__text">{text}</p> : null}
        <div className="chat-dialog__buttons">
          <button ref={cancel} type="button" className="button button--secondary" onClick={onCancel}>
            {t('chat.cancel')}
          </button>
          <button
            type="button"
            className={danger ? 'button button--danger' : 'button'}
            disabled={busy}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
