// Route /pages/my/edit-nick-name, /pages/setting/nick-name: the screen lives with its feature.
export { EditNickNamePage } from '../../features/account/profile/EditNickNamePage';
