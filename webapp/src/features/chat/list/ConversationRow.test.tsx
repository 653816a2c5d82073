import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationItem } from '../../../api/socket/types';
import { createI18n } from '../../../i18n';
import { textMessage } from '../data/testMessages';
import { ConversationRow } from './ConversationRow';

const NOW = 1_700_000_600_000;

function item(over: Partial<ConversationItem>): ConversationItem {
  return {
    conversationID: 'si_1_2', conversationType: 1, userID: '2', groupID: '', showName: 'bob', faceURL: '', recvMsgOpt: 0,
    unreadCount: 0, groupAtType: 0, latestMsg: JSON.stringify(textMessage({ clientMsgID: 'a', textElem: { content: 'see you' } })),
    latestMsgSendTime: NOW - 2 * 3_600_000, draftText: '', draftTextTime: 0, isPinned: false, isNotInGroup: false,
    maxSeq: 1, hasReadSeq: 1, minSeq: 0, ...over,
  };
}

function show(conversation: ConversationItem, onMenu = vi.fn()) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <ConversationRow conversation={conversation} me="1" now={NOW} onMenu={onMenu} /> },
      { path: '/pages/chat/conversation', element: <p>conversation page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { router, onMenu };
}

describe('ConversationRow', () => {
  it('shows the name, time ago, latest message and an unread badge capped at 99+', () => {
    show(item({ unreadCount: 120 }));
    const row = screen.getByRole('button', { name: 'bob, 120 unread messages' });
    expect(row).toHaveTextContent('2 hours ago');
    expect(row).toHaveTextContent('see you');
    expect(row).toHaveTextContent('99+');
  });

  it('shows a draft instead of the latest message', () => {
    show(item({ draftText: 'half a thought', draftTextTime: NOW - 1000 }));
    expect(screen.getByRole('button', { name: 'bob' })).toHaveTextContent('[Draft] half a thought');
  });

  it('opens the conversation on tap and the menu on a context menu (long press)', async () => {
    const user = userEvent.setup();
    const { router, onMenu } = show(item({}));
    await user.pointer({ keys: '[MouseRight]', target: screen.getByRole('button', { name: 'bob' }) });
    expect(onMenu).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'bob' }));
    expect(router.state.location.search).toBe('?conversationID=si_1_2');
  });

  it('keeps the unread count of a do-not-disturb chat, with the struck bell, and says so', () => {
    show(item({ unreadCount: 3, recvMsgOpt: 2 }));
    const row = screen.getByRole('button', { name: 'bob, 3 unread messages, do not disturb' });
    expect(row).toHaveTextContent('3');
    expect(row).toHaveAttribute('data-muted', 'true');
    expect(row.querySelector('.conversation-row__badge--muted')).not.toBeNull();
  });
});
