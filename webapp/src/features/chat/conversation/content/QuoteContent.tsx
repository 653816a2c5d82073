import { useTranslation } from 'react-i18next';
import type { QuoteElem } from '../../../../api/socket/types';
import { messageText } from '../../data/preview';
import { TextContent } from './TextContent';
import { useMessageActions } from '../messageActions';

/** A reply: the quoted message in one line above the text. */
export function QuoteContent({ elem, me }: { elem: QuoteElem; me: string }) {
  const { t } = useTranslation();
  const actions = useMessageActions();
  const quoted = elem.quoteMessage;
  const line = quoted ? t('chat.preview.withSender', { name: quoted.senderNickname, text: messageText(quoted, me, t) }) : '';
  return (
    <div className="msg-quote">
      <TextContent text={elem.text} />
      {quoted ? (
        <blockquote className="msg-quote__quoted">
          {actions && quoted.seq > 0 ? (
            // Tapping the quote goes to the original, loading the history around it.
            <button
              type="button"
              className="msg-quote__jump"
              onClick={(event) => {
                event.stopPropagation();
                actions.jumpTo(quoted);
              }}
              data-testid="quote-jump"
            >
              {line}
            </button>
          ) : (
            line
          )}
        </blockquote>
      ) : null}
    </div>
  );
}
