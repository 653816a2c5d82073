import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MessageStatus } from '../../api/socket/types';
import { createI18n } from '../../i18n';
import type { ChatMessage } from '../data/messages';
import { textMessage } from '../data/testMessages';
import { MessageRow } from './MessageRow';

function show(message: ChatMessage, isGroup = false) {
  const onRetry = vi.fn();
  const onMenu = vi.fn();
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
        />
      ),
    },
  ]);
  render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { onRetry, onMenu };
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
});
