// Route /pages/modal/share-image: the screen lives with its feature.
export { ShareImagePage } from '../../features/modal/ShareImagePage';
