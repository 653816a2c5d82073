/**
 * The play session the reality check counts from: it starts when the player first opens a round
 * screen in this tab and ends when they choose "stop" (or close the tab). Kept in sessionStorage
 * so a reload of the round screen does not restart the count.
 */
const START_KEY = 'kj.play.start';
const CHECKED_KEY = 'kj.play.checked';

function read(storage: Storage, key: string): number | null {
  const value = Number(storage.getItem(key));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The session's start (unix ms), starting one at `now` when none runs. */
export function playSessionStart(now: number, storage: Storage = sessionStorage): number {
  const start = read(storage, START_KEY);
  if (start !== null && start <= now) return start;
  storage.setItem(START_KEY, String(now));
  storage.removeItem(CHECKED_KEY);
  return now;
}

/** When the next reality check is due: `minutes` after the last one answered, or the start. */
export function nextCheckAt(start: number, minutes: number, storage: Storage = sessionStorage): number {
  const checked = read(storage, CHECKED_KEY);
  return Math.max(start, checked ?? start) + minutes * 60_000;
}

/** "Keep playing": the next check counts from `now`. */
export function keepPlaying(now: number, storage: Storage = sessionStorage): void {
  storage.setItem(CHECKED_KEY, String(now));
}

/** "Stop": the session ends; the next round screen starts a new one. */
export function endPlaySession(storage: Storage = sessionStorage): void {
  storage.removeItem(START_KEY);
  storage.removeItem(CHECKED_KEY);
}

/** Time played as hours and minutes. */
export function playedParts(ms: number): { hours: number; minutes: number } {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}
