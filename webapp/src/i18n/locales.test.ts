import { describe, expect, it } from 'vitest';
import { createI18n, normalizeLanguage, PRODUCT_LANGUAGES, resources, setLanguage, toI18nLanguage } from '.';

type Tree = { [key: string]: string | Tree };

const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

/** Plain keys, and plural keys grouped by base key with their forms. */
function shape(values: Map<string, string>) {
  const plain = new Map<string, string>();
  const plural = new Map<string, Map<string, string>>();
  for (const [key, value] of values) {
    const match = PLURAL.exec(key);
    if (match) {
      const base = key.slice(0, match.index);
      const forms = plural.get(base) ?? new Map<string, string>();
      forms.set(match[1] ?? '', value);
      plural.set(base, forms);
    } else {
      plain.set(key, value);
    }
  }
  return { plain, plural };
}

const reference = shape(flatten(resources['zh-CN'].translation));

describe('locales', () => {
  it('covers the six product languages, with zh-HANT keyed zh-Hant', () => {
    expect(Object.keys(resources).sort()).toEqual(PRODUCT_LANGUAGES.map(toI18nLanguage).sort());
    expect(Object.keys(resources)).toContain('zh-Hant');
  });

  for (const language of Object.keys(resources) as (keyof typeof resources)[]) {
    describe(language, () => {
      const { plain, plural } = shape(flatten(resources[language].translation));
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;

      it('has exactly the keys of zh-CN', () => {
        expect([...plain.keys()].sort()).toEqual([...reference.plain.keys()].sort());
        expect([...plural.keys()].sort()).toEqual([...reference.plural.keys()].sort());
      });

      it('has exactly the plural forms Intl.PluralRules asks for', () => {
        for (const [base, forms] of plural) {
          expect([...forms.keys()].sort(), base).toEqual([...categories].sort());
        }
      });

      it('uses the same {{placeholders}} as zh-CN and no empty text', () => {
        for (const [key, value] of plain) {
          expect(value.trim(), key).not.toBe('');
          expect(placeholders(value), key).toEqual(placeholders(reference.plain.get(key) ?? ''));
        }
        for (const [base, forms] of plural) {
          const expected = placeholders(reference.plural.get(base)?.get('other') ?? '');
          for (const [form, value] of forms) {
            expect(value.trim(), `${base}_${form}`).not.toBe('');
            expect(placeholders(value), `${base}_${form}`).toEqual(expected);
          }
        }
      });
    });
  }
});

describe('language selection', () => {
  it('maps product, short and browser codes, unknown to zh-CN', () => {
    expect(normalizeLanguage('zh-HANT')).toBe('zh-HANT');
    expect(normalizeLanguage('zh-Hant')).toBe('zh-HANT');
    expect(normalizeLanguage('zh-TW')).toBe('zh-HANT');
    expect(normalizeLanguage('en')).toBe('en-US');
    expect(normalizeLanguage('vn')).toBe('vi-VN');
    expect(normalizeLanguage('cn')).toBe('zh-CN');
    expect(normalizeLanguage('fr-FR')).toBe('zh-CN');
    expect(normalizeLanguage(null)).toBe('zh-CN');
  });

  it('really shows Traditional Chinese for zh-HANT (not the zh-CN fallback)', () => {
    const i18n = createI18n('zh-HANT');
    expect(i18n.language).toBe('zh-Hant');
    expect(i18n.t('tabs.find')).toBe('發現');
  });

  it('falls back to zh-CN for an unknown language', () => {
    const i18n = createI18n(normalizeLanguage('de-DE'));
    expect(i18n.t('tabs.find')).toBe('发现');
  });

  it('stores the choice in user_language and updates <html lang>', async () => {
    await setLanguage('zh-HANT');
    expect(window.localStorage.getItem('user_language')).toBe('zh-HANT');
    expect(document.documentElement.lang).toBe('zh-Hant');
    await setLanguage('en-US');
    expect(document.documentElement.lang).toBe('en-US');
    await setLanguage('zh-CN');
  });
});
