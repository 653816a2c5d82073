// Route /pages/chat/group-info: the screen lives with its feature.
export { GroupInfoPage } from '../../features/chat/groups/GroupInfoPage';
