// Route /pages/chat/new-friend: the screen lives with its feature.
export { NewFriendPage } from '../../features/chat/contacts/NewFriendPage';
