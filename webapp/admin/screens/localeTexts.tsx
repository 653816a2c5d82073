/**
 * Operator content in the six languages (issue 35 #9): the base fields (`title`, `content`, ...)
 * are the zh-CN text every language falls back to; `texts` holds the others,
 * `{language: {field: text}}`, as the store, the API and `kj seed --demo` keep them. A form shows
 * one language at a time behind tabs; a language left empty shows the zh-CN text to its players.
 */
import { useT } from '../i18n/useT';
import { Tabs, ui } from '../ui/kit';

export const CONTENT_LOCALES = ['zh-CN', 'zh-HANT', 'en-US', 'es-ES', 'ms-MY', 'vi-VN'] as const;
export type ContentLocale = (typeof CONTENT_LOCALES)[number];
/** The language of the base fields, and the one every other falls back to. */
export const BASE_LOCALE: ContentLocale = 'zh-CN';

/** Each language in its own name. */
export const LOCALE_NAMES: Record<ContentLocale, string> = {
  'zh-CN': '简体中文',
  'zh-HANT': '繁體中文',
  'en-US': 'English',
  'es-ES': 'Español',
  'ms-MY': 'Bahasa Melayu',
  'vi-VN': 'Tiếng Việt',
};

export type Texts = Partial<Record<string, Record<string, string>>>;

/** The stored texts of an item as the form keeps them (never null). */
export function textsOf(value: unknown): Texts {
  return typeof value === 'object' && value !== null ? value : {};
}

/** field in locale: the base field for zh-CN, else texts[locale][field] ('' when none). */
export function localeText(base: Record<string, unknown>, texts: Texts, locale: ContentLocale, field: string): string {
  if (locale === BASE_LOCALE) {
    const v = base[field];
    return typeof v === 'string' ? v : '';
  }
  return texts[locale]?.[field] ?? '';
}

/** texts with field in locale (not zh-CN) set to value. */
export function withLocaleText(texts: Texts, locale: ContentLocale, field: string, value: string): Texts {
  return { ...texts, [locale]: { ...texts[locale], [field]: value } };
}

/** The languages with any text of their own (zh-CN always). */
export function filledLocales(texts: Texts): ContentLocale[] {
  return CONTENT_LOCALES.filter((l) => l === BASE_LOCALE || Object.values(texts[l] ?? {}).some((v) => v.trim() !== ''));
}

/** The language tabs above a form's texts; a language with a text of its own is marked. */
export function LocaleTabs({ value, onChange, texts }: { value: ContentLocale; onChange: (l: ContentLocale) => void; texts: Texts }) {
  const { t } = useT();
  const filled = filledLocales(texts);
  return (
    <div role="group" aria-label={t('content.textLanguage')}>
      <Tabs
        value={value}
        onChange={onChange}
        options={CONTENT_LOCALES.map((l) => ({ value: l, label: filled.includes(l) && l !== BASE_LOCALE ? `${LOCALE_NAMES[l]} ✓` : LOCALE_NAMES[l] }))}
      />
      {value !== BASE_LOCALE && <p className={ui.muted}>{t('content.fallbackHint', { language: LOCALE_NAMES[BASE_LOCALE] })}</p>}
    </div>
  );
}
