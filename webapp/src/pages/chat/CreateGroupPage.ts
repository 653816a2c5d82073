// Route /pages/chat/group: the screen lives with its feature.
export { CreateGroupPage } from '../../features/chat/groups/CreateGroupPage';
