import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import type { GroupMemberItem } from '../../../api/socket/types';
import { createI18n } from '../../../i18n';
import { AtTextContent } from './content/AtTextContent';
import { MentionPicker } from './MentionPicker';

const members = [
  { userID: '1', nickname: 'me' },
  { userID: '2', nickname: 'Bob', faceURL: '' },
  { userID: '3', nickname: 'Carol', faceURL: '' },
] as GroupMemberItem[];

function withI18n(node: React.ReactNode) {
  return render(<I18nextProvider i18n={createI18n('en-US')}>{node}</I18nextProvider>);
}

describe('MentionPicker', () => {
  it('offers the members matching what was typed, and @all only to owners and admins', async () => {
    const onPick = vi.fn();
    const { rerender } = withI18n(<MentionPicker members={members} query="" me="1" canMentionAll={false} onPick={onPick} />);
    const names = () => screen.getAllByRole('button').map((b) => b.querySelector('.mention-picker__name')?.textContent);
    expect(names()).toEqual(['Bob', 'Carol']);
    rerender(
      <I18nextProvider i18n={createI18n('en-US')}>
        <MentionPicker members={members} query="car" me="1" canMentionAll onPick={onPick} />
      </I18nextProvider>,
    );
    expect(names()).toEqual(['Carol']);
    rerender(
      <I18nextProvider i18n={createI18n('en-US')}>
        <MentionPicker members={members} query="" me="1" canMentionAll onPick={onPick} />
      </I18nextProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: '@all' }));
    expect(onPick).toHaveBeenCalledWith({ userID: 'AtAllTag', name: 'all' });
    await userEvent.click(screen.getByRole('button', { name: 'Bob' }));
    expect(onPick).toHaveBeenLastCalledWith({ userID: '2', name: 'Bob' });
  });

  it('says so when nobody matches', () => {
    withI18n(<MentionPicker members={members} query="zed" me="1" canMentionAll={false} onPick={vi.fn()} />);
    expect(screen.getByRole('status').textContent).toBe('No member matches');
  });
});

describe('AtTextContent', () => {
  it('highlights the names mentioned, the reader\'s own apart', () => {
    withI18n(
      <AtTextContent
        me="2"
        elem={{
          text: '@Bob and @Carol, lunch?',
          atUserList: ['2', '3'],
          atUsersInfo: [
            { atUserID: '2', groupNickname: 'Bob' },
            { atUserID: '3', groupNickname: 'Carol' },
          ],
          isAtSelf: false,
        }}
      />,
    );
    const marks = screen.getAllByTestId('mention');
    expect(marks.map((m) => [m.textContent, m.className])).toEqual([
      ['@Bob', 'msg-mention msg-mention--self'],
      ['@Carol', 'msg-mention'],
    ]);
  });
});
