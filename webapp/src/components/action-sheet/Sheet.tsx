import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLatest } from '../hooks/useLatest';

interface SheetProps {
  /** Added to `chat-sheet` for the sheet's own layout. */
  className: string;
  title: ReactNode;
  onClose: () => void;
  /** Escape closes the sheet too (a sheet that only shows something). */
  closeOnEscape?: boolean;
  children: ReactNode;
}

/** A titled dialog sheet over the page; a tap on the backdrop closes it. */
export function Sheet({ className, title, onClose, closeOnEscape = false, children }: SheetProps) {
  const titleId = useId();
  const close = useLatest(onClose);
  useEffect(() => {
    if (!closeOnEscape) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [close, closeOnEscape]);
  return createPortal(
    <div className="chat-sheet__backdrop" role="presentation" onClick={onClose}>
      <div
        className={`chat-sheet ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onClick={(event) => {
          event.stopPropagation();
        }}
      >
        <h2 id={titleId} className="chat-sheet__title">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
