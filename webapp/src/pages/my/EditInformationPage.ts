// Route /pages/my/edit-information: the screen lives with its feature.
export { EditInformationPage } from '../../features/account/profile/EditInformationPage';
