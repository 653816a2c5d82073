// Route /pages/init/init: the screen lives with its feature.
export { InitPage } from '../../features/launch/InitPage';
