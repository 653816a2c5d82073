// Route /pages/tabBar/love: the screen lives with its feature.
export { LovePage } from '../../features/videos/LovePage';
