/**
 * Drafts kept per conversation. Unsent text is saved on the server as it is typed (once
 * typing pauses, and on leaving the chat or the page: SetConversationDraft, so a reload and
 * another device find it) and shows "[Draft]" in the list at once;
 * a copy stays in this browser until the server has it, so a draft typed while the socket
 * is down is not lost.
 */
import type { QueryClient } from '@tanstack/react-query';
import { chat } from '../../../api/chat';
import type { ConversationItem } from '../../../api/socket/types';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../../api/storage';
import { sortConversations } from './ids';
import { chatKeys } from './keys';

interface StoredDraft {
  text: string;
  at: number;
}

/** userID → conversationID → draft. */
type DraftBook = Record<string, Record<string, StoredDraft>>;

function readBook(store: KeyValueStore): DraftBook {
  const raw = store.get(STORAGE_KEYS.chatDrafts);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as DraftBook) : {};
  } catch {
    return {};
  }
}

/** The draft kept in this browser for a conversation, or null. */
export function localDraft(me: string, conversationID: string, store: KeyValueStore = browserStore): StoredDraft | null {
  const d = readBook(store)[me]?.[conversationID];
  return d && typeof d.text === 'string' && typeof d.at === 'number' ? d : null;
}

/** Keeps (or with blank text forgets) the draft in this browser. */
export function keepLocalDraft(me: string, conversationID: string, text: string, at: number, store: KeyValueStore = browserStore): void {
  const others = Object.entries(readBook(store)).filter(([user]) => user !== me);
  const mine = Object.entries(readBook(store)[me] ?? {}).filter(([id]) => id !== conversationID);
  if (text.trim() !== '') mine.push([conversationID, { text, at }]);
  if (mine.length > 0) others.push([me, Object.fromEntries(mine)]);
  const book: DraftBook = Object.fromEntries(others);
  if (others.length === 0) store.remove(STORAGE_KEYS.chatDrafts);
  else store.set(STORAGE_KEYS.chatDrafts, JSON.stringify(book));
}

/** The list with one conversation's draft set (blank clears it), re-sorted as the server sorts. */
export function withDraft(list: ConversationItem[], conversationID: string, text: string, at: number): ConversationItem[] {
  const blank = text.trim() === '';
  return sortConversations(
    list.map((c) =>
      c.conversationID === conversationID ? { ...c, draftText: blank ? '' : text, draftTextTime: blank ? 0 : at } : c,
    ),
  );
}

/** What the composer starts with: this browser's copy when newer than the server's. */
export function initialDraft(me: string, item: ConversationItem | undefined, conversationID: string, store: KeyValueStore = browserStore): string {
  const local = localDraft(me, conversationID, store);
  const server = item?.draftText ?? '';
  if (local && local.at >= (item?.draftTextTime ?? 0)) return local.text;
  return server;
}

/**
 * The draft this browser kept that the server has not got (typed while the socket was down,
 * or the page went away before the save went out), to be sent again; null when there is none.
 */
export function unsavedDraft(me: string, item: ConversationItem | undefined, conversationID: string, store: KeyValueStore = browserStore): string | null {
  const local = localDraft(me, conversationID, store);
  if (!local || local.at < (item?.draftTextTime ?? 0) || local.text === (item?.draftText ?? '')) return null;
  return local.text;
}

/** Saves a draft: at once in the list and this browser, then on the server (the local copy goes once it is there). */
export function saveDraft(
  client: QueryClient,
  me: string,
  conversationID: string,
  text: string,
  store: KeyValueStore = browserStore,
  send: (conversationID: string, text: string) => Promise<unknown> = chat.setConversationDraft,
): Promise<void> {
  const at = Date.now();
  keepLocalDraft(me, conversationID, text, at, store);
  client.setQueryData<ConversationItem[]>(chatKeys.conversations, (current) =>
    current ? withDraft(current, conversationID, text, at) : current,
  );
  return send(conversationID, text).then(
    () => {
      // A newer draft saved meanwhile keeps its own copy.
      if (localDraft(me, conversationID, store)?.at === at) keepLocalDraft(me, conversationID, '', at, store);
    },
    () => {
      // Kept in this browser; the next save or visit tries again.
    },
  );
}
