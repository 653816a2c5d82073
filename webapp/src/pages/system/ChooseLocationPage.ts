// Route /choose-location: the screen lives with its feature.
export { ChooseLocationPage } from '../../features/chat/system/ChooseLocationPage';
