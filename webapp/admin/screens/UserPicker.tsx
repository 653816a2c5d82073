/**
 * Picks a user by searching any part of the account or nickname (the console's user search), for
 * forms that name a user (a video's chat user). The value is the user id ('0' or '' for none);
 * the picked user shows by account and nickname, never as a raw id.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import type { AdminUser, Page, UserDetail } from '../api/types';
import { useT } from '../i18n/useT';
import { Button, ui } from '../ui/kit';
import css from './screens.module.css';

export function UserPicker({ value, onChange }: { value: string; onChange: (userId: string) => void }) {
  const { t } = useT();
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<AdminUser | null>(null);
  const chosen = value && value !== '0' ? value : '';
  // A user already set (an existing video) is shown by account.
  const current = useQuery({
    queryKey: ['user', chosen],
    queryFn: () => api<UserDetail>('/admin/user/detail', { userId: chosen }),
    enabled: chosen !== '' && picked?.userId !== chosen,
  });
  const found = useQuery({
    queryKey: ['user-picker', keyword.trim()],
    queryFn: () => api<Page<AdminUser>>('/admin/users', { keyword: keyword.trim(), page: 1, pageSize: 6 }),
    enabled: keyword.trim().length > 0,
  });
  const shown = picked?.userId === chosen ? picked : current.data?.user;
  return (
    <div className={css.stack} data-testid="user-picker">
      <div className={ui.toolbar}>
        <span data-testid="user-picked">{chosen ? (shown ? `${shown.account}${shown.nickName ? ` · ${shown.nickName}` : ''}` : '…') : t('content.noChatUser')}</span>
        {chosen && (
          <Button small onClick={() => { onChange('0'); setPicked(null); }}>
            {t('content.clearChatUser')}
          </Button>
        )}
      </div>
      <input
        className={ui.input}
        type="search"
        name="userPickerSearch"
        placeholder={t('content.findChatUser')}
        aria-label={t('content.findChatUser')}
        value={keyword}
        onChange={(e) => { setKeyword(e.target.value); }}
      />
      {keyword.trim() && found.data && (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 6 }} role="listbox" aria-label={t('content.findChatUser')}>
          {found.data.list.length === 0 && <li className={ui.muted}>{t('common.empty')}</li>}
          {found.data.list.map((u) => (
            <li key={u.userId}>
              <Button
                small
                role="option"
                aria-selected={u.userId === chosen}
                onClick={() => {
                  setPicked(u);
                  onChange(u.userId);
                  setKeyword('');
                }}
              >
                {u.account}
                {u.nickName ? ` · ${u.nickName}` : ''}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
