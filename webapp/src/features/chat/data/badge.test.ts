import { describe, expect, it } from 'vitest';
import { badgeTotal, badgeUnread, isMuted, unreadTitle } from './badge';

describe('badge', () => {
  it('counts a normal conversation and leaves a muted one out', () => {
    expect(badgeUnread({ recvMsgOpt: 0, unreadCount: 4 })).toBe(4);
    expect(badgeUnread({ recvMsgOpt: 2, unreadCount: 4 })).toBe(0);
    expect(badgeUnread({ recvMsgOpt: 1, unreadCount: 4 })).toBe(0);
    expect(badgeUnread({ recvMsgOpt: 0, unreadCount: -1 })).toBe(0);
    expect(isMuted({ recvMsgOpt: 2 })).toBe(true);
    expect(isMuted({ recvMsgOpt: 0 })).toBe(false);
  });

  it('sums a list without the muted conversations', () => {
    expect(
      badgeTotal([
        { recvMsgOpt: 0, unreadCount: 2 },
        { recvMsgOpt: 2, unreadCount: 7 },
        { recvMsgOpt: 0, unreadCount: 1 },
      ]),
    ).toBe(3);
    expect(badgeTotal([])).toBe(0);
  });

  it('puts the count in front of the title', () => {
    expect(unreadTitle('kj', 0)).toBe('kj');
    expect(unreadTitle('kj', -2)).toBe('kj');
    expect(unreadTitle('kj', 3)).toBe('(3) kj');
    expect(unreadTitle('Chat', 100)).toBe('(99+) Chat');
  });
});
