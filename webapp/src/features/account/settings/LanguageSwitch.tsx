import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '../../../components/icons/Icons';
import { LANGUAGE_NAMES, normalizeLanguage, PRODUCT_LANGUAGES, setLanguage, toI18nLanguage, type ProductLanguage } from '../../../i18n';
import './LanguageSwitch.css';

/** What the globe shows of the language in use (its own script for the two Chinese ones). */
const SHORT_NAMES: Record<ProductLanguage, string> = {
  'zh-CN': '简',
  'zh-HANT': '繁',
  'en-US': 'EN',
  'es-ES': 'ES',
  'ms-MY': 'MS',
  'vi-VN': 'VI',
};

/**
 * The language switch in a page header (sign-in, registration, a guest's mine tab): a globe with
 * the six languages in their own names; the choice is the person's own (`user_language`), as on
 * the language page.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<ProductLanguage | null>(null);
  const current = chosen ?? normalizeLanguage(i18n.language);
  return (
    <label className="language-switch">
      <GlobeIcon />
      <span className="language-switch__code" aria-hidden="true">
        {SHORT_NAMES[current]}
      </span>
      <select
        className="language-switch__select"
        aria-label={t('pages.languageSetting.title')}
        value={current}
        onChange={(event) => {
          const code = normalizeLanguage(event.target.value);
          setChosen(code);
          // Server texts (errors, dictionaries) follow Accept-Language.
          void setLanguage(code, i18n)
            .then(() => queryClient.invalidateQueries())
            .finally(() => {
              setChosen((pending) => (pending === code ? null : pending));
            });
        }}
      >
        {PRODUCT_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={toI18nLanguage(code)}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
