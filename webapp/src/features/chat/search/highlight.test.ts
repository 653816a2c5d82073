import { describe, expect, it } from 'vitest';
import type { MessageItem, SearchResultItem } from '../../../api/socket/types';
import { aroundMatch, groupMatches, highlightParts } from './highlight';

describe('highlightParts', () => {
  it('marks every match ignoring case, keeping the text as written', () => {
    expect(highlightParts('Pizza? pizza!', 'PIZZA')).toEqual([
      { text: 'Pizza', hit: true },
      { text: '? ', hit: false },
      { text: 'pizza', hit: true },
      { text: '!', hit: false },
    ]);
  });
  it('leaves text without a match, or an empty keyword, plain', () => {
    expect(highlightParts('hello', 'x')).toEqual([{ text: 'hello', hit: false }]);
    expect(highlightParts('hello', ' ')).toEqual([{ text: 'hello', hit: false }]);
  });
  it('finds Chinese words inside a sentence', () => {
    expect(highlightParts('今晚吃披萨吗', '披萨')).toEqual([
      { text: '今晚吃', hit: false },
      { text: '披萨', hit: true },
      { text: '吗', hit: false },
    ]);
  });
});

describe('aroundMatch', () => {
  it('cuts a long lead so the match shows', () => {
    expect(aroundMatch('a'.repeat(40) + 'pizza', 'pizza', 4)).toBe('…aaaapizza');
    expect(aroundMatch('short pizza', 'pizza', 16)).toBe('short pizza');
  });
});

describe('groupMatches', () => {
  const msg = (id: string) => ({ clientMsgID: id }) as MessageItem;
  const item = (conversationID: string, ids: string[]): SearchResultItem => ({
    conversationID,
    conversationType: conversationID.startsWith('sg_') ? 3 : 1,
    showName: conversationID,
    faceURL: '',
    messageCount: ids.length,
    messageList: ids.map(msg),
  });
  it('merges pages per conversation in first-seen order, once per message', () => {
    const groups = groupMatches([[item('sg_1', ['a']), item('si_1_2', ['b'])], [item('sg_1', ['c', 'a'])]]);
    expect(groups.map((g) => [g.conversationID, g.isGroup, g.messages.map((m) => m.clientMsgID)])).toEqual([
      ['sg_1', true, ['a', 'c']],
      ['si_1_2', false, ['b']],
    ]);
  });
});
