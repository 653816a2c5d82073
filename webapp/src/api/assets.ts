import { defaultApiConfig } from './config';
import { browserStore, STORAGE_KEYS } from './storage';

/** The operator's files base (`ossUrl` of `/getDomainInfo`); empty: files are on the API's origin. */
let filesBase = '';

/** Start-up sets the domain's `ossUrl` here once `/getDomainInfo` answered. */
export function setFilesBase(ossUrl: string): void {
  filesBase = /^https?:\/\//i.test(ossUrl) ? ossUrl.replace(/\/+$/, '') : '';
}

/**
 * The address of a file the server names by path (`/files/avatars/...`): under the operator's
 * files base when one is set, else on the API's own origin when the API is on another host,
 * else as given.
 */
export function assetUrl(path: string, apiBase: string = defaultApiConfig.hosts[0] ?? '/api', base: string = filesBase): string {
  if (!path) return '';
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  if (!path.startsWith('/')) return path;
  if (base) return `${base}${path}`;
  try {
    return `${new URL(apiBase).origin}${path}`;
  } catch {
    // A relative API base: the files are on this origin too.
    return path;
  }
}

setFilesBase(browserStore.get(STORAGE_KEYS.ossUrl) ?? '');
