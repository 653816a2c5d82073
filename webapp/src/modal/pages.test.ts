import { describe, expect, it } from 'vitest';
import { appLinkTarget } from '../discover/links';
import { inviteCodeProblem } from '../videos/InviteCodeGate';
import { parseShareSpec, shareImagePath } from '../videos/share';
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
  it('frames only paths of this app, never the frame itself', () => {
    expect(framedPath('/pages/tabBar/city?city=1')).toBe('/pages/tabBar/city?city=1');
    expect(framedPath('https://evil.example/')).toBe('/');
    expect(framedPath('//evil.example/')).toBe('/');
    expect(framedPath('/pages/iframe/iframe?path=/')).toBe('/');
    expect(framedPath(null)).toBe('/');
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
  it('accepts only codes starting with pro_ (spec section 5)', () => {
    expect(inviteCodeProblem('')).toBe('required');
    expect(inviteCodeProblem('abc')).toBe('prefix');
    expect(inviteCodeProblem('pro_')).toBe('prefix');
    expect(inviteCodeProblem('PRO_abc')).toBe('prefix');
    expect(inviteCodeProblem(' pro_m2ihqsno ')).toBeNull();
  });
});
