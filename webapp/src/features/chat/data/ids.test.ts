import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../../api/socket/types';
import { badgeText, conversationOfMessage, mergeConversations, singleConversationID, targetOf } from './ids';
import { textMessage } from './testMessages';

function conversation(id: string, over: Partial<ConversationItem> = {}): ConversationItem {
  return {
    conversationID: id, conversationType: 1, userID: '', groupID: '', showName: id, faceURL: '', recvMsgOpt: 0,
    unreadCount: 0, groupAtType: 0, latestMsg: '', latestMsgSendTime: 0, draftText: '', draftTextTime: 0,
    isPinned: false, isNotInGroup: false, maxSeq: 0, hasReadSeq: 0, minSeq: 0, ...over,
  };
}

describe('conversation ids', () => {
  it('orders the two user ids as strings, as the server does', () => {
    expect(singleConversationID('9', '10')).toBe('si_10_9');
    expect(singleConversationID('10', '9')).toBe('si_10_9');
  });

  it('finds the conversation of a message from either side, and of a group', () => {
    expect(conversationOfMessage(textMessage({ clientMsgID: 'a', sendID: '2', recvID: '1' }), '1')).toBe('si_1_2');
    expect(conversationOfMessage(textMessage({ clientMsgID: 'a', sendID: '1', recvID: '2' }), '1')).toBe('si_1_2');
    expect(conversationOfMessage(textMessage({ clientMsgID: 'a', sessionType: 3, groupID: '77', recvID: '' }), '1')).toBe('sg_77');
  });

  it('turns a conversation id into where messages go', () => {
    expect(targetOf('si_1_2', '1')).toEqual({ conversationID: 'si_1_2', recvID: '2', groupID: '' });
    expect(targetOf('sg_77', '1')).toEqual({ conversationID: 'sg_77', recvID: '', groupID: '77' });
    expect(targetOf('nonsense', '1')).toBeNull();
  });
});

describe('conversation list order', () => {
  it('keeps pinned first and moves a conversation with a new message to the top of the rest', () => {
    const list = mergeConversations(undefined, [
      conversation('a', { latestMsgSendTime: 300 }),
      conversation('b', { latestMsgSendTime: 200, isPinned: true }),
      conversation('c', { latestMsgSendTime: 100 }),
    ]);
    expect(list.map((c) => c.conversationID)).toEqual(['b', 'a', 'c']);
    const after = mergeConversations(list, [conversation('c', { latestMsgSendTime: 400, unreadCount: 1 })]);
    expect(after.map((c) => c.conversationID)).toEqual(['b', 'c', 'a']);
  });

  it('counts a draft as activity', () => {
    const list = mergeConversations(undefined, [conversation('a', { latestMsgSendTime: 300 }), conversation('b', { draftTextTime: 500 })]);
    expect(list[0]?.conversationID).toBe('b');
  });

  it('shows 99+ above 99', () => {
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});
