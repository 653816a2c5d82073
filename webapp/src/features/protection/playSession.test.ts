import { beforeEach, describe, expect, it } from 'vitest';
import { endPlaySession, keepPlaying, nextCheckAt, playSessionStart, playedParts } from './playSession';

describe('play session', () => {
  beforeEach(() => {
    sessionStorage.clear();
  });

  it('starts once and keeps its start across round screens', () => {
    expect(playSessionStart(1_000)).toBe(1_000);
    expect(playSessionStart(9_000)).toBe(1_000);
    endPlaySession();
    expect(playSessionStart(9_000)).toBe(9_000);
  });

  it('is due every N minutes, counted from the last answer', () => {
    const start = playSessionStart(1_000);
    expect(nextCheckAt(start, 15)).toBe(1_000 + 15 * 60_000);
    keepPlaying(1_000 + 16 * 60_000);
    expect(nextCheckAt(start, 15)).toBe(1_000 + 31 * 60_000);
  });

  it('ignores a start in the future or garbage', () => {
    sessionStorage.setItem('kj.play.start', 'later');
    expect(playSessionStart(5_000)).toBe(5_000);
    sessionStorage.setItem('kj.play.start', '99999999');
    expect(playSessionStart(6_000)).toBe(6_000);
  });

  it('writes time played in hours and minutes', () => {
    expect(playedParts(125 * 60_000 + 59_000)).toEqual({ hours: 2, minutes: 5 });
    expect(playedParts(-5)).toEqual({ hours: 0, minutes: 0 });
  });
});
