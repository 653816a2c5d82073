// Route /pages/find/watch-video: the screen lives with its feature.
export { WatchVideoPage } from '../../features/videos/WatchVideoPage';
