import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { createI18n } from '../../i18n';
import { updatePromptAtom } from '../../state/appUpdate';
import { UpdatePrompt } from './UpdatePrompt';

function renderPrompt(kind: 'force' | 'optional') {
  const store = createStore();
  store.set(updatePromptAtom, { kind, pkg: { version: '1.4.0', path: '/files/app-1.4.0.apk', remark: 'Faster chats' } });
  render(
    <Provider store={store}>
      <I18nextProvider i18n={createI18n('en-US')}>
        <UpdatePrompt />
      </I18nextProvider>
    </Provider>,
  );
  return store;
}

describe('UpdatePrompt', () => {
  it('an optional update can be ignored, which is remembered', async () => {
    const user = userEvent.setup();
    const store = renderPrompt('optional');
    const dialog = screen.getByRole('dialog', { name: 'New version 1.4.0' });
    expect(dialog).toHaveTextContent('Faster chats');
    expect(screen.getByRole('link', { name: 'Update now' })).toHaveAttribute('href', '/files/app-1.4.0.apk');
    await user.click(screen.getByRole('button', { name: 'Ignore this version' }));
    expect(window.localStorage.getItem(STORAGE_KEYS.ignoreAppVersion)).toBe('1.4.0');
    expect(store.get(updatePromptAtom)).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('an optional update closes with Escape without being ignored', async () => {
    const user = userEvent.setup();
    renderPrompt('optional');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.ignoreAppVersion)).toBeNull();
  });

  it('a forced update cannot be closed', async () => {
    const user = userEvent.setup();
    renderPrompt('force');
    expect(screen.queryByRole('button', { name: 'Later' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ignore this version' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    act(() => {
      screen.getByRole('dialog').parentElement?.click();
    });
    expect(screen.getByRole('dialog', { name: 'New version 1.4.0' })).toBeInTheDocument();
  });
});
