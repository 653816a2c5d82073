import { mergeNamespaces, type Tree } from '../resources';

// The ms-MY texts as one chunk of their own, loaded only when the app shows ms-MY.
export default mergeNamespaces('ms-MY', import.meta.glob<Tree>('../locales/*/ms-MY.json', { eager: true, import: 'default' }));
