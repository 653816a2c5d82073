import { describe, expect, it, vi } from 'vitest';
import { defaultApiConfig, type ApiConfig } from './config';
import { ApiError, ApiErrorCode, createApiClient, parseLines, rotate, setLineList, type ApiEnvironment } from './client';
import { STORAGE_KEYS } from './storage';
import { memoryStore } from '../test/memoryStore';

// The app's defaults, with what the build environment may set pinned.
const baseConfig: ApiConfig = {
  ...defaultApiConfig,
  hosts: ['/api'],
  lineListUrls: [],
  packageId: 100002001,
  platformId: 10000,
};

function reply(code: number, data: unknown = null, message = '', status = 200): Response {
  return new Response(JSON.stringify({ code, message, data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

function recordCall(url: string, init: RequestInit): Call {
  const headers = (init.headers ?? {}) as Record<string, string>;
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
  return { url, method: init.method ?? 'GET', headers, body };
}

type MemoryStore = ReturnType<typeof memoryStore>;

function setup(
  handler: (call: Call, init: RequestInit) => Promise<Response> | Response,
  options: { config?: Partial<ApiConfig>; store?: MemoryStore; path?: string } = {},
) {
  const calls: Call[] = [];
  const store = options.store ?? memoryStore();
  const scheduled: { fn: () => void; ms: number }[] = [];
  const env = {
    fetch: vi.fn(async (url: string, init: RequestInit) => {
      const call = recordCall(url, init);
      calls.push(call);
      return handler(call, init);
    }),
    storage: store,
    translate: vi.fn((key: string, opts?: { count: number }) => (opts ? `${key}:${opts.count}` : key)),
    language: () => 'en-US',
    toast: vi.fn(),
    navigate: vi.fn(),
    currentPath: () => options.path ?? '/pages/my/points-details?tab=1',
    schedule: vi.fn((fn: () => void, ms: number) => {
      scheduled.push({ fn, ms });
    }),
    sleep: vi.fn(() => Promise.resolve()),
  } satisfies ApiEnvironment;
  const client = createApiClient({ ...baseConfig, ...options.config }, env);
  return { client, env, calls, store, scheduled };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('envelope', () => {
  it('POSTs JSON with token and Accept-Language and resolves with data on code 0', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'T1' });
    const { client, calls } = setup(() => reply(0, { balance: 1200 }), { store });

    await expect(client.request('/user/amount', { page: 1 })).resolves.toEqual({ balance: 1200 });

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe('/api/user/amount');
    expect(call?.method).toBe('POST');
    expect(call?.headers.token).toBe('T1');
    expect(call?.headers['Accept-Language']).toBe('en-US');
    expect(call?.headers['Content-Type']).toBe('application/json');
    expect(call?.body).toEqual({ page: 1 });
  });

  it('sends no token header when logged out', async () => {
    const { client, calls } = setup(() => reply(0, 'ok'));
    await client.request('/getBaseData');
    expect(calls[0]?.headers).not.toHaveProperty('token');
  });

  it('puts GET parameters in the query string', async () => {
    const { client, calls } = setup(() => reply(0, []));
    await client.request('/getCityList', { page: 2, name: 'a b' }, { method: 'GET' });
    expect(calls[0]?.url).toBe('/api/getCityList?page=2&name=a+b');
    expect(calls[0]?.body).toBeNull();
  });

  it('toasts the server message and rejects with a typed ApiError on other codes', async () => {
    const { client, env } = setup(() => reply(1001, null, 'Insufficient balance'));
    const error = await rejection(client.request('/user/exchange'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(1001);
    expect(error.message).toBe('Insufficient balance');
    expect(env.toast).toHaveBeenCalledWith('Insufficient balance');
  });

  it("falls back to 'network failed' when the server sends no message", async () => {
    const { client, env } = setup(() => reply(500));
    const error = await rejection(client.request('/user/exchange'));
    expect(error.message).toBe('api.networkFailed');
    expect(env.toast).toHaveBeenCalledWith('api.networkFailed');
  });

  it('does not toast when the caller shows the message (quiet)', async () => {
    const { client, env } = setup(() => reply(1001, null, 'Wrong password'));
    const error = await rejection(client.request('/accountLogin', {}, { quiet: true }));
    expect(error.message).toBe('Wrong password');
    expect(env.toast).not.toHaveBeenCalled();
  });
});

describe('401: token renewal', () => {
  it('renews once for two concurrent requests, then replays both', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'old', [STORAGE_KEYS.jwt]: 'J1' });
    let releaseRenewal: () => void = () => undefined;
    const renewed = new Promise<void>((resolve) => {
      releaseRenewal = resolve;
    });
    const { client, calls, env } = setup(
      async (call) => {
        if (call.url === '/api/jwt/login') {
          await renewed;
          return reply(0, { token: 'new', jwt: 'J2' });
        }
        if (call.headers.token === 'new') return reply(0, { path: call.url });
        return reply(401, null, 'token expired');
      },
      { store },
    );

    const first = client.request('/user/mine');
    const second = client.request('/user/amount');
    // Let both requests meet their 401 before the renewal answers.
    await vi.waitFor(() => {
      expect(calls.filter((c) => c.url !== '/api/jwt/login')).toHaveLength(2);
    });
    releaseRenewal();

    await expect(first).resolves.toEqual({ path: '/api/user/mine' });
    await expect(second).resolves.toEqual({ path: '/api/user/amount' });

    const renewals = calls.filter((c) => c.url === '/api/jwt/login');
    expect(renewals).toHaveLength(1);
    expect(renewals[0]?.body).toMatchObject({ token: 'J1', packageId: 100002001, platform: 5 });
    expect(typeof renewals[0]?.body?.operationID).toBe('string');
    expect(calls.filter((c) => c.url === '/api/user/mine')).toHaveLength(2);
    expect(calls.filter((c) => c.url === '/api/user/amount')).toHaveLength(2);
    expect(store.get(STORAGE_KEYS.token)).toBe('new');
    expect(store.get(STORAGE_KEYS.jwt)).toBe('J2');
    expect(env.navigate).not.toHaveBeenCalled();
  });

  it('replays without renewing again when the token was renewed after the request left', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'old', [STORAGE_KEYS.jwt]: 'J1' });
    let slowAnswered: () => void = () => undefined;
    const slowGate = new Promise<void>((resolve) => {
      slowAnswered = resolve;
    });
    const { client, calls } = setup(
      async (call) => {
        if (call.url === '/api/jwt/login') return reply(0, { token: 'new' });
        if (call.headers.token === 'new') return reply(0, 'ok');
        if (call.url === '/api/slow') await slowGate;
        return reply(401);
      },
      { store },
    );
    const slow = client.request('/slow');
    await client.request('/fast');
    slowAnswered();
    await expect(slow).resolves.toBe('ok');
    expect(calls.filter((c) => c.url === '/api/jwt/login')).toHaveLength(1);
  });

  it('without a jwt clears the session and goes to login', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'old', [STORAGE_KEYS.userId]: '7' });
    const { client, env, calls } = setup(() => reply(401), { store });
    const error = await rejection(client.request('/user/mine'));
    expect(error.code).toBe(401);
    expect(calls).toHaveLength(1);
    expect(store.get(STORAGE_KEYS.token)).toBeNull();
    expect(store.get(STORAGE_KEYS.userId)).toBeNull();
    expect(env.navigate).toHaveBeenCalledWith(
      '/pages/auth/login?redirect=%2Fpages%2Fmy%2Fpoints-details%3Ftab%3D1',
    );
  });

  it('when the renewal fails, clears the session and goes to login', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'old', [STORAGE_KEYS.jwt]: 'J1' });
    const { client, env } = setup((call) => (call.url === '/api/jwt/login' ? reply(401) : reply(401)), {
      store,
    });
    const error = await rejection(client.request('/user/mine'));
    expect(error.code).toBe(401);
    expect(store.get(STORAGE_KEYS.token)).toBeNull();
    expect(store.get(STORAGE_KEYS.jwt)).toBeNull();
    expect(env.navigate).toHaveBeenCalledTimes(1);
  });

  it('does not loop when the replayed request is refused again', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'old', [STORAGE_KEYS.jwt]: 'J1' });
    const { client, calls, env } = setup(
      (call) => (call.url === '/api/jwt/login' ? reply(0, { token: 'new' }) : reply(401)),
      { store },
    );
    await rejection(client.request('/user/mine'));
    expect(calls.map((c) => c.url)).toEqual(['/api/user/mine', '/api/jwt/login', '/api/user/mine']);
    expect(env.navigate).toHaveBeenCalledTimes(1);
  });

  it('does not navigate when already on the login page', async () => {
    const { client, env } = setup(() => reply(401), { path: '/pages/auth/login' });
    await rejection(client.request('/accountLogin'));
    expect(env.navigate).not.toHaveBeenCalled();
  });
});

