import type { Translation } from './resources';

// Typed translation keys: t('pages.chat.title') is checked against the zh-CN reference.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Translation };
  }
}
