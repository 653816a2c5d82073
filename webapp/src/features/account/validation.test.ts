import { describe, expect, it } from 'vitest';
import {
  characterCount,
  checkAccount,
  checkCardNumber,
  checkConfirmation,
  checkFundPassword,
  checkInviteCode,
  checkNickname,
  checkPassword,
  checkPhone,
  checkSmsCode,
  digitsOnly,
  isInviteCode,
} from './validation';

describe('password rules', () => {
  it('checks length first, then digits, then letters', () => {
    expect(checkPassword('')).toBe('validation.passwordRequired');
    expect(checkPassword('ab1')).toBe('validation.passwordLength');
    expect(checkPassword('a1'.repeat(11))).toBe('validation.passwordLength');
    expect(checkPassword('abcdefg')).toBe('validation.passwordNoDigit');
    expect(checkPassword('1234567')).toBe('validation.passwordNoLetter');
    expect(checkPassword('abc 123')).toBe('validation.passwordChars');
    expect(checkPassword('abc123')).toBeNull();
    expect(checkPassword('A1!@#$%^&*()_+-=[]{}')).toBeNull();
  });

  it("says 'Two passwords are inconsistent' for a different confirmation", () => {
    expect(checkConfirmation('abc123', '')).toBe('validation.confirmRequired');
    expect(checkConfirmation('abc123', 'abc124')).toBe('validation.passwordMismatch');
    expect(checkConfirmation('abc123', 'abc123')).toBeNull();
  });
});

describe('other fields', () => {
  it('accounts are 4-20 letters, digits or underscores', () => {
    expect(checkAccount('abc')).toBe('validation.accountRule');
    expect(checkAccount('ab-cd')).toBe('validation.accountRule');
    expect(checkAccount('a_b_9')).toBeNull();
  });

  it('fund passwords are exactly six digits', () => {
    expect(checkFundPassword('')).toBe('validation.fundPasswordRequired');
    expect(checkFundPassword('12345')).toBe('validation.fundPasswordRule');
    expect(checkFundPassword('12345a')).toBe('validation.fundPasswordRule');
    expect(checkFundPassword('012345')).toBeNull();
  });

  it('nicknames count characters as people do, up to 10', () => {
    expect(characterCount('😀😀')).toBe(2);
    expect(checkNickname('   ')).toBe('validation.nicknameRequired');
    expect(checkNickname('一二三四五六七八九十')).toBeNull();
    expect(checkNickname('一二三四五六七八九十一')).toBe('validation.nicknameLength');
    expect(checkNickname(' 😀😀😀😀😀😀😀😀😀😀 ')).toBeNull();
  });

  it('phones are 6-11 digits; SMS codes 6 digits; cards 12-19 digits', () => {
    expect(checkPhone('12345')).toBe('validation.phoneRule');
    expect(checkPhone('123456789012')).toBe('validation.phoneRule');
    expect(checkPhone('13800138000')).toBeNull();
    expect(checkSmsCode('12345')).toBe('validation.smsCodeRule');
    expect(checkSmsCode('123456')).toBeNull();
    expect(checkCardNumber('12345678901')).toBe('validation.cardNumberRule');
    expect(checkCardNumber('6222020200112233445')).toBeNull();
  });

  it('invite codes start with pro_ and are optional unless required', () => {
    expect(checkInviteCode('', false)).toBeNull();
    expect(checkInviteCode('', true)).toBe('validation.inviteRequired');
    expect(checkInviteCode('abc', false)).toBe('validation.inviteRule');
    expect(checkInviteCode('pro_abc12345', true)).toBeNull();
    expect(isInviteCode('pro_')).toBe(false);
    expect(isInviteCode('pro_x')).toBe(true);
    expect(isInviteCode(null)).toBe(false);
  });
});

describe('numeric input', () => {
  it('keeps digits only', () => {
    expect(digitsOnly('138 0013-8000')).toBe('13800138000');
  });
});
