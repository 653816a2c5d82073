/**
 * Client configuration. The API base URL and the backup lines come
 * from the build environment: VITE_API_BASE (default `/api`) and VITE_API_BACKUP_HOSTS
 * (comma-separated base URLs, tried in order after the primary fails more than twice), and
 * VITE_LINE_LIST_URLS (comma-separated code-API addresses that list more backup lines; the
 * server names its own in `/getBaseData`).
 */
export interface ApiConfig {
  /** Primary base URL first, then the backup lines. */
  hosts: readonly string[];
  /** Code-API addresses answering the alternative API hosts, one per line (GET with the combine id). */
  lineListUrls: readonly string[];
  /** The combine id sent to the code-API addresses. */
  combineId: string;
  packageId: number;
  platformId: number;
  /** Chat platform id sent with logins (web = 5). */
  platform: number;
  timeoutMs: number;
  /** Timeout of file uploads (60 s). */
  uploadTimeoutMs: number;
  /** Attempts before a request gives up on the network. */
  maxAttempts: number;
  /** Switch to the next host once a request has failed more than this many times. */
  switchHostAfterFailures: number;
  retryDelayMs: number;
  /** Delay before a 403 sends the user to the login page. */
  kickedRedirectDelayMs: number;
}

function numberFromEnv(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) ? n : fallback;
}

function hostsFromEnv(primary: string | undefined, backups: string | undefined): string[] {
  const base = primary?.trim() ?? '';
  const list = [base === '' ? '/api' : base];
  for (const host of (backups ?? '').split(',')) {
    const trimmed = host.trim();
    if (trimmed) list.push(trimmed);
  }
  return list.map((h) => h.replace(/\/+$/, ''));
}

function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const defaultApiConfig: ApiConfig = {
  hosts: hostsFromEnv(import.meta.env.VITE_API_BASE, import.meta.env.VITE_API_BACKUP_HOSTS),
  lineListUrls: listFromEnv(import.meta.env.VITE_LINE_LIST_URLS),
  combineId: 'kj',
  packageId: numberFromEnv(import.meta.env.VITE_PACKAGE_ID, 100002001),
  platformId: numberFromEnv(import.meta.env.VITE_PLATFORM_ID, 10000),
  platform: 5,
  timeoutMs: 15_000,
  uploadTimeoutMs: 60_000,
  maxAttempts: 60,
  switchHostAfterFailures: 2,
  retryDelayMs: 1_000,
  kickedRedirectDelayMs: 1_000,
};
