// Route /pages/tabBar/find: the screen lives with its feature.
export { FindPage } from '../../features/discover/FindPage';
