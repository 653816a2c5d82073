import type { TFunction } from 'i18next';

/**
 * The name the server gives a deleted account on every message it sent, in conversation lists
 * and lookups (storage.DeletedNickname). It is longer than any nickname a live account may
 * take, so only a deleted account carries it.
 */
export const DELETED_ACCOUNT_NAME = 'deleted account';

/** A person's name as shown: a deleted account's in the reader's language, any other as it is. */
export function shownName(name: string, t: TFunction): string {
  return name === DELETED_ACCOUNT_NAME ? t('leave.deletedAccount') : name;
}
