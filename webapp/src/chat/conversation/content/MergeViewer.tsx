import { useEffect, useId } from 'react';
import { useLatest } from '../../components/useLatest';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { MergeElem } from '../../../api/socket/types';
import { formatDateTime } from '../../../format';
import { Avatar } from '../../components/Avatar';
import { MessageContent } from './MessageContent';

/** The messages of a forwarded chat history, in a sheet. */
export function MergeViewer({ elem, me, onClose }: { elem: MergeElem; me: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const close = useLatest(onClose);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [close]);
  return createPortal(
    <div className="chat-sheet__backdrop" role="presentation" onClick={onClose}>
      <div
        className="chat-sheet merge-viewer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onClick={(event) => {
          event.stopPropagation();
        }}
      >
        <h2 id={titleId} className="chat-sheet__title">
          {elem.title}
        </h2>
        <ul className="merge-viewer__list">
          {(elem.multiMessage ?? []).map((m) => (
            <li key={m.clientMsgID} className="merge-viewer__item">
              <Avatar name={m.senderNickname} url={m.senderFaceUrl} size={32} />
              <div className="merge-viewer__body">
                <div className="merge-viewer__meta">
                  <span>{m.senderNickname}</span>
                  <span>{formatDateTime(m.sendTime || m.createTime, t)}</span>
                </div>
                <MessageContent message={m} me={me} />
              </div>
            </li>
          ))}
        </ul>
        <button type="button" className="chat-sheet__action chat-sheet__cancel" onClick={onClose}>
          {t('chat.close')}
        </button>
      </div>
    </div>,
    document.body,
  );
}
