/**
 * Local storage keys and a small key-value wrapper that tells subscribers
 * when a value changes (so screens re-render when the API module clears a session).
 */
export const STORAGE_KEYS = {
  token: 'access_token',
  jwt: 'access_jwt',
  language: 'user_language',
  /** The operator's default language (`/getBaseData` defaultLanguage), for visits whose browser speaks none of the six. */
  operatorLanguage: 'operatorLanguage',
  ignoreAppVersion: 'ignore_app_version',
  cacheAccount: 'cacheAccount',
  wsToken: 'wsToken',
  userId: 'userId',
  superior: 'superior',
  platformId: 'platformId',
  packageId: 'packageId',
  ossUrl: 'ossUrl',
  appName: 'appName',
  /** The customer-service visitor key (customer-service chat store). */
  customerVisitorId: 'customerVisitorId',
  /** Where the alternative API hosts are listed: `{urls, combineId}` from `/getBaseData`. */
  lineList: 'lineList',
  /** When the last statistics beacons went out (ms), to keep a browser under the server's limit. */
  beaconTimes: 'beaconTimes',
  /** Update-manifest resource revision the app last reloaded for. */
  resourceVersion: 'resourceVersion',
  /** Unsent chat texts per user and conversation, until the server has them (chat data/drafts.ts). */
  chatDrafts: 'chatDrafts',
  /** New-message notifications in this browser: 'on' or 'off'; absent until first asked (chat session/notifications.ts). */
  chatNotify: 'chatNotify',
  /** Chat texts written while the socket was down, per user, until the server has them (chat data/outbox.ts). */
  chatOutbox: 'chatOutbox',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export interface KeyValueStore {
  get(key: StorageKey): string | null;
  set(key: StorageKey, value: string): void;
  remove(key: StorageKey): void;
  subscribe(listener: () => void): () => void;
}

/** Wraps window.localStorage; storage failures (private mode, quota) never break the app. */
export function createBrowserStore(): KeyValueStore {
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  const backend = (): Storage | null => {
    try {
      return typeof window === 'undefined' ? null : window.localStorage;
    } catch {
      return null;
    }
  };
  if (typeof window !== 'undefined') {
    // Another tab signing in or out changes this tab's session too.
    window.addEventListener('storage', notify);
  }
  return {
    get(key) {
      try {
        return backend()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        backend()?.setItem(key, value);
      } catch {
        // ignore: the value simply is not persisted
      }
      notify();
    },
    remove(key) {
      try {
        backend()?.removeItem(key);
      } catch {
        // ignore
      }
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const browserStore: KeyValueStore = createBrowserStore();
