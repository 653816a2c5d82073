import { describe, expect, it } from 'vitest';
import { needsConfirmation, readLastBet, readThreshold } from './betMemory';

describe('bet memory', () => {
  it('reads back only a well-formed last bet', () => {
    expect(readLastBet({ content: 'BIG', points: 50 })).toEqual({ content: 'BIG', points: 50 });
    expect(readLastBet({ content: 'HUGE', points: 50 })).toBeNull();
    expect(readLastBet({ content: 'SMALL', points: 0 })).toBeNull();
    expect(readLastBet({ content: 'SMALL', points: 1.5 })).toBeNull();
    expect(readLastBet('BIG')).toBeNull();
    expect(readLastBet(null)).toBeNull();
  });

  it('asks for confirmation only above a threshold that is set', () => {
    expect(needsConfirmation(50_000, 0)).toBe(false);
    expect(needsConfirmation(50_000, 500)).toBe(false);
    expect(needsConfirmation(50_001, 500)).toBe(true);
    expect(readThreshold(200)).toBe(200);
    expect(readThreshold(-3)).toBe(0);
    expect(readThreshold('200')).toBe(0);
  });
});
