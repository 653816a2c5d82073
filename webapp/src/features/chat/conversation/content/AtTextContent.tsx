import type { AtTextElem } from '../../../../api/socket/types';
import { mentionParts } from '../../data/mentions';
import '../../mentions.css';

/** An @message: its text with the members it names highlighted (the reader's own mention the most). */
export function AtTextContent({ elem, me }: { elem: AtTextElem; me: string }) {
  return (
    <p className="msg-text">
      {mentionParts(elem.text, elem.atUsersInfo, elem.atUserList, me).map((part, i) =>
        part.mention ? (
          <span key={i} className={part.mention.self ? 'msg-mention msg-mention--self' : 'msg-mention'} data-testid="mention">
            {part.text}
          </span>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
