import { describe, expect, it } from 'vitest';
import { hasHiddenChars, stripHiddenChars, truncateText } from './text';

describe('hidden characters', () => {
  it('finds controls, DEL and bidi controls, not ordinary text', () => {
    expect(hasHiddenChars('/pages/tabBar/find?q=中文 ✓')).toBe(false);
    for (const text of ['a\u0000', 'a\tb', 'a\nb', 'a\u007f', 'a\u202eb', 'a\u2067b']) {
      expect(hasHiddenChars(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('strips them but keeps line breaks and tabs', () => {
    expect(stripHiddenChars('a\u0000b\u202ec\n\td\u0008')).toBe('abc\n\td');
  });
});

describe('truncateText', () => {
  it('keeps short texts and cuts long ones by grapheme with an ellipsis', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('abcd', 3)).toBe('ab…');
    expect(truncateText('🇨🇳🇨🇳🇨🇳', 2)).toBe('🇨🇳…');
  });
});
