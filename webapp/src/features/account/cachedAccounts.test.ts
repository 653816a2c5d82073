import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { forgetAccount, MAX_CACHED_ACCOUNTS, readCachedAccounts, rememberAccount } from './cachedAccounts';

const account = (id: string) => ({ id, username: `user${id}`, nickName: `N${id}`, avatar: '' });

describe('cacheAccount', () => {
  it('puts the latest account first without duplicates', () => {
    rememberAccount(account('1'));
    rememberAccount(account('2'));
    rememberAccount({ ...account('1'), nickName: 'renamed' });
    expect(readCachedAccounts().map((a) => [a.id, a.nickName])).toEqual([
      ['1', 'renamed'],
      ['2', 'N2'],
    ]);
  });

  it(`keeps at most ${MAX_CACHED_ACCOUNTS}`, () => {
    for (let i = 0; i < MAX_CACHED_ACCOUNTS + 3; i += 1) rememberAccount(account(String(i)));
    const list = readCachedAccounts();
    expect(list).toHaveLength(MAX_CACHED_ACCOUNTS);
    expect(list[0]?.id).toBe(String(MAX_CACHED_ACCOUNTS + 2));
  });

  it('survives a corrupt or foreign value and drops bad entries', () => {
    window.localStorage.setItem(STORAGE_KEYS.cacheAccount, '{not json');
    expect(readCachedAccounts()).toEqual([]);
    window.localStorage.setItem(STORAGE_KEYS.cacheAccount, JSON.stringify([{ id: 3 }, account('4'), 'x']));
    expect(readCachedAccounts().map((a) => a.id)).toEqual(['4']);
  });

  it('forgets one account', () => {
    rememberAccount(account('1'));
    rememberAccount(account('2'));
    forgetAccount('1');
    expect(readCachedAccounts().map((a) => a.id)).toEqual(['2']);
  });
});
