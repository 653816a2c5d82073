import { describe, expect, it } from 'vitest';
import { amountCents, centsToAmountText, MAX_AMOUNT_CENTS, parseAmount } from './amount';

describe('parseAmount', () => {
  it('means exactly what was typed, in integer cents', () => {
    expect(parseAmount('12.5')).toEqual({ ok: true, cents: 1250 });
    expect(parseAmount('0050.5')).toEqual({ ok: true, cents: 5050 });
    expect(parseAmount('12')).toEqual({ ok: true, cents: 1200 });
    expect(parseAmount('12.05')).toEqual({ ok: true, cents: 1205 });
    expect(parseAmount(' 7.10 ')).toEqual({ ok: true, cents: 710 });
    expect(parseAmount('12.')).toEqual({ ok: true, cents: 1200 });
    expect(parseAmount('.5')).toEqual({ ok: true, cents: 50 });
    expect(parseAmount('0.01')).toEqual({ ok: true, cents: 1 });
  });

  it('reads the text, not a float: no rounding errors where float multiplication has them', () => {
    // 1.15 * 100 = 114.99999999999999, 4.35 * 100 = 434.99999999999994, 0.29 * 100 = 28.999999999999996
    expect(amountCents('1.15')).toBe(115);
    expect(amountCents('4.35')).toBe(435);
    expect(amountCents('0.29')).toBe(29);
    expect(amountCents('1005.07')).toBe(100507);
    for (let cents = 0; cents < 100_000; cents += 7) {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      expect(amountCents(text, { allowZero: true })).toBe(cents);
    }
  });

  it('refuses more than two decimals instead of cutting them', () => {
    expect(parseAmount('12.345')).toEqual({ ok: false, problem: 'decimals' });
    expect(parseAmount('0.001')).toEqual({ ok: false, problem: 'decimals' });
    expect(parseAmount('1.000')).toEqual({ ok: false, problem: 'decimals' });
  });

  it('refuses what is not a number instead of dropping characters', () => {
    for (const text of ['abc', '12a', '1,000', '1e3', '-5', '+5', '1.2.3', '.', '12 5', '１２', '0x10', 'Infinity', 'NaN']) {
      expect(parseAmount(text), text).toEqual({ ok: false, problem: 'notNumber' });
    }
  });

  it('tells an empty field, zero and too large apart', () => {
    expect(parseAmount('')).toEqual({ ok: false, problem: 'required' });
    expect(parseAmount('   ')).toEqual({ ok: false, problem: 'required' });
    expect(parseAmount('0')).toEqual({ ok: false, problem: 'zero' });
    expect(parseAmount('0.00')).toEqual({ ok: false, problem: 'zero' });
    expect(parseAmount('0', { allowZero: true })).toEqual({ ok: true, cents: 0 });
    expect(parseAmount('10000000000000')).toEqual({ ok: true, cents: MAX_AMOUNT_CENTS });
    expect(parseAmount('10000000000000.01')).toEqual({ ok: false, problem: 'tooLarge' });
    expect(parseAmount('99999999999999999999')).toEqual({ ok: false, problem: 'tooLarge' });
    expect(parseAmount('000000000000000000001.5')).toEqual({ ok: true, cents: 150 });
  });
});

describe('centsToAmountText', () => {
  it('writes cents back as the field takes them, and reads back the same', () => {
    expect(centsToAmountText(1230)).toBe('12.3');
    expect(centsToAmountText(1205)).toBe('12.05');
    expect(centsToAmountText(1200)).toBe('12');
    expect(centsToAmountText(5)).toBe('0.05');
    for (const cents of [1, 10, 99, 100, 101, 123456789]) expect(amountCents(centsToAmountText(cents))).toBe(cents);
  });
});
