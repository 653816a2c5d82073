import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLongText } from '../../data/longText';

/** A long text message folded to its first lines, with "Read more" (and "Show less") under it. */
export function LongText({ text, children }: { text: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!isLongText(text)) return children;
  return (
    <div className={open ? 'msg-long' : 'msg-long msg-long--folded'} data-folded={!open}>
      {children}
      <button
        type="button"
        className="msg-long__toggle"
        aria-expanded={open}
        onClick={(event) => {
          // The bubble's own tap (menus, selection) is not this one.
          event.stopPropagation();
          setOpen((value) => !value);
        }}
      >
        {open ? t('chat.message.showLess') : t('chat.message.readMore')}
      </button>
    </div>
  );
}
