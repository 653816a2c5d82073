import type { TFunction } from 'i18next';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Server times may come as seconds or milliseconds since the epoch, or as a date string. */
export function toEpochMs(time: number | string | Date): number {
  if (time instanceof Date) return time.getTime();
  if (typeof time === 'number') return time < 1e11 ? time * 1000 : time;
  const numeric = Number(time);
  if (time.trim() !== '' && Number.isFinite(numeric)) return toEpochMs(numeric);
  // "2024-05-01 12:30:00" is not ISO in every engine; make it so.
  return new Date(time.includes('T') ? time : time.replace(' ', 'T')).getTime();
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The locale's date pattern (zh: yyyy年mm月dd日 hh:MM) in local time. */
export function formatDateTime(time: number | string | Date, t: TFunction): string {
  const date = new Date(toEpochMs(time));
  if (Number.isNaN(date.getTime())) return '';
  return t('time.date', {
    yyyy: String(date.getFullYear()),
    mm: pad(date.getMonth() + 1),
    dd: pad(date.getDate()),
    hh: pad(date.getHours()),
    MM: pad(date.getMinutes()),
  });
}

/**
 * Spec section 9: under 5 minutes "just now", then minutes, hours, days up to 30 days,
 * then the date. Times in the future (clock skew) count as just now.
 */
export function formatTimeAgo(time: number | string | Date, t: TFunction, now: number = Date.now()): string {
  const at = toEpochMs(time);
  if (Number.isNaN(at)) return '';
  const diff = now - at;
  if (diff < 5 * MINUTE) return t('time.justNow');
  if (diff < HOUR) return t('time.minutesAgo', { count: Math.floor(diff / MINUTE) });
  if (diff < DAY) return t('time.hoursAgo', { count: Math.floor(diff / HOUR) });
  if (diff <= 30 * DAY) return t('time.daysAgo', { count: Math.floor(diff / DAY) });
  return formatDateTime(at, t);
}
