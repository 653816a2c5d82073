import { describe, expect, it } from 'vitest';
import { appPath, safeRedirect } from './paths';

describe('appPath', () => {
  it('keeps paths of this app as they are, refuses whatever could reach another host', () => {
    expect(appPath('/')).toBe('/');
    expect(appPath('/pages/tabBar/find?x=1#top')).toBe('/pages/tabBar/find?x=1#top');
    expect(appPath('/pages/chat/search?q=a%2Fb')).toBe('/pages/chat/search?q=a%2Fb');
    for (const refused of [
      null,
      undefined,
      '',
      'pages/tabBar/find',
      'https://evil.example/',
      'javascript:alert(1)',
      'data:text/html,x',
      '//evil.example/',
      '/\\evil.example/',
      // A URL parser drops tabs and newlines: these read as //evil.example.
      '/\t/evil.example/',
      '/\n/evil.example/',
      '/\r/evil.example/',
      '/pages/tabBar/find\u202e',
    ]) {
      expect(appPath(refused), JSON.stringify(refused)).toBeNull();
    }
  });

  it('guards the sign-in redirect the same way', () => {
    expect(safeRedirect('/pages/my/notice?id=1')).toBe('/pages/my/notice?id=1');
    expect(safeRedirect('/\t/evil.example/')).toBe('/');
    expect(safeRedirect('/pages/auth/login?redirect=/')).toBe('/');
  });
});
