import { describe, expect, it } from 'vitest';
import { tickStep } from './Chart';

describe('tickStep', () => {
  it('is a whole 1, 2 or 5 × 10^n, never below 1, about four ticks over the range', () => {
    expect(tickStep(1)).toBe(1); // counts 0..1: 0, 1 — not 0, 0, 1, 1, 1
    expect(tickStep(3)).toBe(1);
    expect(tickStep(7)).toBe(2);
    expect(tickStep(17)).toBe(5);
    expect(tickStep(40)).toBe(10);
    expect(tickStep(120_000)).toBe(50_000);
  });
});
