import { useSyncExternalStore } from 'react';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../api/storage';

export interface SessionSnapshot {
  token: string | null;
  userId: string | null;
}

let lastSnapshot: SessionSnapshot = { token: null, userId: null };

function readSession(store: KeyValueStore): SessionSnapshot {
  const token = store.get(STORAGE_KEYS.token);
  const userId = store.get(STORAGE_KEYS.userId);
  if (token !== lastSnapshot.token || userId !== lastSnapshot.userId) {
    lastSnapshot = { token, userId };
  }
  return lastSnapshot;
}

/** The signed-in session as stored in local storage; re-renders when it changes. */
export function useSession(store: KeyValueStore = browserStore): SessionSnapshot {
  return useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => readSession(store),
  );
}

export function hasToken(store: KeyValueStore = browserStore): boolean {
  return Boolean(store.get(STORAGE_KEYS.token));
}
