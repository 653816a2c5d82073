import { defaultApiConfig } from './config';

/**
 * The address of a file the server names by path (`/files/avatars/...`): on the API's own
 * origin when the API is on another host, else as given.
 */
export function assetUrl(path: string, apiBase: string = defaultApiConfig.hosts[0] ?? '/api'): string {
  if (!path) return '';
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  if (!path.startsWith('/')) return path;
  try {
    const base = new URL(apiBase);
    return `${base.origin}${path}`;
  } catch {
    // A relative API base: the files are on this origin too.
    return path;
  }
}
