import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { browserStore, STORAGE_KEYS } from '../api/storage';
import {
  DEFAULT_LANGUAGE,
  matchLanguage,
  normalizeLanguage,
  pickLanguage,
  PRODUCT_LANGUAGES,
  toI18nLanguage,
  type ProductLanguage,
} from './languages';
import type { Translation } from './resources';

export * from './languages';

/**
 * Each language's texts are a chunk of their own (packs/<language>.ts): the app loads the
 * user's language before its first render and another one when the user switches to it, so a
 * first visit downloads one language instead of six.
 */
const packs: Record<ProductLanguage, () => Promise<{ default: Translation }>> = {
  'zh-CN': () => import('./packs/zh-CN'),
  'zh-HANT': () => import('./packs/zh-HANT'),
  'en-US': () => import('./packs/en-US'),
  'es-ES': () => import('./packs/es-ES'),
  'ms-MY': () => import('./packs/ms-MY'),
  'vi-VN': () => import('./packs/vi-VN'),
};

const loaded = new Map<ProductLanguage, Translation>();

/** Loads a language's texts once; later calls answer from memory. */
export async function loadLanguage(language: ProductLanguage): Promise<Translation> {
  const known = loaded.get(language);
  if (known) return known;
  const texts = (await packs[language]()).default;
  loaded.set(language, texts);
  return texts;
}

/** The texts loaded so far, by i18next code (zh-HANT keyed zh-Hant). */
export function loadedResources(): Record<string, { translation: Translation }> {
  const out: Record<string, { translation: Translation }> = {};
  for (const [language, texts] of loaded) out[toI18nLanguage(language)] = { translation: texts };
  return out;
}

/**
 * A fresh, synchronously initialised i18next instance with the languages loaded so far
 * (tests load all six first and make their own).
 */
export function createI18n(language: ProductLanguage = DEFAULT_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: loadedResources(),
    lng: toI18nLanguage(language),
    fallbackLng: toI18nLanguage(DEFAULT_LANGUAGE),
    supportedLngs: PRODUCT_LANGUAGES.map(toI18nLanguage),
    load: 'currentOnly',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages.length > 0 ? navigator.languages : [navigator.language];
}

/**
 * The person's own choice (`user_language`), else the browser's language when it is one of the
 * six, else the operator's default (the last `/getBaseData` seen), else zh-CN.
 */
export function storedLanguage(): ProductLanguage {
  return pickLanguage(browserStore.get(STORAGE_KEYS.language), browserLanguages(), browserStore.get(STORAGE_KEYS.operatorLanguage));
}

const startLanguage = storedLanguage();

/** The app's instance, in the language stored in `user_language` (zh-CN when none). */
export const i18n: I18n = createI18n(startLanguage);

/**
 * Resolves once the stored language's texts are in the app's instance; the app renders after
 * it, so no screen shows a bare key. Loading starts here, while the router fetches the first
 * page's chunk, not after it.
 */
export const i18nReady: Promise<void> = loadLanguage(startLanguage).then((texts) => {
  const code = toI18nLanguage(startLanguage);
  if (!i18n.hasResourceBundle(code, 'translation')) i18n.addResourceBundle(code, 'translation', texts);
});

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

/**
 * The operator's default language from `/getBaseData`: kept for the next visit, and applied now
 * when the person has not chosen one and the browser speaks none of the six (never stored as
 * the person's choice). Answers whether the language changed.
 */
export async function applyOperatorLanguage(operatorDefault: string, instance: I18n = i18n): Promise<boolean> {
  if (operatorDefault) browserStore.set(STORAGE_KEYS.operatorLanguage, operatorDefault);
  else browserStore.remove(STORAGE_KEYS.operatorLanguage);
  // Only when the default decides: no choice of the person's own, no browser language of the six.
  if (matchLanguage(browserStore.get(STORAGE_KEYS.language)) || browserLanguages().some((b) => matchLanguage(b))) return false;
  const wanted = matchLanguage(operatorDefault) ?? DEFAULT_LANGUAGE;
  if (wanted === currentLanguage(instance)) return false;
  const code = toI18nLanguage(wanted);
  const texts = await loadLanguage(wanted);
  if (!instance.hasResourceBundle(code, 'translation')) instance.addResourceBundle(code, 'translation', texts);
  await instance.changeLanguage(code);
  return true;
}

/**
 * Switches the language once its texts are loaded (the screen keeps the old language until
 * then, never bare keys), remembers it in `user_language`, and updates `<html lang>`.
 */
export async function setLanguage(language: ProductLanguage, instance: I18n = i18n): Promise<void> {
  const code = toI18nLanguage(language);
  const texts = await loadLanguage(language);
  if (!instance.hasResourceBundle(code, 'translation')) instance.addResourceBundle(code, 'translation', texts);
  browserStore.set(STORAGE_KEYS.language, language);
  await instance.changeLanguage(code);
}
