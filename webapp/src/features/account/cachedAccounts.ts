/**
 * The accounts this device signed in with (`cacheAccount`), for the switch
 * account screen: username, avatar, id and nickname — never a password or a token.
 */
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../api/storage';

export interface CachedAccount {
  id: string;
  username: string;
  nickName: string;
  avatar: string;
}

/** Enough for anyone; the oldest fall off. */
export const MAX_CACHED_ACCOUNTS = 10;

function isCachedAccount(value: unknown): value is CachedAccount {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.username === 'string' && v.id !== '' && v.username !== '';
}

export function readCachedAccounts(store: KeyValueStore = browserStore): CachedAccount[] {
  const raw = store.get(STORAGE_KEYS.cacheAccount);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isCachedAccount).map((a) => ({
      id: a.id,
      username: a.username,
      nickName: typeof a.nickName === 'string' ? a.nickName : '',
      avatar: typeof a.avatar === 'string' ? a.avatar : '',
    }));
  } catch {
    return [];
  }
}

/** Puts the account first (the most recent), replacing its older entry. */
export function rememberAccount(account: CachedAccount, store: KeyValueStore = browserStore): void {
  const others = readCachedAccounts(store).filter((a) => a.id !== account.id);
  const list = [account, ...others].slice(0, MAX_CACHED_ACCOUNTS);
  const next = JSON.stringify(list);
  if (next !== store.get(STORAGE_KEYS.cacheAccount)) store.set(STORAGE_KEYS.cacheAccount, next);
}

export function forgetAccount(id: string, store: KeyValueStore = browserStore): void {
  const list = readCachedAccounts(store).filter((a) => a.id !== id);
  store.set(STORAGE_KEYS.cacheAccount, JSON.stringify(list));
}
