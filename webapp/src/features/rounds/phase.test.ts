import { describe, expect, it } from 'vitest';
import type { Round } from '../../api/rounds';
import { formatCountdown, phaseAt, refetchDelay } from './phase';

const round: Round = {
  windowId: 1,
  issue: '20260301000100001',
  phase: 'betting',
  deadline: 70_000,
  startsAt: 10_000,
  bettingEndsAt: 70_000,
  drawingEndsAt: 80_000,
  restEndsAt: 100_000,
  seedHash: 'h',
  odds: '1.98',
  oddsBp: 19800,
  minBet: 100,
  maxBet: 1_000_000,
  ordersCount: 0,
  totalPoints: 0,
};

describe('phaseAt', () => {
  it('follows the stored deadlines without waiting for the server', () => {
    expect(phaseAt(round, 9_999)).toEqual({ phase: 'upcoming', deadline: 10_000, length: 0 });
    expect(phaseAt(round, 10_000)).toEqual({ phase: 'betting', deadline: 70_000, length: 60_000 });
    expect(phaseAt(round, 69_999).phase).toBe('betting');
    expect(phaseAt(round, 70_000)).toEqual({ phase: 'drawing', deadline: 80_000, length: 10_000 });
    expect(phaseAt(round, 80_000)).toEqual({ phase: 'rest', deadline: 100_000, length: 20_000 });
    expect(phaseAt(round, 100_000).phase).toBe('next');
  });

  it('keeps a round the server still calls upcoming upcoming', () => {
    expect(phaseAt({ ...round, phase: 'upcoming' }, 50_000).phase).toBe('upcoming');
  });
});

describe('formatCountdown', () => {
  it('rounds up to whole seconds, 00:00 only when over', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5_000)).toBe('00:00');
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(59_001)).toBe('01:00');
    expect(formatCountdown(600_000)).toBe('10:00');
    expect(formatCountdown(6_000_000)).toBe('100:00');
  });
});

describe('refetchDelay', () => {
  it('asks again just after the deadline, soon when it is overdue, at least every 15 s', () => {
    expect(refetchDelay(10_000, 9_000)).toBe(1_150);
    expect(refetchDelay(10_000, 10_000)).toBe(600);
    expect(refetchDelay(100_000, 0)).toBe(15_000);
    expect(refetchDelay(null, 0)).toBe(5_000);
  });
});
