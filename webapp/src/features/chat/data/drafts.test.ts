import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationItem } from '../../../api/socket/types';
import { STORAGE_KEYS } from '../../../api/storage';
import { memoryStore } from '../../../test/memoryStore';
import { initialDraft, keepLocalDraft, localDraft, saveDraft, unsavedDraft, withDraft } from './drafts';
import { chatKeys } from './keys';

function conversation(id: string, over: Partial<ConversationItem> = {}): ConversationItem {
  return {
    conversationID: id, conversationType: 1, userID: '', groupID: '', showName: id, faceURL: '', recvMsgOpt: 0,
    unreadCount: 0, groupAtType: 0, latestMsg: '', latestMsgSendTime: 0, draftText: '', draftTextTime: 0,
    isPinned: false, isNotInGroup: false, maxSeq: 0, hasReadSeq: 0, minSeq: 0, ...over,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('drafts', () => {
  it('keeps drafts per user and conversation, and forgets a blank one', () => {
    const store = memoryStore();
    keepLocalDraft('1', 'si_1_2', 'hello', 10, store);
    keepLocalDraft('1', 'si_1_3', 'other', 11, store);
    keepLocalDraft('9', 'si_1_2', 'not mine', 12, store);
    expect(localDraft('1', 'si_1_2', store)).toEqual({ text: 'hello', at: 10 });
    expect(localDraft('9', 'si_1_2', store)?.text).toBe('not mine');
    expect(localDraft('1', 'si_1_4', store)).toBeNull();
    keepLocalDraft('1', 'si_1_2', '   ', 13, store);
    expect(localDraft('1', 'si_1_2', store)).toBeNull();
    expect(localDraft('1', 'si_1_3', store)?.text).toBe('other');
    keepLocalDraft('1', 'si_1_3', '', 14, store);
    keepLocalDraft('9', 'si_1_2', '', 14, store);
    expect(store.get(STORAGE_KEYS.chatDrafts)).toBeNull();
  });

  it('survives a damaged entry', () => {
    const store = memoryStore({ [STORAGE_KEYS.chatDrafts]: '{not json' });
    expect(localDraft('1', 'si_1_2', store)).toBeNull();
    keepLocalDraft('1', 'si_1_2', 'fresh', 1, store);
    expect(localDraft('1', 'si_1_2', store)?.text).toBe('fresh');
  });

  it('moves a conversation with a new draft up, under the pinned ones, and clears it', () => {
    const list = [
      conversation('pinned', { isPinned: true, latestMsgSendTime: 1 }),
      conversation('newer', { latestMsgSendTime: 50 }),
      conversation('older', { latestMsgSendTime: 20 }),
    ];
    const drafted = withDraft(list, 'older', 'unsent', 100);
    expect(drafted.map((c) => c.conversationID)).toEqual(['pinned', 'older', 'newer']);
    expect(drafted[1]).toMatchObject({ draftText: 'unsent', draftTextTime: 100 });
    const cleared = withDraft(drafted, 'older', ' ', 200);
    expect(cleared.map((c) => c.conversationID)).toEqual(['pinned', 'newer', 'older']);
    expect(cleared[2]).toMatchObject({ draftText: '', draftTextTime: 0 });
  });

  it('starts the composer with the newer of this browser and the server', () => {
    const store = memoryStore();
    const item = conversation('c', { draftText: 'from server', draftTextTime: 50 });
    expect(initialDraft('1', item, 'c', store)).toBe('from server');
    keepLocalDraft('1', 'c', 'typed offline', 60, store);
    expect(initialDraft('1', item, 'c', store)).toBe('typed offline');
    keepLocalDraft('1', 'c', 'stale', 40, store);
    expect(initialDraft('1', item, 'c', store)).toBe('from server');
    expect(initialDraft('1', undefined, 'c', store)).toBe('stale');
  });

  it('names the draft this browser kept that the server has not got, to send it again', () => {
    const store = memoryStore();
    expect(unsavedDraft('1', conversation('si_1_2'), 'si_1_2', store)).toBeNull();
    keepLocalDraft('1', 'si_1_2', 'typed offline', 50, store);
    expect(unsavedDraft('1', conversation('si_1_2', { draftText: 'older', draftTextTime: 40 }), 'si_1_2', store)).toBe('typed offline');
    expect(unsavedDraft('1', undefined, 'si_1_2', store)).toBe('typed offline');
    // The server has it already, or has a newer one (from another device): nothing to send.
    expect(unsavedDraft('1', conversation('si_1_2', { draftText: 'typed offline', draftTextTime: 50 }), 'si_1_2', store)).toBeNull();
    expect(unsavedDraft('1', conversation('si_1_2', { draftText: 'newer', draftTextTime: 60 }), 'si_1_2', store)).toBeNull();
    expect(unsavedDraft('2', conversation('si_1_2'), 'si_1_2', store)).toBeNull();
  });

  it('shows the draft in the list at once and drops the local copy once the server has it', async () => {
    const store = memoryStore();
    const client = new QueryClient();
    client.setQueryData(chatKeys.conversations, [conversation('a', { latestMsgSendTime: 5 }), conversation('b', { latestMsgSendTime: 1 })]);
    let accept!: () => void;
    const send = vi.fn(() => new Promise<void>((resolve) => (accept = resolve)));
    const saved = saveDraft(client, '1', 'b', 'later', store, send);
    expect(send).toHaveBeenCalledWith('b', 'later');
    const list = client.getQueryData<ConversationItem[]>(chatKeys.conversations) ?? [];
    expect(list[0]).toMatchObject({ conversationID: 'b', draftText: 'later' });
    expect(localDraft('1', 'b', store)?.text).toBe('later');
    accept();
    await saved;
    expect(localDraft('1', 'b', store)).toBeNull();
  });

  it('keeps the local copy when the server refuses', async () => {
    const store = memoryStore();
    const client = new QueryClient();
    await saveDraft(client, '1', 'b', 'offline words', store, () => Promise.reject(new Error('closed')));
    expect(localDraft('1', 'b', store)?.text).toBe('offline words');
  });
});
