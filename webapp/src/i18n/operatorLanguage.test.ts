import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../api/storage';
import { applyOperatorLanguage, createI18n, currentLanguage, loadLanguage, PRODUCT_LANGUAGES } from './index';

describe('the operator’s default language (issue 35 #8)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.localStorage.clear();
  });

  it('applies when the person chose none and the browser speaks none of the six, without becoming their choice', async () => {
    await Promise.all(PRODUCT_LANGUAGES.map(loadLanguage));
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'de']);
    const instance = createI18n('zh-CN');
    expect(await applyOperatorLanguage('ms-MY', instance)).toBe(true);
    expect(currentLanguage(instance)).toBe('ms-MY');
    expect(window.localStorage.getItem(STORAGE_KEYS.language)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.operatorLanguage)).toBe('ms-MY');
  });

  it('gives way to the browser’s language and to the person’s own choice', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB']);
    const instance = createI18n('en-US');
    expect(await applyOperatorLanguage('ms-MY', instance)).toBe(false);
    expect(currentLanguage(instance)).toBe('en-US');
    window.localStorage.setItem(STORAGE_KEYS.language, 'vi-VN');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    const chosen = createI18n('vi-VN');
    expect(await applyOperatorLanguage('ms-MY', chosen)).toBe(false);
    expect(currentLanguage(chosen)).toBe('vi-VN');
  });
});
