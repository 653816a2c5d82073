import { useTranslation } from 'react-i18next';
import type { MergeElem } from '../../../../api/socket/types';
import { formatDateTime } from '../../../../format';
import { Sheet } from '../../../../components/action-sheet/Sheet';
import { Avatar } from '../../../../components/avatar/Avatar';
import { MessageContent } from './MessageContent';

/** The messages of a forwarded chat history, in a sheet. */
export function MergeViewer({ elem, me, onClose }: { elem: MergeElem; me: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Sheet className="merge-viewer" title={elem.title} onClose={onClose} closeOnEscape>
    <ul className="merge-viewer__list">
      {(elem.multiMessage ?? []).map((m) => (
        <li key={m.clientMsgID} className="merge-viewer__item">
          <Avatar decorative name={m.senderNickname} src={m.senderFaceUrl} size={32} />
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
    </Sheet>
  );
}
