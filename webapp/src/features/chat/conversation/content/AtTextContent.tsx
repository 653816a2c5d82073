import type { AtTextElem } from '../../../../api/socket/types';
import { mentionClass, mentionParts } from '../../data/mentions';
import '../../mentions.css';
import { LongText } from './LongText';

/** An @message: its text with the members it names highlighted (the reader's own mention the most). */
export function AtTextContent({ elem, me, mine = false }: { elem: AtTextElem; me: string; mine?: boolean }) {
  return (
    <LongText text={elem.text}>
      <p className="msg-text">
        {mentionParts(elem.text, elem.atUsersInfo, elem.atUserList, me).map((part, i) =>
          part.mention ? (
            <span key={i} className={mentionClass(part.mention.self, mine)} data-testid="mention">
              {part.text}
            </span>
          ) : (
            <span key={i}>{part.text}</span>
          ),
        )}
      </p>
    </LongText>
  );
}
