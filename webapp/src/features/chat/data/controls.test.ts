import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chat } from '../../../api/chat';
import type { ConversationItem } from '../../../api/socket/types';
import { clearHistory, markReadLocally, setMuted, setPinned } from './controls';
import { chatKeys } from './keys';

function conversation(id: string, over: Partial<ConversationItem> = {}): ConversationItem {
  return {
    conversationID: id, conversationType: 1, userID: '', groupID: '', showName: id, faceURL: '', recvMsgOpt: 0,
    unreadCount: 0, groupAtType: 0, latestMsg: '', latestMsgSendTime: 0, draftText: '', draftTextTime: 0,
    isPinned: false, isNotInGroup: false, maxSeq: 0, hasReadSeq: 0, minSeq: 0, ...over,
  };
}

function seeded(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(chatKeys.conversations, [
    conversation('a', { latestMsgSendTime: 30, unreadCount: 2 }),
    conversation('b', { latestMsgSendTime: 20, unreadCount: 3 }),
    conversation('c', { latestMsgSendTime: 10, unreadCount: 4, recvMsgOpt: 2 }),
  ]);
  client.setQueryData(chatKeys.unread, 5);
  return client;
}

const list = (client: QueryClient) => client.getQueryData<ConversationItem[]>(chatKeys.conversations) ?? [];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('conversation controls', () => {
  it('pins to the top at once and tells the server', async () => {
    const client = seeded();
    const pin = vi.spyOn(chat, 'pinConversation').mockResolvedValue(null);
    await setPinned(client, 'b', true);
    expect(pin).toHaveBeenCalledWith('b', true);
    expect(list(client).map((c) => c.conversationID)).toEqual(['b', 'a', 'c']);
  });

  it('muting takes the unread out of the badge and keeps it in the row; unmuting puts it back', async () => {
    const client = seeded();
    const opt = vi.spyOn(chat, 'setConversationRecvMessageOpt').mockResolvedValue(null);
    await setMuted(client, 'b', true);
    expect(opt).toHaveBeenCalledWith('b', 2);
    expect(list(client).find((c) => c.conversationID === 'b')).toMatchObject({ recvMsgOpt: 2, unreadCount: 3 });
    expect(client.getQueryData(chatKeys.unread)).toBe(2);
    await setMuted(client, 'c', false);
    expect(opt).toHaveBeenLastCalledWith('c', 0);
    expect(client.getQueryData(chatKeys.unread)).toBe(6);
  });

  it('reading a muted chat leaves the badge alone', () => {
    const client = seeded();
    markReadLocally(client, 'c');
    expect(client.getQueryData(chatKeys.unread)).toBe(5);
    markReadLocally(client, 'a');
    expect(client.getQueryData(chatKeys.unread)).toBe(3);
  });

  it('clears the history but keeps the chat; a refusal re-reads the lists and reaches the caller', async () => {
    const client = seeded();
    vi.spyOn(chat, 'clearConversationAndDeleteAllMsg').mockResolvedValue(null);
    await clearHistory(client, 'a');
    expect(list(client).find((c) => c.conversationID === 'a')).toMatchObject({ unreadCount: 0, latestMsg: '' });
    expect(client.getQueryData(chatKeys.unread)).toBe(3);

    const refused = new Error('refused');
    vi.spyOn(chat, 'pinConversation').mockRejectedValue(refused);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    await expect(setPinned(client, 'c', true)).rejects.toBe(refused);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: chatKeys.conversations });
  });
});
