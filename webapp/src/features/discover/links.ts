import { webviewPath } from '../../navigation/paths';

/**
 * Where an operator's link (banner, splash) goes inside the app: app pages (`/pages/...`,
 * `/`) through the router, anything else (http(s) URLs, `/files/...`) in the webview modal.
 * Other schemes (javascript:, data:) go nowhere.
 */
export function appLinkTarget(link: string, title = ''): string | null {
  const value = link.trim();
  if (!value) return null;
  if (value === '/' || value.startsWith('/pages/')) return value;
  if (value.startsWith('/') && !value.startsWith('//')) return webviewPath(value, title);
  if (/^https?:\/\//i.test(value)) return webviewPath(value, title);
  return null;
}
