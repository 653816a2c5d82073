import { describe, expect, it } from 'vitest';
import { createI18n, type ProductLanguage } from '../i18n';
import { formatMoney, formatMoneyShort } from './money';

const tFor = (language: ProductLanguage) => createI18n(language).t;

describe('formatMoney', () => {
  it('shows cents with two decimals and groups of three outside zh', () => {
    const t = tFor('en-US');
    expect(formatMoney(0, t)).toBe('0.00');
    expect(formatMoney(5, t)).toBe('0.05');
    expect(formatMoney(100, t)).toBe('1.00');
    expect(formatMoney(123456789, t)).toBe('1,234,567.89');
    expect(formatMoney(-123456, t)).toBe('-1,234.56');
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
  it('abbreviates with K, M and G from 1e3, 1e6 and 1e9', () => {
    const t = tFor('en-US');
    expect(formatMoneyShort(99999, t)).toBe('999.99');
    expect(formatMoneyShort(100000, t)).toBe('1K');
    expect(formatMoneyShort(123456, t)).toBe('1.23K');
    expect(formatMoneyShort(1999999999, t)).toBe('19.99M');
    expect(formatMoneyShort(100000000000, t)).toBe('1G');
    expect(formatMoneyShort(-150000, t)).toBe('-1.5K');
  });

  it('abbreviates with 万 and 亿 from 1e4 and 1e8 in Chinese', () => {
    const t = tFor('zh-CN');
    expect(formatMoneyShort(999999, t)).toBe('9999.99');
    expect(formatMoneyShort(1000000, t)).toBe('1万');
    expect(formatMoneyShort(1500000, t)).toBe('1.5万');
    expect(formatMoneyShort(12345678900, t)).toBe('1.23亿');
    expect(formatMoneyShort(1500000, tFor('zh-HANT'))).toBe('1.5萬');
    expect(formatMoneyShort(12345678900, tFor('zh-HANT'))).toBe('1.23億');
  });

  it('never rounds an amount up', () => {
    expect(formatMoneyShort(99999999, tFor('en-US'))).toBe('999.99K');
    expect(formatMoneyShort(99999999, tFor('zh-CN'))).toBe('99.99万');
  });
});
