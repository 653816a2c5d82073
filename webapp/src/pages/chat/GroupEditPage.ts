// Route /pages/chat/group-edit: the screen lives with its feature.
export { GroupEditPage } from '../../features/chat/groups/GroupEditPage';
