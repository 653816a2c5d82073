// Route /pages/modal/webview: the screen lives with its feature.
export { WebviewPage } from '../../features/modal/WebviewPage';
