import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../format/amount';
import { checkBet, chipValues } from './betAmount';

describe('checkBet', () => {
  const base = { content: 'BIG' as const, amount: parseAmount('10'), minBet: 500, maxBet: 5000, balance: 2000, bettingOpen: true };

  it('accepts a bet within the rules', () => {
    expect(checkBet(base)).toBeNull();
    expect(checkBet({ ...base, amount: parseAmount('5') })).toBeNull();
    expect(checkBet({ ...base, amount: parseAmount('20') })).toBeNull();
    expect(checkBet({ ...base, balance: null })).toBeNull();
  });

  it('reports the first broken rule, in the order', () => {
    expect(checkBet({ ...base, bettingOpen: false })).toEqual({ kind: 'closed' });
    expect(checkBet({ ...base, content: null })).toEqual({ kind: 'content' });
    expect(checkBet({ ...base, amount: parseAmount('') })).toEqual({ kind: 'amount', problem: 'required' });
    expect(checkBet({ ...base, amount: parseAmount('12.345') })).toEqual({ kind: 'amount', problem: 'decimals' });
    expect(checkBet({ ...base, amount: parseAmount('12a') })).toEqual({ kind: 'amount', problem: 'notNumber' });
    expect(checkBet({ ...base, amount: parseAmount('4.99') })).toEqual({ kind: 'min', min: 500 });
    expect(checkBet({ ...base, amount: parseAmount('50.01') })).toEqual({ kind: 'max', max: 5000 });
    expect(checkBet({ ...base, amount: parseAmount('30'), maxBet: 10000 })).toEqual({ kind: 'balance' });
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
