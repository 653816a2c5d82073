import { useTranslation } from 'react-i18next';
import type { QuoteElem } from '../../../../api/socket/types';
import { messageText } from '../../data/preview';
import { TextContent } from './TextContent';

/** A reply: the quoted message in one line above the text. */
export function QuoteContent({ elem, me }: { elem: QuoteElem; me: string }) {
  const { t } = useTranslation();
  const quoted = elem.quoteMessage;
  return (
    <div className="msg-quote">
      <TextContent text={elem.text} />
      {quoted ? (
        <blockquote className="msg-quote__quoted">
          {t('chat.preview.withSender', { name: quoted.senderNickname, text: messageText(quoted, me, t) })}
        </blockquote>
      ) : null}
    </div>
  );
}
