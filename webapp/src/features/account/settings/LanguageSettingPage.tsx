import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TAB_PATHS } from '../../../navigation/paths';
import { PageHeader } from '../../../components/page-header/PageHeader';
import {
  LANGUAGE_NAMES,
  normalizeLanguage,
  PRODUCT_LANGUAGES,
  setLanguage,
  toI18nLanguage,
  type ProductLanguage,
} from '../../../i18n';
import styles from './LanguageSettingPage.module.css';

/** Pick one of the six languages; stored in `user_language` and applied at once. */
export function LanguageSettingPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // The choice shows at once; the texts switch when the language's chunk has arrived.
  const [chosen, setChosen] = useState<ProductLanguage | null>(null);
  const current = chosen ?? normalizeLanguage(i18n.language);
  return (
    <main className="page">
      <PageHeader title={t('pages.languageSetting.title')} back fallback={TAB_PATHS.mine} />
      {/* The group is named for screen readers without a second copy of the title (issue 35 #4). */}
      <fieldset className={styles['language-list']} aria-label={t('pages.languageSetting.title')}>
        {PRODUCT_LANGUAGES.map((code) => (
          <label key={code} className={styles['language-list__option']}>
            <span lang={toI18nLanguage(code)}>{LANGUAGE_NAMES[code]}</span>
            <input
              type="radio"
              name="language"
              value={code}
              checked={code === current}
              onChange={() => {
                setChosen(code);
                // Server texts (bank list order, dictionaries, messages) follow Accept-Language.
                void setLanguage(code, i18n)
                  .then(() => queryClient.invalidateQueries())
                  .finally(() => {
                    setChosen((pending) => (pending === code ? null : pending));
                  });
              }}
            />
          </label>
        ))}
      </fieldset>
    </main>
  );
}
