// Route /pages/chat/group-list: the screen lives with its feature.
export { GroupListPage } from '../../features/chat/groups/GroupListPage';
