// Route /preview-image: the screen lives with its feature.
export { PreviewImagePage } from '../../features/chat/system/PreviewImagePage';
