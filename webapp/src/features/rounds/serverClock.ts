/**
 * The server's clock as seen from the phone. Countdowns run to deadlines the server set, so
 * they must not trust the phone's clock, which may be minutes or hours off — or be changed
 * while the page is open. Local time is therefore the monotonic `performance.now()`, never
 * `Date.now()`. Every answer that carries `serverTime` gives one sample: offset = serverTime −
 * the local time the server most likely read its clock (the midpoint of the request). The
 * sample with the shortest round trip wins (its error is at most half the trip); samples
 * expire after a minute so a drifting device keeps up.
 */
/** Local time for the clock: monotonic milliseconds, unaffected by changes of the device's clock. */
export function monotonicNow(): number {
  return performance.now();
}

export interface ServerClock {
  /** Milliseconds since the epoch on the server's clock, now. */
  now(): number;
  /** The current estimate of server time − local (monotonic) time. */
  offset(): number;
  /** A reply that carries serverTime: `sentAt` and `receivedAt` are local (monotonic) times. */
  sample(serverTime: number, sentAt: number, receivedAt: number): void;
  /** A push: the server's time when it sent, received at local (monotonic) `receivedAt`. */
  samplePush(serverTime: number, receivedAt: number): void;
  subscribe(listener: () => void): () => void;
}

const SAMPLE_LIFETIME_MS = 60_000;
/** Pushes travel one way; count them as a trip of this length so a quick reply wins over them. */
const PUSH_UNCERTAINTY_MS = 250;

export function createServerClock(
  localNow: () => number = monotonicNow,
  /** Before the first sample the device's clock is all there is. */
  wallNow: () => number = () => Date.now(),
): ServerClock {
  let best: { offset: number; uncertainty: number; at: number } | null = null;
  const listeners = new Set<() => void>();

  function consider(offset: number, uncertainty: number, at: number): void {
    if (!Number.isFinite(offset)) return;
    const expired = best !== null && at - best.at > SAMPLE_LIFETIME_MS;
    // A jump of more than the combined error means the server's clock moved: take it.
    const jumped = best !== null && Math.abs(offset - best.offset) > best.uncertainty + uncertainty + 1_000;
    if (best === null || expired || jumped || uncertainty <= best.uncertainty) {
      const changed = best?.offset !== offset;
      best = { offset, uncertainty, at };
      if (changed) for (const listener of [...listeners]) listener();
    }
  }

  return {
    now: () => (best ? localNow() + best.offset : wallNow()),
    offset: () => (best ? best.offset : wallNow() - localNow()),
    sample(serverTime, sentAt, receivedAt) {
      if (!Number.isFinite(serverTime) || serverTime <= 0) return;
      const trip = Math.max(0, receivedAt - sentAt);
      consider(serverTime - (sentAt + trip / 2), trip / 2, receivedAt);
    },
    samplePush(serverTime, receivedAt) {
      if (!Number.isFinite(serverTime) || serverTime <= 0) return;
      consider(serverTime - receivedAt, PUSH_UNCERTAINTY_MS, receivedAt);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The app's estimate, shared by every countdown. */
export const serverClock: ServerClock = createServerClock();

/** Runs `call` and feeds the answer's serverTime to the clock. */
export async function timed<T extends { serverTime: number }>(
  call: () => Promise<T>,
  clock: ServerClock = serverClock,
  localNow: () => number = monotonicNow,
): Promise<T> {
  const sentAt = localNow();
  const data = await call();
  clock.sample(data.serverTime, sentAt, localNow());
  return data;
}
