/**
 * The console's HTTP client: the `{code, message, data}` envelope, the `token` and
 * `Accept-Language` headers, one token renewal with the jwt on 401 (shared by the requests
 * that were waiting), and the end of the session on 402/403. Screens call `api` and `upload`.
 */
import { clearSession, readSession, writeSession, type OperatorSession } from '../state/session';

export class ApiError extends Error {
  readonly code: number;
  readonly status: number;

  constructor(code: number, message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

/** Client-side code for a request that never got an envelope back. */
export const NETWORK_FAILED = -1;

/** The console signs in as OpenIM's admin platform, so a player session in the same browser stays. */
export const ADMIN_PLATFORM = 10;

let language = 'zh-CN';
export function setApiLanguage(lang: string): void {
  language = lang;
}

interface Envelope {
  code: number;
  message: string;
  data: unknown;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number';
}

async function send(path: string, init: RequestInit, token: string): Promise<{ env: Envelope; status: number }> {
  const headers = new Headers(init.headers);
  headers.set('Accept-Language', language);
  if (token) headers.set('token', token);
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers });
  } catch {
    throw new ApiError(NETWORK_FAILED, '', 0);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(NETWORK_FAILED, response.statusText, response.status);
  }
  if (!isEnvelope(body)) throw new ApiError(NETWORK_FAILED, response.statusText, response.status);
  return { env: body, status: response.status };
}

let renewal: Promise<boolean> | null = null;

/** Renews the access token with the jwt once for every request that met a 401 meanwhile. */
function renew(session: OperatorSession): Promise<boolean> {
  renewal ??= (async () => {
    try {
      const { env } = await send(
        '/jwt/login',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: session.jwt, platform: ADMIN_PLATFORM, operationID: operationId() }),
        },
        '',
      );
      if (env.code !== 0) return false;
      const data = env.data as { token: string; jwt: string };
      writeSession({ ...session, token: data.token, jwt: data.jwt || session.jwt });
      return true;
    } catch {
      return false;
    } finally {
      setTimeout(() => (renewal = null), 0);
    }
  })();
  return renewal;
}

export function operationId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

async function call<T>(path: string, init: RequestInit, asToken?: string): Promise<T> {
  if (asToken !== undefined) {
    // A token not (yet) the session's: sign-in checks who it belongs to before keeping it.
    const { env, status } = await send(path, init, asToken);
    if (env.code !== 0) throw new ApiError(env.code, env.message, status);
    return env.data as T;
  }
  const session = readSession();
  let { env, status } = await send(path, init, session?.token ?? '');
  if (env.code === 401 && session?.jwt) {
    if (await renew(session)) ({ env, status } = await send(path, init, readSession()?.token ?? ''));
  }
  if (env.code === 401 || env.code === 402 || env.code === 403) clearSession();
  if (env.code !== 0) throw new ApiError(env.code, env.message, status);
  return env.data as T;
}

/**
 * POSTs a JSON body to /api<path> and resolves with `data` when the code is 0. `asToken` sends
 * that token instead of the session's, without renewal or ending the session.
 */
export function api<T>(path: string, body: object = {}, asToken?: string): Promise<T> {
  return call<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, asToken);
}

/** POSTs one file as multipart field `file`. */
export function upload<T>(path: string, file: File): Promise<T> {
  const form = new FormData();
  form.append('file', file);
  return call<T>(path, { method: 'POST', body: form });
}
