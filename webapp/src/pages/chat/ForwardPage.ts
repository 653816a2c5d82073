// Route /pages/chat/forward: the screen lives with its feature.
export { ForwardPage } from '../../features/chat/forward/ForwardPage';
