import { describe, expect, it } from 'vitest';
import type { GroupMemberItem } from '../../../api/socket/types';
import {
  AT_ALL,
  activeMention,
  atArguments,
  insertMention,
  mentionClass,
  mentionParts,
  mentionsIn,
  mentionsMe,
  pickable,
} from './mentions';

const member = (userID: string, nickname: string) => ({ userID, nickname }) as GroupMemberItem;

describe('activeMention', () => {
  it('finds the @ being typed at the caret', () => {
    expect(activeMention('hi @bo', 6)).toEqual({ start: 3, query: 'bo' });
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
  });
  it('is none inside a word, after a space, or away from the caret', () => {
    expect(activeMention('mail a@b.c', 10)).toBeNull();
    expect(activeMention('@bob hi', 7)).toBeNull();
    expect(activeMention('no at here', 5)).toBeNull();
  });
});

describe('picking', () => {
  const members = [member('1', 'Alice'), member('2', 'Bob'), member('3', 'bobby'), member('4', '')];
  it('filters by name or id without case, leaving oneself out', () => {
    expect(pickable(members, 'BO', '1').map((m) => m.userID)).toEqual(['2', '3']);
    expect(pickable(members, '', '1').map((m) => m.userID)).toEqual(['2', '3', '4']);
    expect(pickable(members, '4', '1').map((m) => m.userID)).toEqual(['4']);
  });
  it('replaces the typed query by the name and moves the caret after it', () => {
    expect(insertMention('hi @bo and', 3, 6, 'Bob')).toEqual({ text: 'hi @Bob  and', caret: 8 });
  });
  it('keeps only the members still named, once each', () => {
    const picked = [
      { userID: '2', name: 'Bob' },
      { userID: '3', name: 'bobby' },
      { userID: '2', name: 'Bob' },
    ];
    expect(mentionsIn('@Bob see this', picked)).toEqual([{ userID: '2', name: 'Bob' }]);
    expect(atArguments(mentionsIn('@Bob @bobby', picked))).toEqual({
      ids: ['2', '3'],
      info: [
        { atUserID: '2', groupNickname: 'Bob' },
        { atUserID: '3', groupNickname: 'bobby' },
      ],
    });
  });
});

describe('mentionParts', () => {
  it('marks the named members, the reader apart, longest name first', () => {
    const info = [
      { atUserID: '2', groupNickname: 'Bob' },
      { atUserID: '3', groupNickname: 'Bobby' },
    ];
    expect(mentionParts('hey @Bobby and @Bob!', info, ['2', '3'], '2')).toEqual([
      { text: 'hey ' },
      { text: '@Bobby', mention: { self: false } },
      { text: ' and ' },
      { text: '@Bob', mention: { self: true } },
      { text: '!' },
    ]);
  });
  it('counts @all as naming the reader, and ignores names not in atUserList', () => {
    const info = [
      { atUserID: AT_ALL, groupNickname: 'all' },
      { atUserID: '9', groupNickname: 'Eve' },
    ];
    expect(mentionParts('@all @Eve', info, [AT_ALL], '5')).toEqual([
      { text: '@all', mention: { self: true } },
      { text: ' @Eve' },
    ]);
    expect(mentionParts('plain', null, null, '5')).toEqual([{ text: 'plain' }]);
  });
  it('tells which groupAtType mentions the reader', () => {
    expect([0, 1, 2, 3].map(mentionsMe)).toEqual([false, true, false, true]);
  });
});

describe('mentionClass', () => {
  it('keeps a mention in one\'s own bubble in the bubble\'s colour, and marks the reader apart elsewhere', () => {
    expect(mentionClass(false, true)).toBe('msg-mention msg-mention--on-mine');
    // Naming oneself in one's own message: still the own bubble's colour.
    expect(mentionClass(true, true)).toBe('msg-mention msg-mention--on-mine');
    expect(mentionClass(true, false)).toBe('msg-mention msg-mention--self');
    expect(mentionClass(false, false)).toBe('msg-mention');
  });
});
