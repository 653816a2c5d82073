import { useEffect, useState } from 'react';

/** What of a media element a source swap touches (an HTMLMediaElement; a stand-in in tests). */
export interface SwappableMedia {
  src: string;
  currentTime: number;
  readonly paused: boolean;
  readonly ended: boolean;
  play(): Promise<void>;
}

/**
 * Points `el` at `src` and, when it was part-way through, goes on from the same moment: a
 * renewed signed link (links live 5 to 10 minutes) must not send a playing video back to its
 * start, nor leave it on a link that stops answering its next range request.
 */
export function swapSource(el: SwappableMedia, src: string | undefined): void {
  if (!src) return;
  if (!el.src) {
    el.src = src;
    return;
  }
  if (el.src === src) return;
  const time = el.currentTime;
  const playing = !el.paused && !el.ended;
  el.src = src;
  // Before the new source's metadata this sets where it starts (HTML's default playback start position).
  if (time > 0) el.currentTime = time;
  if (playing) void el.play().catch(() => undefined);
}

/**
 * A ref for a `<video>` or `<audio>` whose source is `src`: set here rather than as a `src` prop,
 * so a renewed link swaps in without a restart.
 */
export function useMediaSource(src: string | undefined): (el: HTMLMediaElement | null) => void {
  const [element, setElement] = useState<HTMLMediaElement | null>(null);
  // `el.src` reads back absolute: compare like with like.
  const absolute = src ? new URL(src, window.location.href).href : undefined;
  useEffect(() => {
    if (element) swapSource(element, absolute);
  }, [element, absolute]);
  return setElement;
}
