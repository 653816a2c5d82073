// Route /pages/my/change-avatar: the screen lives with its feature.
export { ChangeAvatarPage } from '../../features/account/profile/ChangeAvatarPage';
