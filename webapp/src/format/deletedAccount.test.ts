import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n';
import { DELETED_ACCOUNT_NAME, shownName } from './deletedAccount';

describe('shownName', () => {
  it('shows a deleted account in the reader language and leaves other names alone', async () => {
    const i18n = createI18n('zh-CN');
    await i18n.changeLanguage('zh-CN');
    expect(shownName(DELETED_ACCOUNT_NAME, i18n.t)).toBe('已注销账户');
    expect(shownName('deleted', i18n.t)).toBe('deleted');
    expect(shownName('Ana', i18n.t)).toBe('Ana');
  });
});
