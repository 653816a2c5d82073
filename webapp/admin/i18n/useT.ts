/**
 * Typed translation for the console. The players' app declares i18next's resource types for the
 * whole TypeScript program, so the console reads its own keys through this hook, checked against
 * its zh-CN reference file instead.
 */
import { useTranslation } from 'react-i18next';
import type zhCN from './zh-CN.json';

type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];

export type TextKey = Paths<typeof zhCN>;
export type Translate = (key: TextKey, values?: Record<string, unknown>) => string;

export function useT(): { t: Translate; lang: string } {
  const { t, i18n } = useTranslation();
  return { t: t as unknown as Translate, lang: i18n.language };
}
