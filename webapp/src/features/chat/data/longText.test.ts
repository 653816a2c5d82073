import { describe, expect, it } from 'vitest';
import { isLongText, LONG_TEXT_CHARS, LONG_TEXT_LINES } from './longText';

describe('isLongText', () => {
  it('folds a text past the character limit', () => {
    expect(isLongText('a'.repeat(LONG_TEXT_CHARS))).toBe(false);
    expect(isLongText('a'.repeat(LONG_TEXT_CHARS + 1))).toBe(true);
    expect(isLongText('字'.repeat(2000))).toBe(true);
  });

  it('folds a short text of many lines', () => {
    expect(isLongText(Array.from({ length: LONG_TEXT_LINES }, () => 'x').join('\n'))).toBe(false);
    expect(isLongText(Array.from({ length: LONG_TEXT_LINES + 1 }, () => 'x').join('\n'))).toBe(true);
  });

  it('leaves an ordinary message alone', () => {
    expect(isLongText('')).toBe(false);
    expect(isLongText('see you at 8')).toBe(false);
  });
});
