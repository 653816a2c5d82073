/**
 * The console's own i18next instance (the players' app has another): zh-CN and en-US. The
 * language is kept in localStorage and sent as Accept-Language, so server messages match.
 */
import { createInstance } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setApiLanguage } from '../api/client';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';

export const LANGUAGES = [
  { code: 'zh-CN', label: '简体中文' },
  { code: 'en-US', label: 'English' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

const KEY = 'kj.admin.lang';

function initial(): Language {
  const saved = localStorage.getItem(KEY);
  if (saved === 'zh-CN' || saved === 'en-US') return saved;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

export const i18n = createInstance();
const lang = initial();
setApiLanguage(lang);
document.documentElement.lang = lang;

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: lang,
  fallbackLng: 'en-US',
  interpolation: { escapeValue: false },
});

export function setLanguage(next: Language): void {
  localStorage.setItem(KEY, next);
  setApiLanguage(next);
  document.documentElement.lang = next;
  void i18n.changeLanguage(next);
}
