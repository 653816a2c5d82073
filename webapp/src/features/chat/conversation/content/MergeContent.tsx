import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MergeElem } from '../../../../api/socket/types';
import { MergeViewer } from './MergeViewer';

/** Forwarded chat history: the title and the first lines; tapping lists the messages. */
export function MergeContent({ elem, me }: { elem: MergeElem; me: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const lines = (elem.abstractList ?? []).slice(0, 4);
  return (
    <>
      <button
        type="button"
        className="msg-merge"
        onClick={() => {
          setOpen(true);
        }}
      >
        <span className="msg-merge__title">{elem.title}</span>
        {lines.map((line, i) => (
          <span key={i} className="msg-merge__line">
            {line}
          </span>
        ))}
        <span className="msg-merge__label">{t('chat.message.chatHistory')}</span>
      </button>
      {open ? (
        <MergeViewer
          elem={elem}
          me={me}
          onClose={() => {
            setOpen(false);
          }}
        />
      ) : null}
    </>
  );
}
