import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { browserStore, STORAGE_KEYS } from '../api/storage';
import enUS from './locales/en-US.json';
import esES from './locales/es-ES.json';
import msMY from './locales/ms-MY.json';
import viVN from './locales/vi-VN.json';
import zhCN from './locales/zh-CN.json';
import zhHANT from './locales/zh-HANT.json';
import {
  DEFAULT_LANGUAGE,
  normalizeLanguage,
  toI18nLanguage,
  type ProductLanguage,
} from './languages';

export * from './languages';

/** Resources by i18next code; zh-CN is the reference every other locale must match. */
export const resources = {
  'zh-CN': { translation: zhCN },
  'zh-Hant': { translation: zhHANT },
  'en-US': { translation: enUS },
  'es-ES': { translation: esES },
  'ms-MY': { translation: msMY },
  'vi-VN': { translation: viVN },
} as const;

/** A fresh, synchronously initialised i18next instance (tests make their own). */
export function createI18n(language: ProductLanguage = DEFAULT_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: toI18nLanguage(language),
    fallbackLng: toI18nLanguage(DEFAULT_LANGUAGE),
    supportedLngs: Object.keys(resources),
    load: 'currentOnly',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

export function storedLanguage(): ProductLanguage {
  return normalizeLanguage(browserStore.get(STORAGE_KEYS.language));
}

/** The app's instance, in the language stored in `user_language` (zh-CN when none). */
export const i18n: I18n = createI18n(storedLanguage());

/** The product code of the language in use (for Accept-Language and the settings screen). */
export function currentLanguage(instance: I18n = i18n): ProductLanguage {
  return normalizeLanguage(instance.language);
}

function applyDocumentLanguage(instance: I18n): void {
  if (typeof document !== 'undefined') {
    document.documentElement.lang = toI18nLanguage(currentLanguage(instance));
  }
}

applyDocumentLanguage(i18n);
i18n.on('languageChanged', () => {
  applyDocumentLanguage(i18n);
});

/** Switches the language, remembers it in `user_language`, and updates `<html lang>`. */
export async function setLanguage(language: ProductLanguage, instance: I18n = i18n): Promise<void> {
  browserStore.set(STORAGE_KEYS.language, language);
  await instance.changeLanguage(toI18nLanguage(language));
}
