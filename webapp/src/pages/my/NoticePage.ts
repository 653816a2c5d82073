// Route /pages/my/notice: the screen lives with its feature.
export { NoticePage } from '../../features/notices/NoticePage';
