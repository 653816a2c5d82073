import { describe, expect, it } from 'vitest';
import { createI18n, i18n, loadedResources, loadLanguage, normalizeLanguage, PRODUCT_LANGUAGES, setLanguage, toI18nLanguage } from '.';
import { mergeNamespaces, NAMESPACES, type Tree as FileTree } from './resources';

// Every language's files, read here at once (the app loads one language's pack at a time).
const files = import.meta.glob<FileTree>('./locales/*/*.json', { eager: true, import: 'default' });
const namespaceTexts = (namespace: string, locale: string): FileTree | undefined => files[`./locales/${namespace}/${locale}.json`];
const mergedTexts = (locale: string) => mergeNamespaces(locale, files);
const resources = Object.fromEntries(
  PRODUCT_LANGUAGES.map((language) => [toI18nLanguage(language), { translation: mergedTexts(language) }]),
);

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

const reference = shape(flatten(resources['zh-CN']?.translation ?? {}));

describe('locales', () => {
  it('covers the six product languages, with zh-HANT keyed zh-Hant', () => {
    expect(Object.keys(resources).sort()).toEqual(PRODUCT_LANGUAGES.map(toI18nLanguage).sort());
    expect(Object.keys(resources)).toContain('zh-Hant');
  });

  for (const language of Object.keys(resources)) {
    describe(language, () => {
      const { plain, plural } = shape(flatten(resources[language]?.translation ?? {}));
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

describe('namespaces', () => {
  // The feature folders, from the files Vite sees there.
  const features = new Set(Object.keys(import.meta.glob('../features/*/**/*.ts*')).map((path) => path.split('/')[2]));

  it('match the feature folders, plus common for the shell and the kit', () => {
    for (const namespace of NAMESPACES) {
      if (namespace !== 'common') expect(features, namespace).toContain(namespace);
    }
    for (const area of ['chat', 'rounds', 'wallet', 'account', 'videos', 'city', 'customer', 'discover', 'notices']) {
      expect(NAMESPACES, area).toContain(area);
    }
  });

  it('have a file per language, with the groups of zh-CN', () => {
    for (const namespace of NAMESPACES) {
      const groups = Object.keys(namespaceTexts(namespace, 'zh-CN') ?? {}).sort();
      expect(groups.length, namespace).toBeGreaterThan(0);
      for (const language of PRODUCT_LANGUAGES) {
        expect(Object.keys(namespaceTexts(namespace, language) ?? {}).sort(), `${namespace}/${language}`).toEqual(groups);
      }
    }
  });

  it('never share a group, and a missing file is an error', () => {
    expect(() => mergedTexts('fr-FR')).toThrow(/locales\/common\/fr-FR\.json is missing/);
    expect(Object.keys(mergedTexts('zh-CN'))).toContain('chat');
  });
});

describe('language packs', () => {
  it('hold exactly the merged files of their language', async () => {
    for (const language of PRODUCT_LANGUAGES) {
      expect(await loadLanguage(language), language).toEqual(mergedTexts(language));
    }
    expect(Object.keys(loadedResources()).sort()).toEqual(PRODUCT_LANGUAGES.map(toI18nLanguage).sort());
  });

  it('are added to the app instance only when the user switches to them', async () => {
    const instance = createI18n('zh-CN');
    // What a first visit in zh-CN holds: its own language only.
    for (const code of instance.languages.concat(Object.keys(loadedResources()))) {
      if (code !== 'zh-CN') instance.removeResourceBundle(code, 'translation');
    }
    expect(instance.hasResourceBundle('vi-VN', 'translation')).toBe(false);
    const seen: string[] = [];
    instance.on('languageChanged', () => seen.push(instance.t('tabs.find')));
    await setLanguage('vi-VN', instance);
    // The first text shown after the switch is already Vietnamese, never the key.
    expect(seen).toEqual([mergedTexts('vi-VN').tabs.find]);
    expect(instance.hasResourceBundle('vi-VN', 'translation')).toBe(true);
    await setLanguage('zh-CN', i18n);
  });
});

describe('language selection', () => {
  it.each([
    ['zh-HANT', 'zh-HANT'],
    ['zh-Hant', 'zh-HANT'],
    ['zh-TW', 'zh-HANT'],
    ['en', 'en-US'],
    ['vn', 'vi-VN'],
    ['cn', 'zh-CN'],
    ['fr-FR', 'zh-CN'],
    [null, 'zh-CN'],
  ])('maps product, short and browser codes, unknown to zh-CN: %j is %j', (code, language) => {
    expect(normalizeLanguage(code)).toBe(language);
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
