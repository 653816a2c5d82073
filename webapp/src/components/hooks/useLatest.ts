import { useEffect, useRef, type RefObject } from 'react';

/** A ref that always holds the latest value: effects read it without re-running. */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}
