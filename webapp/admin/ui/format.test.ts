import { describe, expect, it } from 'vitest';
import { money } from './format';

describe('money', () => {
  it('shows cents as points with two decimals and thousands', () => {
    expect(money(0)).toBe('0.00');
    expect(money(5)).toBe('0.05');
    expect(money(-12345)).toBe('-123.45');
    expect(money(100_000_000)).toBe('1,000,000.00');
  });
});
