import { useSyncExternalStore } from 'react';
import { browserStore, STORAGE_KEYS } from '../../api/storage';
import { readCachedAccounts, type CachedAccount } from './cachedAccounts';

let lastRaw: string | null | undefined;
let lastList: CachedAccount[] = [];

function snapshot(): CachedAccount[] {
  const raw = browserStore.get(STORAGE_KEYS.cacheAccount);
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastList = readCachedAccounts(browserStore);
  }
  return lastList;
}

/** The cached accounts, re-rendering when the list changes. */
export function useCachedAccounts(): CachedAccount[] {
  return useSyncExternalStore((listener) => browserStore.subscribe(listener), snapshot);
}
