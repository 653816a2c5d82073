import { useTranslation } from 'react-i18next';
import type { CustomerMessage } from '../../api/customer';
import { formatTimeAgo } from '../../format';
import type { OutgoingMessage } from './useCustomerChat';
import { assetUrl } from '../../api/assets';
import { useAttachmentUrl } from '../../components/hooks/useAttachmentUrl';

/** An image the agent sent as a link (an uploaded /files/... picture or an http(s) image URL). */
export function imageUrlOf(content: string): string | null {
  const value = content.trim();
  if (/\s/.test(value)) return null;
  const isPath = value.startsWith('/files/');
  const isHttp = /^https?:\/\/[^/]+\//i.test(value);
  if (!isPath && !isHttp) return null;
  return /\.(png|jpe?g|gif|webp)(\?[^#]*)?$/i.test(value) ? value : null;
}

interface MessageBubbleProps {
  message?: CustomerMessage;
  outgoing?: OutgoingMessage;
  onRetry?: (clientMsgId: string) => void;
  onOpenImage?: (url: string) => void;
}

/** One message; the visitor's own on the right with its send state. */
export function MessageBubble({ message, outgoing, onRetry, onOpenImage }: MessageBubbleProps) {
  const { t } = useTranslation();
  const mine = outgoing !== undefined || message?.from === 'visitor';
  const content = message?.content ?? outgoing?.content ?? '';
  const image = outgoing?.preview ?? imageUrlOf(content);
  const shown = useAttachmentUrl(image);
  let state: 'sending' | 'failed' | 'sent' | 'read' | null = null;
  if (outgoing) state = outgoing.state;
  else if (message?.from === 'visitor') state = message.status >= 2 ? 'read' : 'sent';

  return (
    <div
      className={`bubble-row${mine ? ' bubble-row--mine' : ''}`}
      data-from={mine ? 'visitor' : 'agent'}
      data-state={state ?? undefined}
      data-id={message?._id}
    >
      <div className={`bubble${mine ? ' bubble--mine' : ''}${image ? ' bubble--image' : ''}`}>
        {image ? (
          <button
            type="button"
            className="bubble__image-button"
            onClick={() => onOpenImage?.(image)}
            aria-label={t('customer.openImage')}
          >
            <img className="bubble__image" src={shown ? assetUrl(shown) : undefined} alt={t('customer.image')} loading="lazy" />
          </button>
        ) : (
          <p className="bubble__text">{content}</p>
        )}
      </div>
      <div className="bubble-row__meta">
        {message ? <time dateTime={new Date(message.createdAt).toISOString()}>{formatTimeAgo(message.createdAt, t)}</time> : null}
        {state === 'sending' ? <span className="send-state send-state--sending">{t('customer.state.sending')}</span> : null}
        {state === 'sent' ? <span className="send-state send-state--sent">{t('customer.state.sent')}</span> : null}
        {state === 'read' ? <span className="send-state send-state--read">{t('customer.state.read')}</span> : null}
        {state === 'failed' && outgoing ? (
          <button type="button" className="send-state send-state--failed" onClick={() => onRetry?.(outgoing.clientMsgId)}>
            {outgoing.error ? t('customer.state.failedWith', { error: outgoing.error }) : t('customer.state.failed')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
