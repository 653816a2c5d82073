import { useCallback, useRef } from 'react';

/** Spec section 9: buttons that submit ignore a second tap within 500 ms. */
export const SUBMIT_THROTTLE_MS = 500;

/** Returns a gate: true when a submit may go ahead, false within 500 ms of the last one. */
export function useSubmitThrottle(ms: number = SUBMIT_THROTTLE_MS): () => boolean {
  const last = useRef(-Infinity);
  return useCallback(() => {
    const now = performance.now();
    if (now - last.current < ms) return false;
    last.current = now;
    return true;
  }, [ms]);
}
