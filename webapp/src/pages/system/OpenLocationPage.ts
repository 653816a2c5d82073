// Route /open-location: the screen lives with its feature.
export { OpenLocationPage } from '../../features/chat/system/OpenLocationPage';
