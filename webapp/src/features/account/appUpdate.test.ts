import { describe, expect, it } from 'vitest';
import { normalizeManifest, type UpdateManifest } from '../../api/app';
import { APP_VERSION, compareVersions, decideUpdate } from './appUpdate';

function manifest(normal = '', force = ''): UpdateManifest {
  return normalizeManifest({
    package: {
      normal: { version: normal, path: normal ? `/files/${normal}.apk` : '', remark: 'notes' },
      force: { version: force, path: force ? `/files/${force}.apk` : '', remark: '' },
    },
  });
}

describe('compareVersions', () => {
  it('compares dotted numbers part by part', () => {
    expect(compareVersions('1.3.230281753', '1.3.230281753')).toBe(0);
    expect(compareVersions('1.3.230281753', '1.3.230281754')).toBe(-1);
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.3', '1.3.0')).toBe(0);
    expect(compareVersions('2', '1.99.99')).toBe(1);
  });
});

describe('decideUpdate', () => {
  it('offers nothing for an empty manifest or an older version', () => {
    expect(decideUpdate(manifest(), null, true)).toEqual({ kind: 'latest' });
    expect(decideUpdate(manifest('1.3.0'), null, true)).toEqual({ kind: 'latest' });
    expect(decideUpdate(manifest(APP_VERSION), null, false)).toEqual({ kind: 'latest' });
  });

  it('forces an update below the forced version, ignored or not', () => {
    const d = decideUpdate(manifest('1.5.0', '1.4.0'), '1.5.0', false);
    expect(d).toMatchObject({ kind: 'force', pkg: { version: '1.4.0' } });
  });

  it('offers an optional update below the normal version', () => {
    expect(decideUpdate(manifest('1.4.0', '1.2.0'), null, false)).toMatchObject({ kind: 'optional', pkg: { version: '1.4.0' } });
  });

  it('an ignored version is quiet on launch and offered again from the mine page', () => {
    expect(decideUpdate(manifest('1.4.0'), '1.4.0', false).kind).toBe('ignored');
    expect(decideUpdate(manifest('1.4.0'), '1.4.0', true).kind).toBe('optional');
    // Ignoring 1.4.0 does not silence 1.5.0.
    expect(decideUpdate(manifest('1.5.0'), '1.4.0', false).kind).toBe('optional');
  });

  it('a version without a download path is not offered', () => {
    const m = manifest('1.4.0');
    m.package.normal.path = '';
    expect(decideUpdate(m, null, true).kind).toBe('latest');
  });

  it('tolerates whatever the server sends', () => {
    expect(decideUpdate(normalizeManifest(null), null, true).kind).toBe('latest');
    expect(decideUpdate(normalizeManifest({ package: { normal: 'x' } }), null, true).kind).toBe('latest');
  });
});
