// Route /pages/love/video: the screen lives with its feature.
export { HighlightsPage } from '../../features/videos/HighlightsPage';
