// Route /pages/chat/friend-verify: the screen lives with its feature.
export { FriendVerifyPage } from '../../features/chat/contacts/FriendVerifyPage';
