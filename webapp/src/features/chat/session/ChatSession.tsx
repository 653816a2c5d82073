import { useQueryClient } from '@tanstack/react-query';
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { applyBusinessPush } from '../../account/businessPush';
import { chatConnectionAtom, chatSessionEndedAtom, chatSocket, onAnyBusinessPush, startChatSession } from '../../../api/chat';
import { LOGIN_PATH } from '../../../navigation/paths';
import { showToast } from '../../../state/toast';
import { useMe } from '../data/hooks';
import { chatKeys } from '../data/keys';
import { bindOutbox } from '../data/outbox';
import { bindChatPushes } from '../data/sync';
import { conversationPath } from '../paths';
import { ConnectionBanner } from './ConnectionBanner';
import { bindNotifications } from './notifications';

const FIRST_CONNECT_TIMEOUT_MS = 10_000;

/** What the toast says when the server ended the session: each reason in its own words. */
const ENDED_TEXTS = {
  kicked: 'chat.connection.kicked',
  deviceLimit: 'chat.connection.deviceLimit',
  expired: 'chat.connection.expired',
} as const;

/**
 * Mounted once in the app shell: keeps the chat socket signed in with the stored session,
 * feeds its pushes (chat and the account area's business keys) into the query cache, shows the reconnecting banner, and ends the whole
 * session with a toast when the socket was kicked offline or its token expired (not when a
 * switch of account ended the session being left).
 */
export function ChatSession() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const state = useAtomValue(chatConnectionAtom);
  const [ended, setEnded] = useAtom(chatSessionEndedAtom);
  const me = useMe();
  const previous = useRef(me);

  useEffect(() => {
    startChatSession();
  }, []);
  useEffect(() => bindChatPushes(client), [client]);
  // Texts written offline go out, in order, whenever the socket is signed in.
  useEffect(() => bindOutbox(client, t), [client, t]);
  // New messages while the app is hidden raise a notification; its click opens the chat.
  useEffect(
    () =>
      bindNotifications(client, t, (conversationID) => {
        void navigate(conversationPath(conversationID));
      }),
    [client, t, navigate],
  );
  // Business pushes of the account screens (balance, notices, activation) update their caches.
  useEffect(
    () =>
      onAnyBusinessPush((key, data) => {
        applyBusinessPush(client, key, data);
      }),
    [client],
  );

  // Another account's chat data must never show: drop it when the user changes or signs out.
  useEffect(() => {
    if (previous.current !== me) {
      previous.current = me;
      client.removeQueries({ queryKey: chatKeys.all });
    }
  }, [me, client]);

  // Spec section 4: a first connection that does not come up says 'server connection failed'
  // (the socket keeps trying every 500 ms and the banner stays).
  useEffect(() => {
    if (state !== 'connecting' || chatSocket.connectedBefore) return undefined;
    const timer = window.setTimeout(() => {
      showToast(t('chat.connection.failed'));
    }, FIRST_CONNECT_TIMEOUT_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [state, t]);

  // The session itself was already dropped where the socket reported it (api/chat.ts).
  useEffect(() => {
    if (!ended) return;
    setEnded(null);
    showToast(t(ENDED_TEXTS[ended]));
    void navigate(LOGIN_PATH, { replace: true });
  }, [ended, setEnded, t, navigate]);

  return <ConnectionBanner state={state} />;
}
