import { createContext, useContext } from 'react';
import type { MessageItem, MessageReaction } from '../../../api/socket/types';
import type { ChatMessage } from '../data/messages';

/**
 * What a row's parts may ask of the open conversation, without threading callbacks through
 * the list: jump to a quoted message, show who reacted with an emoji.
 */
export interface MessageActions {
  jumpTo: (quoted: MessageItem) => void;
  showReaction: (message: ChatMessage, reaction: MessageReaction) => void;
}

export const MessageActionsContext = createContext<MessageActions | null>(null);

export function useMessageActions(): MessageActions | null {
  return useContext(MessageActionsContext);
}
