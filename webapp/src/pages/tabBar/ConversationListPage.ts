// Route / (index), /pages/tabBar/chat: the screen lives with its feature.
export { ConversationListPage } from '../../features/chat/list/ConversationListPage';
