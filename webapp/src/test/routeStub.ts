import { vi } from 'vitest';

export interface StubCall {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

type Handler = (body: Record<string, unknown>, call: StubCall) => unknown;
type Answer = Handler | Record<string, unknown> | readonly unknown[] | string | number | boolean | null;

export interface Envelope {
  code: number;
  message?: string;
  data?: unknown;
}

/** Marks an answer as a full envelope (an error code), not just `data`. */
export function envelope(code: number, message = '', data: unknown = null): { __envelope: Envelope } {
  return { __envelope: { code, message, data } };
}

/**
 * Replaces fetch with a router of `/api` paths: each answer is the `data` of a code-0
 * envelope (or `envelope(code, message)`); unknown paths answer 404. Calls are recorded.
 */
export function stubApi(routes: Record<string, Answer>) {
  const calls: StubCall[] = [];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname.replace(/^\/api/, '');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const call: StubCall = { path, body, headers: (init?.headers ?? {}) as Record<string, string> };
    calls.push(call);
    if (!(path in routes)) return Promise.resolve(new Response('not found', { status: 404 }));
    const route = routes[path];
    const value: unknown = typeof route === 'function' ? (route)(body, call) : route;
    const env: Envelope =
      typeof value === 'object' && value !== null && '__envelope' in value
        ? (value as { __envelope: Envelope }).__envelope
        : { code: 0, message: '', data: value };
    return Promise.resolve(new Response(JSON.stringify(env), { headers: { 'Content-Type': 'application/json' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, called: (path: string) => calls.filter((c) => c.path === path) };
}
