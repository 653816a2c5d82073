import { mergeNamespaces, type Tree } from '../resources';

// The vi-VN texts as one chunk of their own, loaded only when the app shows vi-VN.
export default mergeNamespaces('vi-VN', import.meta.glob<Tree>('../locales/*/vi-VN.json', { eager: true, import: 'default' }));
