/**
 * Product language codes and their mapping to i18next codes. i18next
 * canonicalises `zh-HANT` to `zh-Hant`, so resources are keyed `zh-Hant` and the product code
 * is used only at the edges (local storage, Accept-Language, the language list).
 */
export const PRODUCT_LANGUAGES = ['zh-CN', 'zh-HANT', 'en-US', 'es-ES', 'ms-MY', 'vi-VN'] as const;

export type ProductLanguage = (typeof PRODUCT_LANGUAGES)[number];

export const DEFAULT_LANGUAGE: ProductLanguage = 'zh-CN';

/** Language names are shown in their own language (endonyms), never translated. */
export const LANGUAGE_NAMES: Record<ProductLanguage, string> = {
  'zh-CN': '简体中文',
  'zh-HANT': '繁體中文',
  'en-US': 'English',
  'es-ES': 'Español',
  'ms-MY': 'Bahasa Melayu',
  'vi-VN': 'Tiếng Việt',
};

const ALIASES: Record<string, ProductLanguage> = {
  zh: 'zh-CN',
  'zh-cn': 'zh-CN',
  'zh-hans': 'zh-CN',
  'zh-hans-cn': 'zh-CN',
  cn: 'zh-CN',
  'zh-cn-ty': 'zh-CN',
  ty: 'zh-CN',
  'zh-hant': 'zh-HANT',
  'zh-tw': 'zh-HANT',
  'zh-hk': 'zh-HANT',
  'zh-mo': 'zh-HANT',
  'zh-hant-tw': 'zh-HANT',
  'zh-hant-hk': 'zh-HANT',
  en: 'en-US',
  'en-us': 'en-US',
  es: 'es-ES',
  'es-es': 'es-ES',
  ms: 'ms-MY',
  'ms-my': 'ms-MY',
  vi: 'vi-VN',
  vn: 'vi-VN',
  'vi-vn': 'vi-VN',
};

/** Any language code (product, i18next, short, browser) to a product code; unknown → zh-CN. */
export function normalizeLanguage(input: string | null | undefined): ProductLanguage {
  if (!input) return DEFAULT_LANGUAGE;
  const key = input.trim().replace(/_/g, '-').toLowerCase();
  return ALIASES[key] ?? DEFAULT_LANGUAGE;
}

/**
 * A browser language (`en-GB`, `zh-TW`, `vi`) as one of the six, or null when it is none of
 * them: the exact code first, then its language alone (`en-GB` → `en`).
 */
export function matchLanguage(input: string | null | undefined): ProductLanguage | null {
  if (!input) return null;
  const key = input.trim().replace(/_/g, '-').toLowerCase();
  return ALIASES[key] ?? ALIASES[key.split('-')[0] ?? ''] ?? null;
}

/**
 * The language of a visit: the person's own choice, else the first of the browser's languages
 * that is one of the six, else the operator's default, else zh-CN.
 */
export function pickLanguage(
  chosen: string | null | undefined,
  browser: readonly string[],
  operatorDefault?: string | null,
): ProductLanguage {
  const own = matchLanguage(chosen);
  if (own) return own;
  for (const b of browser) {
    const found = matchLanguage(b);
    if (found) return found;
  }
  return matchLanguage(operatorDefault) ?? DEFAULT_LANGUAGE;
}

/** The code i18next knows the resources by. */
export function toI18nLanguage(language: ProductLanguage): string {
  return language === 'zh-HANT' ? 'zh-Hant' : language;
}
