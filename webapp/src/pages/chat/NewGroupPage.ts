// Route /pages/chat/new-group: the screen lives with its feature.
export { NewGroupPage } from '../../features/chat/groups/NewGroupPage';
