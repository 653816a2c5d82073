import { describe, expect, it } from 'vitest';
import { appLinkTarget } from '../discover/links';
import { inviteCodeProblem } from '../videos/InviteCodeGate';
import { parseShareSpec, shareImagePath } from '../videos/share';
import { DIALOG_TEXT_LIMITS, dialogPath, parseDialogQuery } from './dialogQuery';
import { framedPath } from './IframePage';
import { webviewTarget } from './WebviewPage';

describe('webviewTarget', () => {
  const origin = 'https://app.example';
  it('shows http(s) pages and paths of this server, nothing else', () => {
    expect(webviewTarget('/files/a.png', origin)).toEqual({ src: 'https://app.example/files/a.png', sameOrigin: true });
    expect(webviewTarget('https://news.example/x', origin)).toEqual({ src: 'https://news.example/x', sameOrigin: false });
    expect(webviewTarget('javascript:alert(1)', origin)).toBeNull();
    expect(webviewTarget('data:text/html,<b>x</b>', origin)).toBeNull();
    expect(webviewTarget('//evil.example/x', origin)).toBeNull();
    expect(webviewTarget('', origin)).toBeNull();
    expect(webviewTarget(null, origin)).toBeNull();
  });
});

describe('framedPath', () => {
  it.each([
    ['/pages/tabBar/city?city=1', '/pages/tabBar/city?city=1'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/pages/iframe/iframe?path=/', '/'],
    ['/\t/evil.example/', '/'],
    [null, '/'],
  ])('frames only paths of this app, never the frame itself: %j frames %j', (path, framed) => {
    expect(framedPath(path)).toBe(framed);
  });
});

describe('parseDialogQuery', () => {
  const parse = (query: Record<string, string>, kind?: 'modal' | 'notice') => parseDialogQuery(new URLSearchParams(query), kind);

  it('reads the texts, leaving empty ones to the defaults', () => {
    expect(parse({ title: ' Hi ', content: 'Line 1\r\nLine 2', confirmText: 'Go', cancelText: 'Stay' })).toEqual({
      title: 'Hi',
      content: 'Line 1\nLine 2',
      confirmText: 'Go',
      cancelText: 'Stay',
      showCancel: true,
      url: null,
    });
    expect(parse({})).toEqual({ title: '', content: '', confirmText: '', cancelText: '', showCancel: true, url: null });
  });

  it('keeps markup as text and drops control and bidi characters', () => {
    expect(parse({ content: '<img src=x onerror=alert(1)>' }).content).toBe('<img src=x onerror=alert(1)>');
    expect(parse({ title: 'a\u0000b\u202ec\u2066d\u0007' }).title).toBe('abcd');
    expect(parse({ content: 'a\tb' }).content).toBe('a\tb');
  });

  it('cuts long texts by characters, never inside one', () => {
    const title = parse({ title: 'x'.repeat(200) }).title;
    expect(title).toBe(`${'x'.repeat(DIALOG_TEXT_LIMITS.title - 1)}…`);
    const family = '👨‍👩‍👧';
    const button = parse({ confirmText: family.repeat(20) }).confirmText;
    expect(button).toBe(`${family.repeat(DIALOG_TEXT_LIMITS.button - 1)}…`);
    expect(parse({ confirmText: 'x'.repeat(DIALOG_TEXT_LIMITS.button) }).confirmText).toBe('x'.repeat(DIALOG_TEXT_LIMITS.button));
  });

  it('shows cancel unless told false, 0 or no', () => {
    for (const value of ['false', 'FALSE', '0', 'no', ' false ']) expect(parse({ showCancel: value }).showCancel, value).toBe(false);
    for (const value of ['true', '1', '', 'maybe']) expect(parse({ showCancel: value }).showCancel, value).toBe(true);
  });

  it('a notice (modal_n) never has a cancel button', () => {
    expect(parse({ showCancel: 'true', cancelText: 'No' }, 'notice')).toMatchObject({ showCancel: false, cancelText: '' });
  });

  it('keeps url only when it is a path of this app', () => {
    expect(parse({ url: '/pages/tabBar/find' }).url).toBe('/pages/tabBar/find');
    expect(parse({ url: ' /pages/my/notice?id=2 ' }).url).toBe('/pages/my/notice?id=2');
    for (const url of ['javascript:alert(1)', 'https://evil.example/', '//evil.example', '/\\evil.example', '/\t/evil.example', 'pages/x']) {
      expect(parse({ url }).url, url).toBeNull();
    }
  });

  it('round-trips through dialogPath', () => {
    const path = dialogPath('modal', { title: 'T & U', content: 'a=b?', url: '/pages/tabBar/find', showCancel: false });
    expect(path.startsWith('/pages/modal/modal?')).toBe(true);
    expect(parseDialogQuery(new URL(path, 'https://a').searchParams)).toMatchObject({
      title: 'T & U',
      content: 'a=b?',
      url: '/pages/tabBar/find',
      showCancel: false,
    });
    expect(dialogPath('notice', {})).toBe('/pages/modal/modal_n');
  });
});

describe('share image query', () => {
  it('round-trips through the json query and refuses what it cannot draw', () => {
    const spec = { title: 'T', text: 'x', image: '/files/a.png', url: 'https://app.example/p' };
    const path = shareImagePath(spec);
    expect(path.startsWith('/pages/modal/share-image?json=')).toBe(true);
    expect(parseShareSpec(new URL(path, 'https://a').searchParams.get('json'))).toEqual(spec);
    expect(parseShareSpec('not json')).toBeNull();
    expect(parseShareSpec(JSON.stringify({ title: 'T', url: 'javascript:alert(1)' }))).toBeNull();
    expect(parseShareSpec(JSON.stringify({ url: 'https://a/', image: 'javascript:x' }))).toEqual({ title: '', url: 'https://a/' });
  });
});

describe('appLinkTarget', () => {
  it('routes app pages, frames other addresses, refuses other schemes', () => {
    expect(appLinkTarget('/pages/customer/customer')).toBe('/pages/customer/customer');
    expect(appLinkTarget('https://example.com/a', 'A')).toBe('/pages/modal/webview?url=https%3A%2F%2Fexample.com%2Fa&title=A');
    expect(appLinkTarget('/files/x.png')).toBe('/pages/modal/webview?url=%2Ffiles%2Fx.png');
    expect(appLinkTarget('javascript:alert(1)')).toBeNull();
    expect(appLinkTarget('  ')).toBeNull();
  });
});

describe('inviteCodeProblem', () => {
  it.each([
    ['', 'required'],
    ['abc', 'prefix'],
    ['pro_', 'prefix'],
    ['PRO_abc', 'prefix'],
    [' pro_m2ihqsno ', null],
  ])('accepts only codes starting with pro_: %j is %j', (code, problem) => {
    expect(inviteCodeProblem(code)).toBe(problem);
  });
});
