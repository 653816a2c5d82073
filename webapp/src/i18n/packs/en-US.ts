import { mergeNamespaces, type Tree } from '../resources';

// The en-US texts as one chunk of their own, loaded only when the app shows en-US.
export default mergeNamespaces('en-US', import.meta.glob<Tree>('../locales/*/en-US.json', { eager: true, import: 'default' }));
