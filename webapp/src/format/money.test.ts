import { describe, expect, it } from 'vitest';
import { createI18n, type ProductLanguage } from '../i18n';
import { formatMoney, formatMoneyShort } from './money';

const tFor = (language: ProductLanguage) => createI18n(language).t;

describe('formatMoney', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [100, '1.00'],
    [123456789, '1,234,567.89'],
    [-123456, '-1,234.56'],
  ])('shows cents with two decimals and groups of three outside zh: %d is %s', (cents, shown) => {
    expect(formatMoney(cents, tFor('en-US'))).toBe(shown);
  });

  it('groups by four digits in Chinese', () => {
    expect(formatMoney(123456789, tFor('zh-CN'))).toBe('123,4567.89');
    expect(formatMoney(100000000000, tFor('zh-HANT'))).toBe('10,0000,0000.00');
    expect(formatMoney(999999, tFor('zh-CN'))).toBe('9999.99');
  });

  it("uses the locale's separators", () => {
    expect(formatMoney(123456789, tFor('es-ES'))).toBe('1.234.567,89');
    expect(formatMoney(123456789, tFor('vi-VN'))).toBe('1.234.567,89');
    expect(formatMoney(123456789, tFor('ms-MY'))).toBe('1,234,567.89');
  });

  it('rounds fractional cents and treats non-numbers as zero', () => {
    const t = tFor('en-US');
    expect(formatMoney(1234.6, t)).toBe('12.35');
    expect(formatMoney(Number.NaN, t)).toBe('0.00');
  });
});

describe('formatMoneyShort', () => {
  it.each([
    [99999, '999.99'],
    [100000, '1K'],
    [123456, '1.23K'],
    [1999999999, '19.99M'],
    [100000000000, '1G'],
    [-150000, '-1.5K'],
  ])('abbreviates with K, M and G from 1e3, 1e6 and 1e9: %d is %s', (cents, shown) => {
    expect(formatMoneyShort(cents, tFor('en-US'))).toBe(shown);
  });

  it.each([
    ['zh-CN', 999999, '9999.99'],
    ['zh-CN', 1000000, '1万'],
    ['zh-CN', 1500000, '1.5万'],
    ['zh-CN', 12345678900, '1.23亿'],
    ['zh-HANT', 1500000, '1.5萬'],
    ['zh-HANT', 12345678900, '1.23億'],
  ] as const)('abbreviates with 万 and 亿 from 1e4 and 1e8 in Chinese: %s %d is %s', (language, cents, shown) => {
    expect(formatMoneyShort(cents, tFor(language))).toBe(shown);
  });

  it('never rounds an amount up', () => {
    expect(formatMoneyShort(99999999, tFor('en-US'))).toBe('999.99K');
    expect(formatMoneyShort(99999999, tFor('zh-CN'))).toBe('99.99万');
  });
});
