import { describe, expect, it } from 'vitest';
import type { UpdateManifest } from '../api/content';
import { isDesktopDevice } from './device';
import { normalizeManifest } from './manifest';
import { decideUpdate } from './update';
import { APP_VERSION, compareVersions } from './version';

const none = { version: '', path: '', remark: '' };
function manifest(normal = '', force = '', resource = ''): UpdateManifest {
  return {
    package: {
      normal: normal ? { version: normal, path: 'https://x/a.apk', remark: '' } : none,
      force: force ? { version: force, path: 'https://x/a.apk', remark: '' } : none,
    },
    resource: { version: resource, path: resource ? '/r.zip' : '' },
  };
}

describe('compareVersions', () => {
  it('compares dotted numbers field by field', () => {
    expect(compareVersions('1.3.230281753', '1.3.230281753')).toBe(0);
    expect(compareVersions('1.3.9', '1.3.10')).toBeLessThan(0);
    expect(compareVersions('1.4', '1.3.99')).toBeGreaterThan(0);
    expect(compareVersions('1.3', '1.3.0')).toBe(0);
    expect(APP_VERSION).toBe('1.3.230281753');
  });
});

describe('decideUpdate (spec section 4)', () => {
  it('forces an update below the forced version', () => {
    expect(decideUpdate({ manifest: manifest('2.0.0', '1.4.0'), ignored: '2.0.0', resourceSeen: null }).kind).toBe('force');
  });

  it('offers an optional update once, unless ignored — asked from mine it comes back', () => {
    expect(decideUpdate({ manifest: manifest('1.4.0'), ignored: null, resourceSeen: null }).kind).toBe('normal');
    expect(decideUpdate({ manifest: manifest('1.4.0'), ignored: '1.4.0', resourceSeen: null }).kind).toBe('latest');
    expect(decideUpdate({ manifest: manifest('1.4.0'), ignored: '1.4.0', resourceSeen: null, fromMine: true }).kind).toBe('normal');
    // Ignoring one version does not hide a later one.
    expect(decideUpdate({ manifest: manifest('1.5.0'), ignored: '1.4.0', resourceSeen: null }).kind).toBe('normal');
  });

  it('reloads for a new resource revision, but not on first sight', () => {
    expect(decideUpdate({ manifest: manifest('', '', '7'), ignored: null, resourceSeen: '6' })).toEqual({ kind: 'resource', version: '7' });
    expect(decideUpdate({ manifest: manifest('', '', '7'), ignored: null, resourceSeen: null }).kind).toBe('latest');
    expect(decideUpdate({ manifest: manifest('', '', '7'), ignored: null, resourceSeen: '7' }).kind).toBe('latest');
  });

  it('offers nothing at or above the versions offered', () => {
    expect(decideUpdate({ manifest: manifest(APP_VERSION, '1.0.0'), ignored: null, resourceSeen: null }).kind).toBe('latest');
    expect(decideUpdate({ manifest: manifest(), ignored: null, resourceSeen: null }).kind).toBe('latest');
  });
});

describe('normalizeManifest', () => {
  it('reads anything missing or malformed as nothing offered', () => {
    expect(normalizeManifest(null)).toEqual(manifest());
    expect(normalizeManifest({ package: { normal: { version: 3 } }, resource: 'x' })).toEqual(manifest());
    expect(normalizeManifest({ package: { force: { version: '2', path: 'p', remark: 'r' } } }).package.force).toEqual({
      version: '2',
      path: 'p',
      remark: 'r',
    });
  });
});

describe('isDesktopDevice', () => {
  const nav = (userAgent: string, maxTouchPoints = 0, mobile?: boolean) =>
    ({ userAgent, maxTouchPoints, ...(mobile === undefined ? {} : { userAgentData: { mobile } }) }) as unknown as Navigator;

  it('is a desktop for a desktop system without touch', () => {
    expect(isDesktopDevice(nav('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126'))).toBe(true);
    expect(isDesktopDevice(nav('Mozilla/5.0 (X11; Linux x86_64) Chrome/126', 0, false))).toBe(true);
    expect(isDesktopDevice(nav('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605'))).toBe(true);
  });

  it('is not for phones, tablets (even iPadOS posing as a Mac) or unknown systems', () => {
    expect(isDesktopDevice(nav('Mozilla/5.0 (Linux; Android 14) Mobile Safari', 5))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148'))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605', 5))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (X11; Linux x86_64) Chrome/126', 0, true))).toBe(false);
    expect(isDesktopDevice(nav('Mozilla/5.0 (linux) jsdom/27'))).toBe(false);
  });
});
