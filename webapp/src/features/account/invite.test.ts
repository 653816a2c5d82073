import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { captureInviteCode, storedSuperior } from './invite';

describe('captureInviteCode', () => {
  it('keeps a pro_ code from the launch URL as the superior', () => {
    expect(captureInviteCode('?inviteCode=pro_abc12345&x=1')).toBe('pro_abc12345');
    expect(window.localStorage.getItem(STORAGE_KEYS.superior)).toBe('pro_abc12345');
    expect(storedSuperior()).toBe('pro_abc12345');
  });

  it('never replaces a stored superior', () => {
    window.localStorage.setItem(STORAGE_KEYS.superior, 'pro_first000');
    expect(captureInviteCode('?inviteCode=pro_second00')).toBe('pro_first000');
    expect(window.localStorage.getItem(STORAGE_KEYS.superior)).toBe('pro_first000');
  });

  it('ignores codes that do not start with pro_', () => {
    expect(captureInviteCode('?inviteCode=abc')).toBeNull();
    expect(captureInviteCode('')).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.superior)).toBeNull();
  });
});
