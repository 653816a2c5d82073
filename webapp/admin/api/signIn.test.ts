import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, readSession } from '../state/session';
import { NotOperatorError, signIn } from './signIn';

function envelope(code: number, data: unknown = null): Response {
  return new Response(JSON.stringify({ code, message: '', data }));
}

function server(isOperator: number, role = 'agent') {
  const calls: { url: string; token: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, token: new Headers(init.headers).get('token') ?? '' });
      if (url === '/api/accountLogin') return Promise.resolve(envelope(0, { token: 'tok', jwt: 'jwt', userId: '7' }));
      if (url === '/api/user/mine') return Promise.resolve(envelope(0, { isOperator }));
      if (url === '/api/admin/me') return Promise.resolve(envelope(0, { role }));
      return Promise.resolve(envelope(0));
    }),
  );
  return calls;
}

describe('signIn', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it("keeps an operator's session with the role the server gives", async () => {
    const calls = server(1, 'agent');
    const s = await signIn('desk1', 'pass1234');
    expect(s).toMatchObject({ token: 'tok', jwt: 'jwt', userId: '7', account: 'desk1', role: 'agent' });
    expect(readSession()).toEqual(s);
    expect(calls.map((c) => `${c.url} ${c.token}`)).toEqual(['/api/accountLogin ', '/api/user/mine tok', '/api/admin/me tok']);
  });

  it("refuses a player's account, signs it out again and keeps nothing", async () => {
    const calls = server(0);
    await expect(signIn('player1', 'pass1234')).rejects.toBeInstanceOf(NotOperatorError);
    expect(readSession()).toBeNull();
    expect(calls.some((c) => c.url === '/api/logout' && c.token === 'tok')).toBe(true);
    expect(calls.some((c) => c.url === '/api/admin/me')).toBe(false);
  });
});
