// Route /pages/tabBar/mine: the screen lives with its feature.
export { MinePage } from '../../features/account/mine/MinePage';
