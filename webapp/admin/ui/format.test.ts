import { describe, expect, it } from 'vitest';
import { money, parseMoney } from './format';

describe('money', () => {
  it('shows cents as points with two decimals and thousands', () => {
    expect(money(0)).toBe('0.00');
    expect(money(5)).toBe('0.05');
    expect(money(-12345)).toBe('-123.45');
    expect(money(100_000_000)).toBe('1,000,000.00');
  });
});

describe('parseMoney', () => {
  it('reads points into cents exactly', () => {
    expect(parseMoney('12.3')).toBe(1230);
    expect(parseMoney(' 10000 ')).toBe(1_000_000);
    expect(parseMoney('0.07')).toBe(7);
  });
  it('refuses anything that is not a plain amount', () => {
    for (const bad of ['', 'abc', '1.234', '-1', '1e3', '1,000']) expect(parseMoney(bad)).toBeNull();
  });
});
