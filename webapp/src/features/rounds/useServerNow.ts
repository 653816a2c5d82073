import { useEffect, useState } from 'react';
import { serverClock, type ServerClock } from './serverClock';

/** The server's time (see serverClock), re-rendered every `intervalMs`. */
export function useServerNow(intervalMs = 250, clock: ServerClock = serverClock): number {
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const update = (): void => {
      setNow(clock.now());
    };
    const timer = setInterval(update, intervalMs);
    const unsubscribe = clock.subscribe(update);
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, [intervalMs, clock]);
  return now;
}
