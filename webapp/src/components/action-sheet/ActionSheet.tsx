import { useEffect, useId, useRef } from 'react';
import { useLatest } from '../hooks/useLatest';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import '../kit.css';

export interface SheetAction {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

interface ActionSheetProps {
  title?: string;
  actions: SheetAction[];
  onClose: () => void;
}

/** A bottom sheet of actions (long-press menus, member management); Escape or a tap outside closes it. */
export function ActionSheet({ title, actions, onClose }: ActionSheetProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const first = useRef<HTMLButtonElement>(null);
  const close = useLatest(onClose);
  // Focus moves into the sheet once, and back to where it was when the sheet closes.
  useEffect(() => {
    const before = document.activeElement;
    first.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (before instanceof HTMLElement) before.focus();
    };
  }, [close]);
  return createPortal(
    <div className="chat-sheet__backdrop" onClick={onClose} role="presentation">
      <div
        className="chat-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        onClick={(event) => {
          event.stopPropagation();
        }}
      >
        {title ? (
          <h2 id={titleId} className="chat-sheet__title">
            {title}
          </h2>
        ) : null}
        <ul className="chat-sheet__list">
          {actions.map((action, i) => (
            <li key={`${i}-${action.label}`}>
              <button
                ref={i === 0 ? first : undefined}
                type="button"
                className={action.danger ? 'chat-sheet__action chat-sheet__action--danger' : 'chat-sheet__action'}
                disabled={action.disabled}
                onClick={() => {
                  onClose();
                  action.onSelect();
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="chat-sheet__action chat-sheet__cancel" onClick={onClose}>
          {t('chat.cancel')}
        </button>
      </div>
    </div>,
    document.body,
  );
}
