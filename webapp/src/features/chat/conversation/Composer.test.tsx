import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import type { GroupMemberItem } from '../../../api/socket/types';
import { createI18n } from '../../../i18n';
import { Composer, DRAFT_SAVE_MS } from './Composer';

const members = [
  { userID: '1', nickname: 'me' },
  { userID: '2', nickname: 'Bob', faceURL: '' },
] as GroupMemberItem[];

function renderComposer(
  props: {
    blocked?: string | null;
    onSendText?: () => void;
    mention?: { members: GroupMemberItem[]; canMentionAll: boolean };
    initialDraft?: string;
    onDraft?: (text: string) => void;
  } = {},
) {
  return render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <Composer
        me="1"
        initialDraft={props.initialDraft ?? ''}
        quote={null}
        onCancelQuote={vi.fn()}
        onSendText={props.onSendText ?? vi.fn()}
        blocked={props.blocked}
        mention={props.mention}
        onImage={vi.fn()}
        onVideo={vi.fn()}
        onFile={vi.fn()}
        onVoice={vi.fn()}
        onLocation={vi.fn()}
        onCard={vi.fn()}
        onTyping={vi.fn()}
        onDraft={props.onDraft ?? vi.fn()}
      />
    </I18nextProvider>,
  );
}

describe('Composer emoji', () => {
  it('puts an emoji into the text at the caret instead of sending it', () => {
    const onSendText = vi.fn();
    renderComposer({ onSendText });
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    fireEvent.change(box, { target: { value: 'see you', selectionStart: 3, selectionEnd: 3 } });
    fireEvent.click(screen.getByRole('button', { name: 'Emoji' }));
    fireEvent.click(screen.getByRole('button', { name: 'Insert 👍' }));
    expect(box.value).toBe('see👍 you');
    expect(box.selectionStart).toBe('see👍'.length);
    expect(onSendText).not.toHaveBeenCalled();
    // The panel stays open for another one, and Send sends the text with it.
    fireEvent.click(screen.getByRole('button', { name: 'Insert 🎉' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSendText).toHaveBeenCalledWith('see👍🎉 you', []);
  });
});

describe('Composer while muted', () => {
  it('is disabled and says why', () => {
    renderComposer({ blocked: 'You are muted (5 minutes left)' });
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    expect(box.disabled).toBe(true);
    expect(box.placeholder).toBe('You are muted (5 minutes left)');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Emoji' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'More' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Voice message' }).disabled).toBe(true);
  });
});

describe('Composer mentions', () => {
  it('places the caret after a picked mention before the next key can land elsewhere', () => {
    renderComposer({ mention: { members, canMentionAll: false } });
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    // "@Bo" typed in front of text already there: the caret is inside the text, not at its end.
    fireEvent.change(box, { target: { value: '@Bo lunch?', selectionStart: 3, selectionEnd: 3 } });
    fireEvent.click(screen.getByRole('button', { name: 'Bob' }));
    // Checked at once, without waiting a frame: a key pressed now goes where the caret is.
    expect(box.value.startsWith('@Bob ')).toBe(true);
    expect(box.value.endsWith('lunch?')).toBe(true);
    expect(box.selectionStart).toBe('@Bob '.length);
    expect(document.activeElement).toBe(box);
  });
});

describe('Composer drafts', () => {
  it('saves the draft once typing pauses, not on every key, and clears it on sending', () => {
    vi.useFakeTimers();
    try {
      const onDraft = vi.fn();
      renderComposer({ onDraft });
      const box = screen.getByRole<HTMLTextAreaElement>('textbox');
      fireEvent.change(box, { target: { value: 'see', selectionStart: 3, selectionEnd: 3 } });
      act(() => {
        vi.advanceTimersByTime(DRAFT_SAVE_MS - 100);
      });
      fireEvent.change(box, { target: { value: 'see you', selectionStart: 7, selectionEnd: 7 } });
      act(() => {
        vi.advanceTimersByTime(DRAFT_SAVE_MS - 100);
      });
      expect(onDraft).not.toHaveBeenCalled();
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(onDraft.mock.calls).toEqual([['see you']]);
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      expect(onDraft.mock.calls).toEqual([['see you'], ['']]);
      act(() => {
        vi.advanceTimersByTime(DRAFT_SAVE_MS * 2);
      });
      expect(onDraft).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('saves what is typed at once when the page goes away, and nothing when the draft is unchanged', () => {
    const onDraft = vi.fn();
    const view = renderComposer({ onDraft, initialDraft: 'kept' });
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    expect(box.value).toBe('kept');
    window.dispatchEvent(new Event('pagehide'));
    expect(onDraft).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: 'kept and more', selectionStart: 13, selectionEnd: 13 } });
    window.dispatchEvent(new Event('pagehide'));
    expect(onDraft.mock.calls).toEqual([['kept and more']]);
    view.unmount();
    expect(onDraft).toHaveBeenCalledTimes(1);
  });
});
