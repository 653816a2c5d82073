// Route /pages/iframe/iframe: the screen lives with its feature.
export { IframePage } from '../../features/modal/IframePage';
