import { describe, expect, it, vi } from 'vitest';
import { swapSource, type SwappableMedia } from './useMediaSource';

/** A stand-in media element, and the spy its play() calls. */
function media(state: Partial<Omit<SwappableMedia, 'play'>> = {}) {
  const play = vi.fn(() => Promise.resolve());
  const el: SwappableMedia = { src: '', currentTime: 0, paused: true, ended: false, play, ...state };
  return { el, play };
}

describe('swapSource', () => {
  it('sets the first source and leaves an unchanged one alone', () => {
    const { el, play } = media();
    swapSource(el, undefined);
    expect(el.src).toBe('');
    swapSource(el, 'https://kj.test/files/chat/a.mp4?e=1');
    expect(el.src).toBe('https://kj.test/files/chat/a.mp4?e=1');
    el.currentTime = 12;
    swapSource(el, 'https://kj.test/files/chat/a.mp4?e=1');
    expect(el.currentTime).toBe(12);
    expect(play).not.toHaveBeenCalled();
  });

  it('a renewed link takes over a playing video at the same moment, still playing', () => {
    const { el, play } = media({ src: 'https://kj.test/files/chat/a.mp4?e=1', currentTime: 95.5, paused: false });
    swapSource(el, 'https://kj.test/files/chat/a.mp4?e=2');
    expect(el.src).toBe('https://kj.test/files/chat/a.mp4?e=2');
    expect(el.currentTime).toBe(95.5);
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('a paused video keeps its place and stays paused', () => {
    const { el, play } = media({ src: 'https://kj.test/files/chat/a.mp4?e=1', currentTime: 30 });
    swapSource(el, 'https://kj.test/files/chat/a.mp4?e=2');
    expect(el.currentTime).toBe(30);
    expect(play).not.toHaveBeenCalled();
  });
});