describe('402 and 403', () => {
  it('402 removes the jwt and toasts the server message', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'T', [STORAGE_KEYS.jwt]: 'J' });
    const { client, env } = setup(() => reply(402, null, 'Session invalid'), { store });
    const error = await rejection(client.request('/user/mine'));
    expect(error.code).toBe(402);
    expect(store.get(STORAGE_KEYS.jwt)).toBeNull();
    expect(store.get(STORAGE_KEYS.token)).toBe('T');
    expect(env.toast).toHaveBeenCalledWith('Session invalid');
  });

  it("402 without a message toasts 'login invalid'", async () => {
    const { client, env } = setup(() => reply(402));
    await rejection(client.request('/user/mine'));
    expect(env.toast).toHaveBeenCalledWith('api.loginInvalid');
  });

  it('403 removes both tokens, toasts, and goes to login after 1 s', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'T', [STORAGE_KEYS.jwt]: 'J' });
    const { client, env, scheduled } = setup(() => reply(403), { store });
    const error = await rejection(client.request('/user/mine'));
    expect(error.code).toBe(403);
    expect(store.get(STORAGE_KEYS.token)).toBeNull();
    expect(store.get(STORAGE_KEYS.jwt)).toBeNull();
    expect(env.toast).toHaveBeenCalledWith('api.loggedInElsewhere');
    expect(env.navigate).not.toHaveBeenCalled();
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.ms).toBe(1000);
    scheduled[0]?.fn();
    expect(env.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/pages\/auth\/login/));
  });

  it('treats a bare HTTP 403 without an envelope the same way', async () => {
    const { client, env } = setup(() => new Response('Forbidden', { status: 403 }));
    const error = await rejection(client.request('/user/mine'));
    expect(error.code).toBe(403);
    expect(env.toast).toHaveBeenCalledWith('api.loggedInElsewhere');
  });
});

