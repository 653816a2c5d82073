import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec section 9: buttons that submit ignore a second tap within 500 ms. */
export const SUBMIT_THROTTLE_MS = 500;

export interface SubmitThrottle {
  /** True when a request may go out now; starts the 500 ms window. */
  gate: () => boolean;
  /** Within the window: the submit button shows as disabled, so a tap visibly does nothing. */
  blocked: boolean;
}

export function useSubmitThrottle(ms: number = SUBMIT_THROTTLE_MS): SubmitThrottle {
  const [blocked, setBlocked] = useState(false);
  const busy = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
    },
    [],
  );
  const gate = useCallback(() => {
    if (busy.current) return false;
    busy.current = true;
    setBlocked(true);
    timer.current = window.setTimeout(() => {
      busy.current = false;
      setBlocked(false);
    }, ms);
    return true;
  }, [ms]);
  return { gate, blocked };
}
