import type { KeyValueStore, StorageKey } from '../api/storage';

/** A key-value store kept in a map, for tests that start from (and look at) given stored values. */
export function memoryStore(initial: Partial<Record<StorageKey, string>> = {}): KeyValueStore & {
  values: Map<StorageKey, string>;
} {
  const values = new Map<StorageKey, string>(Object.entries(initial) as [StorageKey, string][]);
  return {
    values,
    get: (key) => values.get(key) ?? null,
    set: (key, value) => {
      values.set(key, value);
    },
    remove: (key) => {
      values.delete(key);
    },
    subscribe: () => () => undefined,
  };
}
