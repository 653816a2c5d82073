import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSession, writeSession } from '../state/session';
import { api, ApiError } from './client';

function envelope(code: number, data: unknown = null, status = 200): Response {
  return new Response(JSON.stringify({ code, message: code === 0 ? 'ok' : `code ${code}`, data }), { status });
}

describe('api', () => {
  beforeEach(() => {
    writeSession({ token: 'old', jwt: 'jwt1', userId: '1', account: 'boss', role: 'admin' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('renews an expired token once for every waiting request and replays them', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        const token = new Headers(init.headers).get('token') ?? '';
        seen.push(`${url} ${token}`);
        if (url === '/api/jwt/login') return Promise.resolve(envelope(0, { token: 'new', jwt: 'jwt2' }));
        return Promise.resolve(token === 'new' ? envelope(0, { url }) : envelope(401));
      }),
    );
    const [a, b] = await Promise.all([api<{ url: string }>('/admin/a'), api<{ url: string }>('/admin/b')]);
    expect(a.url).toBe('/api/admin/a');
    expect(b.url).toBe('/api/admin/b');
    expect(seen.filter((s) => s.startsWith('/api/jwt/login'))).toHaveLength(1);
    expect(readSession()).toMatchObject({ token: 'new', jwt: 'jwt2' });
  });

  it('ends the session when the jwt is refused, and reports a refusal with its code and status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => Promise.resolve(url === '/api/jwt/login' ? envelope(402) : envelope(401))),
    );
    await expect(api('/admin/a')).rejects.toMatchObject({ code: 401 });
    expect(readSession()).toBeNull();

    writeSession({ token: 't', jwt: 'j', userId: '1', account: 'desk', role: 'agent' });
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(envelope(1010, null, 403))));
    const refused = await api('/admin/windows/update').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 1010, status: 403 });
    expect(readSession()).not.toBeNull();
  });
});
