import { mergeNamespaces, type Tree } from '../resources';

// The zh-HANT texts as one chunk of their own, loaded only when the app shows zh-HANT.
export default mergeNamespaces('zh-HANT', import.meta.glob<Tree>('../locales/*/zh-HANT.json', { eager: true, import: 'default' }));
