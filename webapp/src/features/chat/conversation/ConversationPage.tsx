import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MissingPage } from '../../../components/page-header/MissingPage';
import { useMe } from '../data/hooks';
import { groupConversationID, singleConversationID, targetOf } from '../data/ids';
import { Conversation } from './Conversation';
import './ConversationPage.css';

/** Which conversation the URL names: ?conversationID=, or ?userID= / ?groupID=. */
function useConversationID(me: string): string {
  const [params] = useSearchParams();
  const id = params.get('conversationID');
  if (id) return id;
  const userID = params.get('userID');
  if (userID && me) return singleConversationID(me, userID);
  const groupID = params.get('groupID');
  return groupID ? groupConversationID(groupID) : '';
}

/** /pages/chat/conversation */
export function ConversationPage() {
  const { t } = useTranslation();
  const me = useMe();
  const id = useConversationID(me);
  const target = me && id ? targetOf(id, me) : null;
  const [params] = useSearchParams();
  const seq = Number(params.get('seq') ?? '');
  if (!target) {
    return <MissingPage title={t('chat.conversation.title')} message={t('chat.conversation.notFound')} className="page" />;
  }
  // ?seq= (from a message search): open with that message in view.
  return <Conversation key={target.conversationID} target={target} me={me} focusSeq={Number.isInteger(seq) && seq > 0 ? seq : 0} />;
}