describe('network failures', () => {
  it('retries and moves to the backup host after more than two failures', async () => {
    let failuresLeft = 3;
    const { client, calls, env } = setup(
      () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new TypeError('Failed to fetch');
        }
        return reply(0, 'ok');
      },
      { config: { hosts: ['/api', 'https://backup.example/api'] } },
    );
    await expect(client.request('/user/mine')).resolves.toBe('ok');
    expect(calls.map((c) => c.url)).toEqual([
      '/api/user/mine',
      '/api/user/mine',
      '/api/user/mine',
      'https://backup.example/api/user/mine',
    ]);
    expect(client.currentHost()).toBe('https://backup.example/api');
    expect(env.sleep).toHaveBeenCalledTimes(3);
    expect(env.sleep).toHaveBeenCalledWith(1000);
    // From the third failure on, the user hears that the app is reconnecting.
    expect(env.toast).toHaveBeenCalledTimes(1);
    expect(env.toast).toHaveBeenCalledWith('api.reconnectFailed:3');
  });

  it('fetches the alternative hosts from the line list and switches to them', async () => {
    const store = memoryStore();
    setLineList(['https://codes.example/lines', 'https://codes2.example/lines'], 'kj', store);
    const { client, calls } = setup(
      (call) => {
        if (call.url.startsWith('https://codes.example/')) throw new TypeError('Failed to fetch');
        if (call.url.startsWith('https://codes2.example/')) {
          return new Response('https://line-b.example/api/\n\nnot a url\n', { status: 200 });
        }
        if (call.url.startsWith('https://line-b.example/')) return reply(0, 'from b');
        throw new TypeError('Failed to fetch');
      },
      { store },
    );
    await expect(client.request('/user/mine')).resolves.toBe('from b');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/user/mine',
      'POST /api/user/mine',
      'POST /api/user/mine',
      'GET https://codes.example/lines?combineId=kj',
      'GET https://codes2.example/lines?combineId=kj',
      'POST https://line-b.example/api/user/mine',
    ]);
    expect(client.currentHost()).toBe('https://line-b.example/api');
    // The next request goes straight to the line that answers.
    await expect(client.request('/user/mine')).resolves.toBe('from b');
    expect(calls).toHaveLength(7);
  });

  it('parses and rotates a line list', () => {
    expect(parseLines('https://a.example/api\r\n  http://b.example/api/ \nftp://c\n\n')).toEqual([
      'https://a.example/api',
      'http://b.example/api',
    ]);
    expect(rotate(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(rotate(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a']);
    expect(rotate([], 2)).toEqual([]);
  });

  it('rotates through the hosts and gives up after 60 tries', async () => {
    const { client, calls, env } = setup(
      () => {
        throw new TypeError('Failed to fetch');
      },
      { config: { hosts: ['/api', 'https://b.example/api', 'https://c.example/api'] } },
    );
    const error = await rejection(client.request('/user/mine'));
    expect(calls).toHaveLength(60);
    expect(error.code).toBe(ApiErrorCode.network);
    expect(error.message).toBe('api.reconnectFailed:60');
    // Failures 3 to 60 each say how many reconnections were tried.
    expect(env.toast).toHaveBeenCalledTimes(58);
    expect(env.toast).toHaveBeenLastCalledWith('api.reconnectFailed:60');
    const hostsUsed = new Set(calls.map((c) => new URL(c.url, 'http://self').origin));
    expect(hostsUsed.size).toBe(3);
  });

  it('retries a gateway error without an envelope', async () => {
    let first = true;
    const { client, calls } = setup(() => {
      if (first) {
        first = false;
        return new Response('<html>Bad Gateway</html>', { status: 502 });
      }
      return reply(0, 'ok');
    });
    await expect(client.request('/user/mine')).resolves.toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it('aborts a request after the timeout and counts it as a failure', async () => {
    const { client, calls } = setup(
      (_call, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
      { config: { timeoutMs: 5, maxAttempts: 2 } },
    );
    const error = await rejection(client.request('/user/mine'));
    expect(error.code).toBe(ApiErrorCode.network);
    expect(calls).toHaveLength(2);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const { client, calls } = setup(
      (_call, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    const pending = client.request('/user/mine', undefined, { signal: controller.signal });
    controller.abort();
    const error = await rejection(pending);
    expect(error.code).toBe(ApiErrorCode.aborted);
    expect(calls).toHaveLength(1);
  });
});

describe('accountLogin and logout', () => {
  it('sends the login fields and stores token, jwt, chat token and user id', async () => {
    const { client, calls, store } = setup(() =>
      reply(0, { token: 'T', jwt: 'J', chatToken: 'C', userId: 42 }),
    );
    await expect(client.accountLogin({ account: 'alice', password: 'secret1' })).resolves.toEqual({
      token: 'T',
      jwt: 'J',
      chatToken: 'C',
      userId: '42',
    });
    expect(calls[0]?.url).toBe('/api/accountLogin');
    expect(calls[0]?.body).toMatchObject({ account: 'alice', password: 'secret1', platform: 5 });
    expect(typeof calls[0]?.body?.operationID).toBe('string');
    expect(store.get(STORAGE_KEYS.token)).toBe('T');
    expect(store.get(STORAGE_KEYS.jwt)).toBe('J');
    expect(store.get(STORAGE_KEYS.wsToken)).toBe('C');
    expect(store.get(STORAGE_KEYS.userId)).toBe('42');
  });

  it('rejects a login answer without token or jwt and stores nothing', async () => {
    const { client, store } = setup(() => reply(0, { token: 'T', jwt: '' }));
    const error = await rejection(client.accountLogin({ account: 'a', password: 'b' }, { quiet: true }));
    expect(error.code).toBe(ApiErrorCode.badResponse);
    expect(error.message).toBe('api.loginFailed');
    expect(store.values.size).toBe(0);
  });

  it('logout sends the chat token and clears the session even when the call fails', async () => {
    const store = memoryStore({
      [STORAGE_KEYS.token]: 'T',
      [STORAGE_KEYS.jwt]: 'J',
      [STORAGE_KEYS.wsToken]: 'C',
      [STORAGE_KEYS.userId]: '1',
      [STORAGE_KEYS.language]: 'en-US',
    });
    const { client, calls, env } = setup(
      () => {
        throw new TypeError('offline');
      },
      { store },
    );
    await client.logout();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({ chatToken: 'C', platform: 5 });
    expect([...store.values.keys()]).toEqual([STORAGE_KEYS.language]);
    expect(env.toast).not.toHaveBeenCalled();
  });
});

describe('switch account, uploads and extra headers', () => {
  it('switchAccount signs in through /accountLoginAtm with the current token and stores the new session', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'OLD', [STORAGE_KEYS.jwt]: 'OLDJ' });
    const { client, calls } = setup(() => reply(0, { token: 'NEW', jwt: 'NEWJ', chatToken: 'C2', userId: '22' }), { store });
    await client.switchAccount({ account: 'bob', password: 'abc123' });
    expect(calls[0]?.url).toBe('/api/accountLoginAtm');
    // The server ends the session this token belongs to.
    expect(calls[0]?.headers.token).toBe('OLD');
    expect(calls[0]?.body).toMatchObject({ account: 'bob', password: 'abc123', platform: 5 });
    expect(store.values.get(STORAGE_KEYS.token)).toBe('NEW');
    expect(store.values.get(STORAGE_KEYS.jwt)).toBe('NEWJ');
    expect(store.values.get(STORAGE_KEYS.userId)).toBe('22');
  });

  it('uploads a multipart form without a JSON content type, with the token', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'T1' });
    let sent: BodyInit | null | undefined;
    const { client, calls } = setup(
      (_call, init) => {
        sent = init.body;
        return reply(0, { avatar: '/files/avatars/a.png' });
      },
      { store },
    );
    const form = new FormData();
    form.append('file', new Blob(['png'], { type: 'image/png' }), 'a.png');
    await expect(client.upload('/user/uploadAvatar', form)).resolves.toEqual({ avatar: '/files/avatars/a.png' });
    expect(sent).toBe(form);
    expect(calls[0]?.headers).not.toHaveProperty('Content-Type');
    expect(calls[0]?.headers.token).toBe('T1');
  });

  it('gives uploads the 60 s timeout instead of 15 s', async () => {
    vi.useFakeTimers();
    try {
      let aborted = false;
      const { client } = setup(
        (_call, init) =>
          new Promise<Response>((resolve, reject) => {
            init.signal?.addEventListener('abort', () => {
              aborted = true;
              reject(new DOMException('aborted', 'AbortError'));
            });
            setTimeout(() => {
              resolve(reply(0, { avatar: '/files/x.png' }));
            }, 30_000);
          }),
      );
      const pending = client.upload('/user/uploadAvatar', new FormData());
      await vi.advanceTimersByTimeAsync(30_000);
      await expect(pending).resolves.toEqual({ avatar: '/files/x.png' });
      expect(aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends extra headers such as Idempotency-Key, never overriding the token', async () => {
    const store = memoryStore({ [STORAGE_KEYS.token]: 'T1' });
    const { client, calls } = setup(() => reply(0, {}), { store });
    await client.request('/user/exchange', { amount: 100 }, { headers: { 'Idempotency-Key': 'ex-1', token: 'forged' } });
    expect(calls[0]?.headers['Idempotency-Key']).toBe('ex-1');
    expect(calls[0]?.headers.token).toBe('T1');
  });
});
