import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { chatReconnectingAtom, type ConnectionState } from '../../../api/chat';
import './ConnectionBanner.css';

/**
 * A thin bar at the top while the chat socket is connecting. After a drop it shows at once
 * ("reconnecting"); before the first connection it fades in after 1.5 s (CSS), so a quick
 * sign-in shows nothing.
 */
export function ConnectionBanner({ state }: { state: ConnectionState }) {
  const { t } = useTranslation();
  const reconnecting = useAtomValue(chatReconnectingAtom);
  return (
    <div className="chat-connection" role="status" aria-live="polite">
      {state === 'connecting' ? (
        <div
          className={reconnecting ? 'chat-connection__bar' : 'chat-connection__bar chat-connection__bar--delayed'}
          data-testid="chat-connecting"
        >
          <span className="spinner chat-connection__spinner" aria-hidden="true" />
          {reconnecting ? t('chat.connection.reconnecting') : t('chat.connection.connecting')}
        </div>
      ) : null}
    </div>
  );
}
