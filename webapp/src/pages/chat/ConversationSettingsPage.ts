// Route /pages/chat/conversation-settings: the screen lives with its feature.
export { ConversationSettingsPage } from '../../features/chat/conversation/ConversationSettingsPage';
