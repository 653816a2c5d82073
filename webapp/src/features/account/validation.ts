/**
 * Client-side checks, run before a form calls the server. Each returns the
 * translation key of the message to show, or null when the value passes. The server checks
 * everything again; its message is shown when it refuses.
 */
import type { ParseKeys } from 'i18next';

export type MessageKey = ParseKeys;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const NICKNAME_MAX = 10;
export const PHONE_MIN = 6;
export const PHONE_MAX = 11;
export const FUND_PASSWORD_LENGTH = 6;
export const SMS_CODE_LENGTH = 6;
export const INVITE_PREFIX = 'pro_';

/** Characters as a person counts them (an emoji is one), for the nickname limit. */
export function characterCount(value: string): number {
  // Code points, as the server counts (Go's utf8.RuneCountInString).
  return Array.from(value).length;
}

export function checkAccount(account: string): MessageKey | null {
  if (!account) return 'validation.accountRequired';
  if (!/^[A-Za-z0-9_]{4,20}$/.test(account)) return 'validation.accountRule';
  return null;
}

/** Login password: 6-20 printable characters mixing letters and digits. */
export function checkPassword(password: string): MessageKey | null {
  if (!password) return 'validation.passwordRequired';
  const length = characterCount(password);
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return 'validation.passwordLength';
  if (!/^[\x21-\x7e]+$/.test(password)) return 'validation.passwordChars';
  if (!/[0-9]/.test(password)) return 'validation.passwordNoDigit';
  if (!/[A-Za-z]/.test(password)) return 'validation.passwordNoLetter';
  return null;
}

export function checkConfirmation(password: string, confirm: string): MessageKey | null {
  if (!confirm) return 'validation.confirmRequired';
  if (confirm !== password) return 'validation.passwordMismatch';
  return null;
}

export function checkFundPassword(value: string): MessageKey | null {
  if (!value) return 'validation.fundPasswordRequired';
  if (!/^\d{6}$/.test(value)) return 'validation.fundPasswordRule';
  return null;
}

export function checkNickname(value: string): MessageKey | null {
  const trimmed = value.trim();
  if (!trimmed) return 'validation.nicknameRequired';
  if (characterCount(trimmed) > NICKNAME_MAX) return 'validation.nicknameLength';
  return null;
}

export function checkPhone(value: string): MessageKey | null {
  if (!value) return 'validation.phoneRequired';
  if (!/^\d+$/.test(value) || value.length < PHONE_MIN || value.length > PHONE_MAX) return 'validation.phoneRule';
  return null;
}

export function checkSmsCode(value: string): MessageKey | null {
  if (!value) return 'validation.smsCodeRequired';
  if (!/^\d{6}$/.test(value)) return 'validation.smsCodeRule';
  return null;
}

/** An invite code is optional unless the server requires one; when given it starts with pro_. */
export function checkInviteCode(value: string, required: boolean): MessageKey | null {
  if (!value) return required ? 'validation.inviteRequired' : null;
  if (!value.startsWith(INVITE_PREFIX)) return 'validation.inviteRule';
  return null;
}

export function isInviteCode(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.startsWith(INVITE_PREFIX) && value.length > INVITE_PREFIX.length && value.length <= 64;
}

/** Keeps only the digits of what was typed (phone, codes, passwords of digits, card numbers). */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

export function checkCardNumber(value: string): MessageKey | null {
  if (!value) return 'validation.cardNumberRequired';
  if (!/^\d{12,19}$/.test(value)) return 'validation.cardNumberRule';
  return null;
}
