// Route /pages/chat/add-friend: the screen lives with its feature.
export { AddFriendPage } from '../../features/chat/contacts/AddFriendPage';
