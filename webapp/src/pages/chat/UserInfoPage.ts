// Route /pages/chat/user-info: the screen lives with its feature.
export { UserInfoPage } from '../../features/chat/contacts/UserInfoPage';
