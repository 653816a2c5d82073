import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chat } from '../../../api/chat';
import type { ConversationItem } from '../../../api/socket/types';
import { connectedSocket } from '../../../test/fakeSocket';
import { chatKeys } from './keys';
import { mergeMessages, type MessageWindow } from './messages';
import { bindChatPushes } from './sync';
import { textMessage } from './testMessages';
import { isTyping } from './typing';

function conversation(id: string, time: number): ConversationItem {
  return {
    conversationID: id, conversationType: 1, userID: '', groupID: '', showName: id, faceURL: '', recvMsgOpt: 0,
    unreadCount: 0, groupAtType: 0, latestMsg: '', latestMsgSendTime: time, draftText: '', draftTextTime: 0,
    isPinned: false, isNotInGroup: false, maxSeq: 0, hasReadSeq: 0, minSeq: 0,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('pushes into the query cache', () => {
  it('adds new messages to an open conversation, moves it up and sets the unread total', async () => {
    const { socket, ws } = await connectedSocket();
    const client = new QueryClient();
    client.setQueryData(chatKeys.conversations, [conversation('si_1_3', 200), conversation('si_1_2', 100)]);
    client.setQueryData<MessageWindow>(chatKeys.messages('si_1_2'), { messages: mergeMessages([], [textMessage({ clientMsgID: 'a', seq: 1 })]), isEnd: true });
    const off = bindChatPushes(client, socket);

    ws.push('OnRecvNewMessage', textMessage({ clientMsgID: 'b', seq: 2, sendID: '2', recvID: '1' }));
    ws.push('OnConversationChanged', [{ ...conversation('si_1_2', 300), unreadCount: 1 }]);
    ws.push('OnTotalUnreadMessageCountChanged', 1);

    expect(client.getQueryData<MessageWindow>(chatKeys.messages('si_1_2'))?.messages.map((m) => m.clientMsgID)).toEqual(['a', 'b']);
    expect(client.getQueryData<ConversationItem[]>(chatKeys.conversations)?.map((c) => c.conversationID)).toEqual(['si_1_2', 'si_1_3']);
    expect(client.getQueryData(chatKeys.unread)).toBe(1);
    off();
  });

  it('shows typing notices (contentType 113) without storing them', async () => {
    const { socket, ws } = await connectedSocket();
    const client = new QueryClient();
    client.setQueryData<MessageWindow>(chatKeys.messages('si_1_2'), { messages: [], isEnd: true });
    const off = bindChatPushes(client, socket);
    ws.push('OnRecvNewMessage', textMessage({ clientMsgID: 'ty', contentType: 113, seq: 0, sendID: '2', recvID: '1', textElem: undefined, typingElem: { msgTips: 'typing' } }));
    expect(isTyping('si_1_2')).toBe(true);
    expect(client.getQueryData<MessageWindow>(chatKeys.messages('si_1_2'))?.messages).toEqual([]);
    off();
  });

  it('after a reconnect, catches held conversations up by seq and refreshes the lists', async () => {
    const { socket, ws } = await connectedSocket();
    const client = new QueryClient();
    client.setQueryData<MessageWindow>(chatKeys.messages('si_1_2'), { messages: mergeMessages([], [textMessage({ clientMsgID: 'a', seq: 4 })]), isEnd: true });
    client.setQueryData(chatKeys.unread, 0);
    const reverse = vi.spyOn(chat, 'getAdvancedHistoryMessageListReverse').mockResolvedValue({
      isEnd: true,
      lastMinSeq: 6,
      messageList: [textMessage({ clientMsgID: 'b', seq: 5 }), textMessage({ clientMsgID: 'c', seq: 6 })],
    });
    const off = bindChatPushes(client, socket);
    ws.onclose?.(new CloseEvent('close', { code: 1006 }));
    await vi.waitFor(() => {
      expect(socket.state).toBe('connected');
    }, { timeout: 3000 });
    await vi.waitFor(() => {
      expect(client.getQueryData<MessageWindow>(chatKeys.messages('si_1_2'))?.messages.map((m) => m.seq)).toEqual([4, 5, 6]);
    });
    expect(reverse).toHaveBeenCalledWith({ conversationID: 'si_1_2', count: 100, lastMinSeq: 4 });
    expect(client.getQueryState(chatKeys.unread)?.isInvalidated).toBe(true);
    off();
  });

  it('marks one\'s messages read when the peer reads them, and sets who read one\'s group messages', async () => {
    const { socket, ws } = await connectedSocket();
    const client = new QueryClient();
    const mine = (id: string, seq: number) => textMessage({ clientMsgID: id, seq, sendID: '1', recvID: '2' });
    client.setQueryData<MessageWindow>(chatKeys.messages('si_1_2'), { messages: mergeMessages([], [mine('a', 1), mine('b', 2), mine('c', 3)]), isEnd: true });
    client.setQueryData<MessageWindow>(chatKeys.messages('sg_9'), { messages: mergeMessages([], [{ ...mine('g', 1), groupID: '9', sessionType: 3 }]), isEnd: true });
    const off = bindChatPushes(client, socket);

    ws.push('OnRecvC2CReadReceipt', [{ userID: '2', groupID: '', msgIDList: ['a', 'b'], readTime: 1, sessionType: 1 }]);
    expect(client.getQueryData<MessageWindow>(chatKeys.messages('si_1_2'))?.messages.map((m) => m.isRead)).toEqual([true, true, false]);

    ws.push('OnRecvGroupReadReceipt', {
      conversationID: 'sg_9',
      groupMessageReadInfo: [{ clientMsgID: 'g', hasReadCount: 1, unreadCount: 2, hasReadUserIDList: ['3'] }],
    });
    expect(client.getQueryData<MessageWindow>(chatKeys.messages('sg_9'))?.messages[0]?.attachedInfoElem?.groupHasReadInfo).toEqual({
      hasReadCount: 1,
      unreadCount: 2,
      hasReadUserIDList: ['3'],
      groupMemberCount: 3,
    });
    off();
  });
});
