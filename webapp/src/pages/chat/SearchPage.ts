// Route /pages/chat/search: the screen lives with its feature.
export { SearchPage } from '../../features/chat/search/SearchPage';
