import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chat } from '../../../api/chat';
import { ContentType, MessageStatus } from '../../../api/socket/types';
import { chatKeys } from './keys';
import { applyRevoke, catchUp, loadOlder, mergeMessages, type MessageWindow } from './messages';
import { textMessage } from './testMessages';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('mergeMessages', () => {
  it('orders stored messages by seq and keeps pending ones after them', () => {
    const pending = { ...textMessage({ clientMsgID: 'p', seq: 0, status: MessageStatus.sending }), localKey: 'p' };
    const merged = mergeMessages([pending], [textMessage({ clientMsgID: 'b', seq: 5 }), textMessage({ clientMsgID: 'a', seq: 2 })]);
    expect(merged.map((m) => m.clientMsgID)).toEqual(['a', 'b', 'p']);
  });

  it('replaces a message with the same clientMsgID once, keeping its list key', () => {
    const first = mergeMessages([], [textMessage({ clientMsgID: 'x', seq: 0, status: MessageStatus.sending, localKey: 'k1' } as never)]);
    const again = mergeMessages(first, [textMessage({ clientMsgID: 'x', seq: 7 })]);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ seq: 7, localKey: 'k1', status: MessageStatus.sent });
  });

  it('drops the failure of a message that was sent after all', () => {
    const failed = mergeMessages([], [
      { ...textMessage({ clientMsgID: 'x', seq: 0, status: MessageStatus.failed }), localKey: 'k', failure: { code: 1322, text: 'muted' } } as never,
    ]);
    expect(failed[0]?.failure?.code).toBe(1322);
    expect(mergeMessages(failed, [textMessage({ clientMsgID: 'x', seq: 3 })])[0]?.failure).toBeUndefined();
  });
});

function windowOf(client: QueryClient, id: string): MessageWindow | undefined {
  return client.getQueryData<MessageWindow>(chatKeys.messages(id));
}

describe('history windows', () => {
  it('loads one older page before the oldest seq held', async () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.messages('si_1_2'), {
      messages: mergeMessages([], [textMessage({ clientMsgID: 'c', seq: 31 })]),
      isEnd: false,
    });
    const spy = vi.spyOn(chat, 'getAdvancedHistoryMessageList').mockResolvedValue({
      isEnd: true,
      lastMinSeq: 30,
      messageList: [textMessage({ clientMsgID: 'a', seq: 29 }), textMessage({ clientMsgID: 'b', seq: 30 })],
    });
    expect(await loadOlder(client, 'si_1_2')).toBe(2);
    expect(spy).toHaveBeenCalledWith({ conversationID: 'si_1_2', count: 30, lastMinSeq: 31 });
    expect(windowOf(client, 'si_1_2')?.messages.map((m) => m.seq)).toEqual([29, 30, 31]);
    expect(windowOf(client, 'si_1_2')?.isEnd).toBe(true);
  });

  it('catches up page by page after the newest seq held, without duplicates', async () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.messages('si_1_2'), {
      messages: mergeMessages([], [textMessage({ clientMsgID: 'a', seq: 1 }), textMessage({ clientMsgID: 'b', seq: 2 })]),
      isEnd: true,
    });
    const spy = vi
      .spyOn(chat, 'getAdvancedHistoryMessageListReverse')
      .mockResolvedValueOnce({ isEnd: false, lastMinSeq: 3, messageList: [textMessage({ clientMsgID: 'c', seq: 3 })] })
      .mockResolvedValueOnce({ isEnd: true, lastMinSeq: 5, messageList: [textMessage({ clientMsgID: 'd', seq: 4 }), textMessage({ clientMsgID: 'e', seq: 5 })] });
    expect(await catchUp(client, 'si_1_2')).toBe(3);
    expect(spy.mock.calls.map((c) => c[0].lastMinSeq)).toEqual([2, 3]);
    expect(windowOf(client, 'si_1_2')?.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('turns a revoked message into a revoke notice', () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.messages('si_1_2'), { messages: mergeMessages([], [textMessage({ clientMsgID: 'a', seq: 1 })]), isEnd: true });
    applyRevoke(client, {
      revokerID: '2', revokerRole: 0, clientMsgID: 'a', revokerNickname: 'bob', revokeTime: 1, sourceMessageSendTime: 1,
      sourceMessageSendID: '2', sourceMessageSenderNickname: 'bob', sessionType: 1, seq: 1, conversationID: 'si_1_2',
    });
    const m = windowOf(client, 'si_1_2')?.messages[0];
    expect(m?.contentType).toBe(ContentType.revoked);
    expect(m?.textElem).toBeUndefined();
    expect(JSON.parse(m?.notificationElem?.detail ?? '{}')).toMatchObject({ revokerNickname: 'bob' });
  });
});
