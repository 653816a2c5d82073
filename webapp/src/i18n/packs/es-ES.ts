import { mergeNamespaces, type Tree } from '../resources';

// The es-ES texts as one chunk of their own, loaded only when the app shows es-ES.
export default mergeNamespaces('es-ES', import.meta.glob<Tree>('../locales/*/es-ES.json', { eager: true, import: 'default' }));
