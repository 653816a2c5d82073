import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MessageStatus } from '../../../api/socket/types';
import { createI18n } from '../../../i18n';
import type { ChatMessage } from '../data/messages';
import { textMessage } from '../data/testMessages';
import { MessageRow } from './MessageRow';

function show(message: ChatMessage, isGroup = false) {
  const onRetry = vi.fn();
  const onMenu = vi.fn();
  const onReaders = vi.fn();
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <MessageRow
          message={message}
          previous={undefined}
          me="1"
          now={message.sendTime}
          isGroup={isGroup}
          selecting={false}
          selected={false}
          onToggleSelect={vi.fn()}
          onMenu={onMenu}
          onRetry={onRetry}
          onReaders={onReaders}
        />
      ),
    },
  ]);
  render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { onRetry, onMenu, onReaders };
}

describe('MessageRow', () => {
  it('shows a refused message with its reason inline and resends it on tap', async () => {
    const user = userEvent.setup();
    const { onRetry } = show({
      ...textMessage({ clientMsgID: 'x', sendID: '1', seq: 0, status: MessageStatus.failed }),
      localKey: 'x',
      failure: { code: 1311, text: 'The other person has added you to their blacklist' },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The other person has added you to their blacklist');
    await user.click(screen.getByRole('button', { name: 'Sending failed, tap to resend' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows a pending message as sending, and the sender name in groups', () => {
    show({ ...textMessage({ clientMsgID: 'y', sendID: '1', seq: 0, status: MessageStatus.sending }), localKey: 'y' });
    expect(screen.getByRole('img', { name: 'Sending' })).toBeInTheDocument();
  });

  it('names the sender of a group message and opens the menu from the keyboard', async () => {
    const user = userEvent.setup();
    const { onMenu } = show({ ...textMessage({ clientMsgID: 'z', sendID: '2', senderNickname: 'bob' }), localKey: 'z' }, true);
    expect(screen.getByText('bob')).toBeInTheDocument();
    screen.getByText('text z').closest<HTMLElement>('.msg-bubble')?.focus();
    await user.keyboard('{Shift>}{F10}{/Shift}');
    expect(onMenu).toHaveBeenCalledTimes(1);
  });

  it('says whether the peer read one\'s message in a 1:1 chat', () => {
    show({ ...textMessage({ clientMsgID: 'r1', sendID: '1', isRead: true }), localKey: 'r1' });
    expect(screen.getByTestId('read-state')).toHaveTextContent('Read');
  });

  it('says unread until the peer reads', () => {
    show({ ...textMessage({ clientMsgID: 'r2', sendID: '1', isRead: false }), localKey: 'r2' });
    expect(screen.getByTestId('read-state')).toHaveTextContent('Unread');
  });

  it('shows no read state under messages from others', () => {
    show({ ...textMessage({ clientMsgID: 'r3', sendID: '2', isRead: true }), localKey: 'r3' });
    expect(screen.queryByTestId('read-state')).not.toBeInTheDocument();
  });

  it('counts the readers of one\'s group message and opens their list on tap', async () => {
    const user = userEvent.setup();
    const message = {
      ...textMessage({ clientMsgID: 'g1', sendID: '1' }),
      localKey: 'g1',
      attachedInfoElem: { groupHasReadInfo: { hasReadCount: 2, unreadCount: 1, hasReadUserIDList: ['2', '3'], groupMemberCount: 3 } },
    };
    const { onReaders } = show(message, true);
    await user.click(screen.getByRole('button', { name: 'Read by 2' }));
    expect(onReaders).toHaveBeenCalledWith(message);
  });

  it('says read by all when every member read it', () => {
    show(
      {
        ...textMessage({ clientMsgID: 'g2', sendID: '1' }),
        localKey: 'g2',
        attachedInfoElem: { groupHasReadInfo: { hasReadCount: 2, unreadCount: 0, hasReadUserIDList: ['2', '3'], groupMemberCount: 2 } },
      },
      true,
    );
    expect(screen.getByTestId('read-state')).toHaveTextContent('Read by all');
  });
});
