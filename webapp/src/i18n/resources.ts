import type account from './locales/account/zh-CN.json';
import type chat from './locales/chat/zh-CN.json';
import type city from './locales/city/zh-CN.json';
import type common from './locales/common/zh-CN.json';
import type customer from './locales/customer/zh-CN.json';
import type discover from './locales/discover/zh-CN.json';
import type launch from './locales/launch/zh-CN.json';
import type modal from './locales/modal/zh-CN.json';
import type notices from './locales/notices/zh-CN.json';
import type protection from './locales/protection/zh-CN.json';
import type rounds from './locales/rounds/zh-CN.json';
import type videos from './locales/videos/zh-CN.json';
import type wallet from './locales/wallet/zh-CN.json';

/**
 * The texts are split like the code: locales/<namespace>/<language>.json, one namespace per
 * feature folder (plus `common` for the app shell and the component kit). Each file holds the
 * top-level groups of its feature (`chat.*` in chat/), so keys read the same as before the split
 * and t('chat.delete') needs no namespace prefix.
 */
export const NAMESPACES = [
  'common',
  'account',
  'wallet',
  'notices',
  'chat',
  'discover',
  'rounds',
  'videos',
  'city',
  'customer',
  'launch',
  'modal',
  'protection',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** The zh-CN reference: every language has exactly these keys. */
export type Translation = typeof common &
  typeof account &
  typeof wallet &
  typeof notices &
  typeof chat &
  typeof discover &
  typeof rounds &
  typeof videos &
  typeof city &
  typeof customer &
  typeof launch &
  typeof modal &
  typeof protection;

export type Tree = Record<string, unknown>;

/**
 * A language's namespace files merged into one tree. `files` are one language's JSON files as
 * import.meta.glob gives them (keyed by path, ending in <namespace>/<locale>.json); a missing
 * namespace or a group claimed by two namespaces is a mistake.
 */
export function mergeNamespaces(locale: string, files: Record<string, Tree>): Translation {
  const byNamespace = new Map<string, Tree>();
  for (const [path, tree] of Object.entries(files)) {
    const match = /\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (match?.[2] === locale && match[1]) byNamespace.set(match[1], tree);
  }
  const merged: Tree = {};
  for (const namespace of NAMESPACES) {
    const tree = byNamespace.get(namespace);
    if (!tree) throw new Error(`locales/${namespace}/${locale}.json is missing`);
    for (const [group, value] of Object.entries(tree)) {
      if (group in merged) throw new Error(`"${group}" is in two namespaces (${locale})`);
      merged[group] = value;
    }
  }
  return merged as Translation;
}
