import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../i18n';
import type { ChatMessage } from '../data/messages';
import { textMessage } from '../data/testMessages';
import { MessageActionsContext, type MessageActions } from './messageActions';
import { MessageRow } from './MessageRow';

function show(message: ChatMessage, previous?: ChatMessage) {
  const actions: MessageActions = { jumpTo: vi.fn(), showReaction: vi.fn() };
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <MessageActionsContext.Provider value={actions}>
          <MessageRow
            message={message}
            previous={previous}
            me="1"
            now={message.sendTime}
            isGroup
            selecting={false}
            selected={false}
            onToggleSelect={vi.fn()}
            onMenu={vi.fn()}
            onRetry={vi.fn()}
            onReaders={vi.fn()}
          />
        </MessageActionsContext.Provider>
      ),
    },
  ]);
  const view = render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { actions, view };
}

const at = Date.UTC(2026, 2, 1, 10, 0);

describe('MessageRow reactions, edits and runs', () => {
  it('shows the reactions with counts, marks mine, and tells who reacted on a tap', async () => {
    const user = userEvent.setup();
    const reaction = { emoji: '👍', count: 2, userIDList: ['2', '1'] };
    const m = { ...textMessage({ clientMsgID: 'a', sendID: '2', seq: 3, sendTime: at, reactions: [reaction, { emoji: '😂', count: 1, userIDList: ['3'] }] }), localKey: 'a' };
    const { actions, view } = show(m);
    const chips = view.container.querySelectorAll('.msg-reaction');
    expect([...chips].map((c) => c.textContent)).toEqual(['👍 2', '😂 1']);
    expect(chips[0]?.classList.contains('msg-reaction--mine')).toBe(true);
    expect(chips[1]?.classList.contains('msg-reaction--mine')).toBe(false);
    await user.click(screen.getByRole('button', { name: '👍 2' }));
    expect(actions.showReaction).toHaveBeenCalledWith(m, reaction);
  });

  it('says "edited" on an edited message only', () => {
    const edited = { ...textMessage({ clientMsgID: 'e', sendID: '2', seq: 4, sendTime: at, editTime: at + 1000 }), localKey: 'e' };
    show(edited);
    expect(screen.getByTestId('edited').textContent).toBe('edited');
  });

  it('runs a sender\'s consecutive messages together: one avatar and name, a time on each', () => {
    const first = { ...textMessage({ clientMsgID: 'p', sendID: '2', seq: 5, sendTime: at, senderNickname: 'bob' }), localKey: 'p' };
    const next = { ...textMessage({ clientMsgID: 'n', sendID: '2', seq: 6, sendTime: at + 30_000, senderNickname: 'bob' }), localKey: 'n' };
    const { view } = show(next, first);
    expect(view.container.querySelector('.msg-line--grouped')).not.toBeNull();
    expect(view.container.querySelector('a.msg-avatar')).toBeNull();
    expect(view.container.querySelector('.msg-sender')).toBeNull();
    expect(view.container.querySelectorAll('time.msg-time')).toHaveLength(1);
    // Another sender, or a long pause, starts a new run.
    view.unmount();
    const other = { ...first, sendID: '3', clientMsgID: 'o', localKey: 'o' };
    const { view: again } = show(next, other);
    expect(again.container.querySelector('.msg-line--grouped')).toBeNull();
    expect(again.container.querySelector('a.msg-avatar')).not.toBeNull();
  });
});
