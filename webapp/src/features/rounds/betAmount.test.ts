import { describe, expect, it } from 'vitest';
import { checkBet, chipValues, pointsToCents, sanitizeDigits } from './betAmount';

describe('sanitizeDigits', () => {
  it.each([
    ['00x12a', '12'],
    ['1 000', '1000'],
    ['000', ''],
    ['-5.50', '550'],
    ['١٢', ''], // only ASCII digits are digits here
    ['', ''],
  ])('strips non-digits and leading zeros: %j keeps %j', (typed, kept) => {
    expect(sanitizeDigits(typed)).toBe(kept);
  });
});

describe('pointsToCents', () => {
  it('turns whole points into cents', () => {
    expect(pointsToCents('')).toBeNull();
    expect(pointsToCents('12')).toBe(1200);
    expect(pointsToCents('99999999999999999999')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('checkBet', () => {
  const base = { content: 'BIG' as const, amountCents: 1000, minBet: 500, maxBet: 5000, balance: 2000, bettingOpen: true };

  it('accepts a bet within the rules', () => {
    expect(checkBet(base)).toBeNull();
    expect(checkBet({ ...base, amountCents: 500 })).toBeNull();
    expect(checkBet({ ...base, amountCents: 2000 })).toBeNull();
    expect(checkBet({ ...base, balance: null })).toBeNull();
  });

  it('reports the first broken rule, in the order', () => {
    expect(checkBet({ ...base, bettingOpen: false })).toEqual({ kind: 'closed' });
    expect(checkBet({ ...base, content: null })).toEqual({ kind: 'content' });
    expect(checkBet({ ...base, amountCents: null })).toEqual({ kind: 'amount' });
    expect(checkBet({ ...base, amountCents: 499 })).toEqual({ kind: 'min', min: 500 });
    expect(checkBet({ ...base, amountCents: 5001 })).toEqual({ kind: 'max', max: 5000 });
    expect(checkBet({ ...base, amountCents: 3000, maxBet: 10000 })).toEqual({ kind: 'balance' });
  });
});

describe('chipValues', () => {
  it('offers only chips within the limits', () => {
    expect(chipValues(100, 1_000_000)).toEqual([10, 50, 100, 500, 1000]);
    expect(chipValues(500, 5000)).toEqual([10, 50]);
    expect(chipValues(100_000, 200_000)).toEqual([1000]);
  });

  it('offers the minimum when no chip fits', () => {
    expect(chipValues(150, 300)).toEqual([2]);
  });
});
