import { describe, expect, it } from 'vitest';
import { needsConfirmation, readLastBet, readLastPlay, readThreshold, storedPlay } from './betMemory';

describe('bet memory', () => {
  it('reads back only a well-formed last bet', () => {
    expect(readLastBet({ content: 'BIG', cents: 1250 })).toEqual({ content: 'BIG', cents: 1250 });
    expect(readLastBet({ content: 'BIG', cents: 12.5 })).toBeNull();
    // Kept in whole points before amounts took decimals.
    expect(readLastBet({ content: 'BIG', points: 50 })).toEqual({ content: 'BIG', cents: 5000 });
    expect(readLastBet({ content: 'HUGE', points: 50 })).toBeNull();
    expect(readLastBet({ content: 'SMALL', points: 0 })).toBeNull();
    expect(readLastBet({ content: 'SMALL', points: 1.5 })).toBeNull();
    expect(readLastBet('BIG')).toBeNull();
    expect(readLastBet(null)).toBeNull();
  });

  it('reads back a last slip whole, or nothing', () => {
    const slip = [
      { content: 'BIG', cents: 1000 },
      { content: 'SINGLE', cents: 500 },
    ] as const;
    expect(readLastPlay(storedPlay(slip))).toEqual(slip);
    expect(readLastPlay(storedPlay([{ content: 'DOUBLE', cents: 700 }]))).toEqual([{ content: 'DOUBLE', cents: 700 }]);
    expect(storedPlay([{ content: 'DOUBLE', cents: 700 }])).toEqual({ content: 'DOUBLE', cents: 700 });
    expect(readLastPlay({ selections: [{ content: 'BIG', cents: 1000 }] })).toBeNull(); // a slip has two or more
    expect(readLastPlay({ selections: [{ content: 'BIG', cents: 1000 }, { content: 'BIG', cents: 500 }] })).toBeNull();
    expect(readLastPlay({ selections: [{ content: 'BIG', cents: 1000 }, { content: 'SMALL', cents: -1 }] })).toBeNull();
    expect(readLastPlay({ selections: 'BIG' })).toBeNull();
    expect(readLastPlay(null)).toBeNull();
  });

  it('asks for confirmation only above a threshold that is set', () => {
    expect(needsConfirmation(50_000, 0)).toBe(false);
    expect(needsConfirmation(50_000, 50_000)).toBe(false);
    expect(needsConfirmation(50_001, 50_000)).toBe(true);
    expect(readThreshold({ cents: 1250 })).toBe(1250);
    expect(readThreshold(200)).toBe(20_000); // whole points, as kept before
    expect(readThreshold(2.5)).toBe(0);
    expect(readThreshold(-3)).toBe(0);
    expect(readThreshold('200')).toBe(0);
  });
});
