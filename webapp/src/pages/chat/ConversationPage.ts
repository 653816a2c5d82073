// Route /pages/chat/conversation: the screen lives with its feature.
export { ConversationPage } from '../../features/chat/conversation/ConversationPage';
