import { useSyncExternalStore } from 'react';

/** How long a typing notice (contentType 113) shows after it arrives. */
export const TYPING_SHOWN_MS = 5_000;

const until = new Map<string, number>();
const listeners = new Set<() => void>();
let version = 0;

function notify(): void {
  version += 1;
  for (const listener of listeners) listener();
}

/** The peer of `conversationID` is typing: shown for 5 s unless another notice extends it. */
export function markTyping(conversationID: string, now: number = Date.now()): void {
  until.set(conversationID, now + TYPING_SHOWN_MS);
  notify();
  setTimeout(() => {
    if ((until.get(conversationID) ?? 0) <= Date.now()) {
      until.delete(conversationID);
      notify();
    }
  }, TYPING_SHOWN_MS + 50);
}

/** A message from the peer ends the typing notice. */
export function clearTyping(conversationID: string): void {
  if (until.delete(conversationID)) notify();
}

export function isTyping(conversationID: string, now: number = Date.now()): boolean {
  return (until.get(conversationID) ?? 0) > now;
}

export function useTyping(conversationID: string): boolean {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    () => version,
  );
  return isTyping(conversationID);
}
