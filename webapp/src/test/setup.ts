import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Lazy pages are transformed on first import, which can take seconds on a busy machine.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  // Node-environment tests (stylesheets) have no window.
  if (typeof window !== 'undefined') window.localStorage.clear();
});

afterEach(() => {
  cleanup();
});

// Page tests make their own i18next instances in any language: load every language's texts
// once (the app loads one at a time).
const { i18nReady, loadLanguage, PRODUCT_LANGUAGES } = await import('../i18n');
await Promise.all([i18nReady, ...PRODUCT_LANGUAGES.map(loadLanguage)]);
