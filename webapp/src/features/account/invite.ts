import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../api/storage';
import { isInviteCode } from './validation';

/**
 * Spec sections 3 and 4: an invite code in the launch URL (`?inviteCode=pro_...`) is kept as
 * the superior, unless one is stored already. Returns the stored superior, if any.
 */
export function captureInviteCode(search: string, store: KeyValueStore = browserStore): string | null {
  const stored = store.get(STORAGE_KEYS.superior);
  if (isInviteCode(stored)) return stored;
  const code = new URLSearchParams(search).get('inviteCode')?.trim();
  if (isInviteCode(code)) {
    store.set(STORAGE_KEYS.superior, code);
    return code;
  }
  return null;
}

export function storedSuperior(store: KeyValueStore = browserStore): string | null {
  const stored = store.get(STORAGE_KEYS.superior);
  return isInviteCode(stored) ? stored : null;
}
