/**
 * The statistics beacon (`/zztj`): the events the operators' statistics count. Best effort —
 * one attempt, no toast; a lost count never bothers the user.
 */
import { platformApi, type BeaconEvent } from '../../api/app';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from '../../api/storage';

/**
 * Beacons one browser sends a minute at most, over all its tabs and launches: the server
 * refuses more than 120 a minute per address, and a refusal is an error in the console.
 */
export const BEACONS_PER_MINUTE = 30;

/** Distinct pages counted per launch at most. */
const PAGE_LIMIT = 40;
const countedPages = new Set<string>();

/** Takes one beacon from the browser's allowance; false when this minute's is used up. */
export function takeBeacon(store: KeyValueStore = browserStore, now: number = Date.now()): boolean {
  let times: number[] = [];
  try {
    const parsed: unknown = JSON.parse(store.get(STORAGE_KEYS.beaconTimes) ?? '[]');
    if (Array.isArray(parsed)) times = parsed.filter((v): v is number => typeof v === 'number' && v > now - 60_000 && v <= now);
  } catch {
    times = [];
  }
  if (times.length >= BEACONS_PER_MINUTE) return false;
  times.push(now);
  store.set(STORAGE_KEYS.beaconTimes, JSON.stringify(times));
  return true;
}

export function countEvent(event: BeaconEvent): void {
  if (!takeBeacon()) return;
  platformApi.beacon(event).catch(() => undefined);
}

/** Counts a page view the first time this launch opens `pathname`. */
export function countPage(pathname: string): void {
  if (countedPages.has(pathname) || countedPages.size >= PAGE_LIMIT) return;
  countedPages.add(pathname);
  countEvent('page');
}
