import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n';
import { formatDateTime, formatTimeAgo, toEpochMs } from './timeAgo';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = new Date(2025, 5, 15, 12, 0, 0).getTime();

describe('formatTimeAgo', () => {
  const en = createI18n('en-US').t;
  const zh = createI18n('zh-CN').t;

  it("says 'just now' under five minutes, and for times slightly in the future", () => {
    expect(formatTimeAgo(now, en, now)).toBe('Just now');
    expect(formatTimeAgo(now - 4 * MINUTE - 59_000, en, now)).toBe('Just now');
    expect(formatTimeAgo(now + 30_000, en, now)).toBe('Just now');
    expect(formatTimeAgo(now - MINUTE, zh, now)).toBe('刚刚');
  });

  it('counts minutes, hours and days with plural forms', () => {
    expect(formatTimeAgo(now - 5 * MINUTE, en, now)).toBe('5 minutes ago');
    expect(formatTimeAgo(now - 59 * MINUTE, en, now)).toBe('59 minutes ago');
    expect(formatTimeAgo(now - HOUR, en, now)).toBe('1 hour ago');
    expect(formatTimeAgo(now - 23 * HOUR, en, now)).toBe('23 hours ago');
    expect(formatTimeAgo(now - DAY, en, now)).toBe('1 day ago');
    expect(formatTimeAgo(now - 30 * DAY, en, now)).toBe('30 days ago');
    expect(formatTimeAgo(now - 3 * DAY, zh, now)).toBe('3 天前');
    expect(formatTimeAgo(now - 2 * HOUR, createI18n('es-ES').t, now)).toBe('Hace 2 horas');
  });

  it('shows the localised date after 30 days', () => {
    const at = new Date(2025, 0, 2, 3, 4).getTime();
    expect(formatTimeAgo(at, en, now)).toBe('2025-01-02 03:04');
    expect(formatTimeAgo(at, zh, now)).toBe('2025年01月02日 03:04');
    expect(formatTimeAgo(at, createI18n('vi-VN').t, now)).toBe('02/01/2025 03:04');
  });

  it('accepts seconds, milliseconds and date strings', () => {
    const ms = new Date(2025, 0, 2, 3, 4).getTime();
    expect(toEpochMs(ms / 1000)).toBe(ms);
    expect(toEpochMs(ms)).toBe(ms);
    expect(toEpochMs(String(ms / 1000))).toBe(ms);
    expect(toEpochMs('2025-01-02 03:04:00')).toBe(ms);
    expect(formatDateTime('not a date', en)).toBe('');
    expect(formatTimeAgo('not a date', en, now)).toBe('');
  });
});
