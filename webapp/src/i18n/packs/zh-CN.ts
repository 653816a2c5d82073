import { mergeNamespaces, type Tree } from '../resources';

// The zh-CN texts as one chunk of their own, loaded only when the app shows zh-CN.
export default mergeNamespaces('zh-CN', import.meta.glob<Tree>('../locales/*/zh-CN.json', { eager: true, import: 'default' }));
