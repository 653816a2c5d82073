import { vi } from 'vitest';

export type Handler = (body: Record<string, unknown>, init: RequestInit) => unknown;

export interface FakeCall {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** An answer other than success: `{code, message}` in the envelope. */
export class Refusal {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}

const MANIFEST = {
  package: { normal: { version: '', path: '', remark: '' }, force: { version: '', path: '', remark: '' } },
  resource: { version: '', path: '' },
};

/** What a server without operator settings answers to the app's start-up calls. */
const PLATFORM: Record<string, Handler> = {
  '/getDomainInfo': () => ({ platformId: 10000, packageId: 100002001, appName: 'kj', ossUrl: '' }),
  '/getBaseData': () => ({ appName: 'kj', smsEnabled: true, lineListUrls: [], combineId: 'kj' }),
  '/onloadImg': () => ({ image: '', link: '', seconds: 0 }),
  '/zztj': (body) => ({ event: body.event, day: '2026-01-01', count: 1 }),
};

/**
 * Stubs global fetch with a tiny server: each path answers what its handler returns inside
 * the `{code, message, data}` envelope (a thrown or returned `Refusal` becomes its code).
 * `/resource/download` answers an empty manifest and the start-up calls (domain, base data,
 * launch image, beacon) a server without operator settings, unless a test says otherwise; any other
 * unknown path fails the test.
 */
export function fakeServer(handlers: Record<string, Handler>) {
  const calls: FakeCall[] = [];
  const all: Record<string, Handler> = { '/resource/download': () => MANIFEST, ...PLATFORM, ...handlers };
  const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
    const path = url.replace(/^\/api/, '').split('?')[0] ?? '';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    calls.push({ path, body, headers: (init.headers ?? {}) as Record<string, string> });
    const handler = all[path];
    let envelope: { code: number; message: string; data: unknown };
    if (!handler) {
      envelope = { code: 1006, message: `no fake for ${path}`, data: null };
    } else {
      try {
        const data = handler(body, init);
        envelope = data instanceof Refusal ? { code: data.code, message: data.message, data: null } : { code: 0, message: 'ok', data };
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        envelope = { code: error.code, message: error.message, data: null };
      }
    }
    return Promise.resolve(new Response(JSON.stringify(envelope), { headers: { 'Content-Type': 'application/json' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    /** Calls of one path, in order. */
    callsTo: (path: string) => calls.filter((c) => c.path === path),
  };
}
