import { render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { chatReconnectingAtom } from '../../../api/chat';
import { createI18n } from '../../../i18n';
import { ConnectionBanner } from './ConnectionBanner';

function show(state: Parameters<typeof ConnectionBanner>[0]['state'], reconnecting: boolean) {
  const store = createStore();
  store.set(chatReconnectingAtom, reconnecting);
  return render(
    <Provider store={store}>
      <I18nextProvider i18n={createI18n('en-US')}>
        <ConnectionBanner state={state} />
      </I18nextProvider>
    </Provider>,
  );
}

describe('ConnectionBanner', () => {
  it('says reconnecting at once after a drop', () => {
    show('connecting', true);
    const bar = screen.getByTestId('chat-connecting');
    expect(bar).toHaveTextContent('Connection lost, reconnecting…');
    expect(bar).not.toHaveClass('chat-connection__bar--delayed');
  });

  it('waits before showing the first connection, and shows nothing when connected', () => {
    const { unmount } = show('connecting', false);
    expect(screen.getByTestId('chat-connecting')).toHaveClass('chat-connection__bar--delayed');
    unmount();
    show('connected', false);
    expect(screen.queryByTestId('chat-connecting')).toBeNull();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
