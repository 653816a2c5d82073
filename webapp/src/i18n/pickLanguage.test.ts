import { describe, expect, it } from 'vitest';
import { matchLanguage, pickLanguage } from './languages';

describe('pickLanguage (issue 35 #8)', () => {
  it('takes the person’s own choice first', () => {
    expect(pickLanguage('vi-VN', ['en-US'], 'es-ES')).toBe('vi-VN');
  });
  it('then the first browser language that is one of the six', () => {
    expect(pickLanguage(null, ['fr-FR', 'en-GB', 'zh-CN'], 'es-ES')).toBe('en-US');
    expect(pickLanguage(null, ['zh-TW'])).toBe('zh-HANT');
  });
  it('then the operator’s default, then zh-CN', () => {
    expect(pickLanguage(null, ['fr-FR'], 'ms-MY')).toBe('ms-MY');
    expect(pickLanguage(null, ['fr-FR'])).toBe('zh-CN');
    expect(pickLanguage('xx', [], 'nonsense')).toBe('zh-CN');
  });
  it('matches a browser code by its language alone', () => {
    expect(matchLanguage('es-MX')).toBe('es-ES');
    expect(matchLanguage('de')).toBeNull();
  });
});
