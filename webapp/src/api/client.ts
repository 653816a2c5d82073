/**
 * The one HTTP client of the web app. It owns the `{code,message,data}`
 * envelope, the `token` and `Accept-Language` headers, the 15 s timeout, retries with backup
 * lines, and the session rules: 401 renews the token once (single flight) with the stored jwt
 * and replays the waiting requests; 402 and 403 end the session. Screens never call fetch.
 *
 * Everything with a side effect (fetch, storage, toast, navigation, time) comes in through
 * `ApiEnvironment`, so the rules are unit-tested without a browser.
 */
import { loginPath, LOGIN_PATH } from '../navigation/paths';
import { currentLanguage, i18n } from '../i18n';
import { showToast } from '../state/toast';
import { defaultApiConfig, type ApiConfig } from './config';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from './storage';

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** Client-side codes; server codes are 0 and positive. */
export const ApiErrorCode = {
  /** The network failed on every attempt. */
  network: -1,
  /** The caller aborted the request. */
  aborted: -2,
  /** The server answered something that is not the envelope, or an incomplete one. */
  badResponse: -3,
} as const;

export class ApiError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

export type ApiTextKey =
  | 'api.loginInvalid'
  | 'api.loggedInElsewhere'
  | 'api.networkFailed'
  | 'api.reconnectFailed'
  | 'api.loginFailed';

export interface ApiEnvironment {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  storage: KeyValueStore;
  translate: (key: ApiTextKey, options?: { count: number }) => string;
  /** Product language code sent as Accept-Language. */
  language: () => string;
  toast: (message: string) => void;
  navigate: (path: string) => void;
  /** Path plus query of the current page, to come back after sign-in. */
  currentPath: () => string;
  schedule: (fn: () => void, ms: number) => void;
  sleep: (ms: number) => Promise<void>;
}

export type Payload = Record<string, unknown>;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Do not toast failures; the caller shows `ApiError.message` itself. */
  quiet?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
  /** Overrides the 15 s request timeout (uploads get 60 s). */
  timeoutMs?: number;
  /** Attempts before giving up on the network (default 60; a best-effort beacon sends once). */
  maxAttempts?: number;
}

type TransportOptions = RequestOptions;

export interface LoginInput {
  account: string;
  password: string;
}

export interface LoginResult {
  token: string;
  jwt: string;
  chatToken: string;
  userId: string;
}

export interface ApiClient {
  /** Calls `path` under the base URL and resolves with `data` when `code` is 0. */
  request<T>(path: string, body?: Payload, options?: RequestOptions): Promise<T>;
  /** POSTs a multipart form (file uploads) with the same envelope and session rules. */
  upload<T>(path: string, form: FormData, options?: RequestOptions): Promise<T>;
  /** POST /accountLogin; stores token, jwt, chat token and user id. */
  accountLogin(input: LoginInput, options?: RequestOptions): Promise<LoginResult>;
  /**
   * POST /accountLoginAtm, the switch-account sign-in: the same as `accountLogin`, and the
   * server signs out the session whose token the request still carries.
   */
  switchAccount(input: LoginInput, options?: RequestOptions): Promise<LoginResult>;
  /** POST /logout (best effort), then clears the session locally. */
  logout(): Promise<void>;
  /** The base URL requests currently go to (moves to a backup line on repeated failures). */
  currentHost(): string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return isRecord(value) && typeof value.code === 'number';
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

export function newOperationId(): string {
  const random = Math.random().toString(36).slice(2, 10);
  return `${Date.now().toString(36)}${random}`;
}

function queryString(body: Payload | undefined): string {
  if (!body) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') params.append(key, JSON.stringify(value));
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      params.append(key, String(value));
    }
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

type Attempt = { kind: 'answer'; envelope: Envelope<unknown> } | { kind: 'retry' };

async function readAnswer(response: Response): Promise<Attempt> {
  const body = await response.text();
  let parsed: unknown;
  try {
    parsed = body ? JSON.parse(body) : undefined;
  } catch {
    parsed = undefined;
  }
  if (isEnvelope(parsed)) {
    return {
      kind: 'answer',
      envelope: { code: parsed.code, message: text(parsed.message), data: parsed.data },
    };
  }
  const { status } = response;
  if (status === 401 || status === 402 || status === 403) {
    return { kind: 'answer', envelope: { code: status, message: '', data: null } };
  }
  // A gateway or proxy error without our envelope: the server was not reached.
  if (status === 0 || status >= 500) return { kind: 'retry' };
  const code = status >= 400 ? status : ApiErrorCode.badResponse;
  return { kind: 'answer', envelope: { code, message: '', data: null } };
}

/** Where the alternative API hosts are listed, as `/getBaseData` names it (kept in storage). */
interface LineSource {
  urls: string[];
  combineId: string;
}

function storedLineSource(storage: KeyValueStore): LineSource | null {
  try {
    const parsed: unknown = JSON.parse(storage.get(STORAGE_KEYS.lineList) ?? 'null');
    if (!isRecord(parsed) || !Array.isArray(parsed.urls)) return null;
    return {
      urls: parsed.urls.filter((u): u is string => typeof u === 'string' && u !== ''),
      combineId: text(parsed.combineId),
    };
  } catch {
    return null;
  }
}

/** Remembers the code-API addresses the server names, for the day its primary host stops answering. */
export function setLineList(urls: readonly string[], combineId: string, storage: KeyValueStore = browserStore): void {
  if (urls.length === 0) storage.remove(STORAGE_KEYS.lineList);
  else storage.set(STORAGE_KEYS.lineList, JSON.stringify({ urls, combineId }));
}

/** The hosts of a line-list answer: one base URL a line, blank lines and non-URLs skipped, trailing slashes cut. */
export function parseLines(body: string): string[] {
  return body
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\/+$/, ''))
    .filter((line) => /^https?:\/\/[^\s]+$/i.test(line));
}

/** The list rotated to start at `offset`, so clients spread over the lines instead of all taking the first. */
export function rotate<T>(list: readonly T[], offset: number): T[] {
  if (list.length === 0) return [];
  const start = ((offset % list.length) + list.length) % list.length;
  return [...list.slice(start), ...list.slice(0, start)];
}

export function createApiClient(config: ApiConfig, env: ApiEnvironment): ApiClient {
  const hosts: string[] = config.hosts.length > 0 ? [...config.hosts] : ['/api'];
  let hostIndex = 0;
  let lineFetch: Promise<void> | null = null;
  let linesFetched = false;

  /**
   * Asks each code-API address in order (GET with the combine id) for the alternative API
   * hosts, one a line; the first that answers adds its lines, rotated, to the hosts. Once per
   * client: the hosts it learnt stay in the rotation.
   */
  function fetchLines(): Promise<void> {
    if (linesFetched) return Promise.resolve();
    lineFetch ??= (async () => {
      const stored = storedLineSource(env.storage);
      const urls = [...new Set([...config.lineListUrls, ...(stored?.urls ?? [])])];
      const combineId = [stored?.combineId].find((id) => id) ?? config.combineId;
      for (const url of urls) {
        const controller = new AbortController();
        const timer = setTimeout(() => {
          controller.abort();
        }, config.timeoutMs);
        try {
          const separator = url.includes('?') ? '&' : '?';
          const response = await env.fetch(`${url}${separator}${new URLSearchParams({ combineId }).toString()}`, {
            method: 'GET',
            headers: { Accept: 'text/plain' },
            signal: controller.signal,
          });
          if (!response.ok) continue;
          const lines = parseLines(await response.text());
          if (lines.length === 0) continue;
          linesFetched = true;
          for (const line of rotate(lines, Math.floor(Math.random() * lines.length))) {
            if (!hosts.includes(line)) hosts.push(line);
          }
          return;
        } catch {
          // This address does not answer either: try the next one.
        } finally {
          clearTimeout(timer);
        }
      }
    })().finally(() => {
      lineFetch = null;
    });
    return lineFetch;
  }
  let renewal: Promise<boolean> | null = null;

  const { storage } = env;

  function endSession(): void {
    storage.remove(STORAGE_KEYS.token);
    storage.remove(STORAGE_KEYS.jwt);
    storage.remove(STORAGE_KEYS.wsToken);
    storage.remove(STORAGE_KEYS.userId);
  }

  function goToLogin(): void {
    const from = env.currentPath();
    if (from.startsWith(LOGIN_PATH)) return;
    env.navigate(loginPath(from));
  }

  /** Sends one request, retrying network failures; resolves with whatever envelope came back. */
  async function transport(
    path: string,
    body: Payload | FormData | undefined,
    options: TransportOptions,
  ): Promise<Envelope<unknown>> {
    const method = options.method ?? 'POST';
    const maxAttempts = options.maxAttempts ?? config.maxAttempts;
    let failures = 0;
    for (;;) {
      const usedIndex = hostIndex;
      const form = body instanceof FormData ? body : undefined;
      const fields = body instanceof FormData ? undefined : body;
      const url = `${hosts[usedIndex] ?? hosts[0] ?? ''}${path}${method === 'GET' ? queryString(fields) : ''}`;
      const headers: Record<string, string> = {
        ...options.headers,
        Accept: 'application/json',
        'Accept-Language': env.language(),
      };
      const token = storage.get(STORAGE_KEYS.token);
      if (token) headers.token = token;
      const init: RequestInit = { method, headers };
      if (method === 'POST') {
        if (form) {
          // The browser writes the multipart Content-Type with its boundary.
          init.body = form;
        } else {
          headers['Content-Type'] = 'application/json';
          init.body = JSON.stringify(fields ?? {});
        }
      }

      const controller = new AbortController();
      const abort = (): void => {
        controller.abort();
      };
      options.signal?.addEventListener('abort', abort);
      const timer = setTimeout(abort, options.timeoutMs ?? config.timeoutMs);
      let attempt: Attempt;
      try {
        if (options.signal?.aborted) controller.abort();
        init.signal = controller.signal;
        const response = await env.fetch(url, init);
        attempt = await readAnswer(response);
      } catch {
        if (options.signal?.aborted) throw new ApiError(ApiErrorCode.aborted, 'aborted');
        // Network error or the 15 s timeout: both count as a failed attempt.
        attempt = { kind: 'retry' };
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', abort);
      }
      if (attempt.kind === 'answer') return attempt.envelope;

      failures += 1;
      const message = env.translate('api.reconnectFailed', { count: failures });
      if (failures >= maxAttempts) {
        if (!options.quiet) env.toast(message);
        throw new ApiError(ApiErrorCode.network, message);
      }
      // More than two failures: say so, learn the alternative hosts and move to the next
      // line, unless another request already did.
      if (failures > config.switchHostAfterFailures) {
        if (!options.quiet) env.toast(message);
        if (hostIndex === usedIndex) {
          await fetchLines();
          if (hosts.length > 1 && hostIndex === usedIndex) hostIndex = (usedIndex + 1) % hosts.length;
        }
      }
      await env.sleep(config.retryDelayMs);
    }
  }

  /** One `/jwt/login` at a time; every request that met a 401 meanwhile waits for it. */
  function renew(): Promise<boolean> {
    renewal ??= (async (): Promise<boolean> => {
      const jwt = storage.get(STORAGE_KEYS.jwt);
      if (!jwt) return false;
      try {
        const envelope = await transport(
          '/jwt/login',
          {
            token: jwt,
            packageId: config.packageId,
            operationID: newOperationId(),
            platform: config.platform,
          },
          { quiet: true },
        );
        if (envelope.code !== 0 || !isRecord(envelope.data)) return false;
        const token = text(envelope.data.token);
        if (!token) return false;
        storage.set(STORAGE_KEYS.token, token);
        const nextJwt = text(envelope.data.jwt);
        if (nextJwt) storage.set(STORAGE_KEYS.jwt, nextJwt);
        const chatToken = text(envelope.data.chatToken);
        if (chatToken) storage.set(STORAGE_KEYS.wsToken, chatToken);
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      renewal = null;
    });
    return renewal;
  }

  async function call<T>(
    path: string,
    body: Payload | FormData | undefined,
    options: RequestOptions,
    replayed: boolean,
  ): Promise<T> {
    // A renewal in flight: wait for the new token rather than collect another 401.
    if (renewal) await renewal;
    const sentToken = storage.get(STORAGE_KEYS.token);
    const { code, message, data } = await transport(path, body, options);

    if (code === 0) return data as T;

    if (code === 401) {
      if (!replayed) {
        const current = storage.get(STORAGE_KEYS.token);
        // Another request renewed the token after this one was sent: just replay.
        if (current && current !== sentToken) return call<T>(path, body, options, true);
        if (storage.get(STORAGE_KEYS.jwt) && (await renew())) {
          return call<T>(path, body, options, true);
        }
      }
      endSession();
      goToLogin();
      throw new ApiError(code, message || env.translate('api.loginInvalid'));
    }

    if (code === 402) {
      storage.remove(STORAGE_KEYS.jwt);
      const shown = message || env.translate('api.loginInvalid');
      env.toast(shown);
      throw new ApiError(code, shown);
    }

    if (code === 403) {
      storage.remove(STORAGE_KEYS.jwt);
      storage.remove(STORAGE_KEYS.token);
      const shown = message || env.translate('api.loggedInElsewhere');
      env.toast(shown);
      env.schedule(goToLogin, config.kickedRedirectDelayMs);
      throw new ApiError(code, shown);
    }

    const shown = message || env.translate('api.networkFailed');
    if (!options.quiet) env.toast(shown);
    throw new ApiError(code, shown);
  }

  async function signIn(path: string, input: LoginInput, options: RequestOptions): Promise<LoginResult> {
    const data = await call<unknown>(
      path,
      {
        account: input.account,
        password: input.password,
        operationID: newOperationId(),
        platform: config.platform,
      },
      options,
      false,
    );
    const record = isRecord(data) ? data : {};
    const result: LoginResult = {
      token: text(record.token),
      jwt: text(record.jwt),
      chatToken: text(record.chatToken),
      userId: text(record.userId),
    };
    // Spec section 4: a login answer without token or jwt is rejected.
    if (!result.token || !result.jwt) {
      const shown = env.translate('api.loginFailed');
      if (!options.quiet) env.toast(shown);
      throw new ApiError(ApiErrorCode.badResponse, shown);
    }
    storage.set(STORAGE_KEYS.token, result.token);
    storage.set(STORAGE_KEYS.jwt, result.jwt);
    if (result.chatToken) storage.set(STORAGE_KEYS.wsToken, result.chatToken);
    else storage.remove(STORAGE_KEYS.wsToken);
    if (result.userId) storage.set(STORAGE_KEYS.userId, result.userId);
    else storage.remove(STORAGE_KEYS.userId);
    return result;
  }

  return {
    request<T>(path: string, body?: Payload, options: RequestOptions = {}): Promise<T> {
      return call<T>(path, body, options, false);
    },

    upload<T>(path: string, form: FormData, options: RequestOptions = {}): Promise<T> {
      return call<T>(path, form, { timeoutMs: config.uploadTimeoutMs, ...options, method: 'POST' }, false);
    },

    accountLogin(input, options = {}) {
      return signIn('/accountLogin', input, options);
    },

    switchAccount(input, options = {}) {
      return signIn('/accountLoginAtm', input, options);
    },

    async logout() {
      try {
        await transport(
          '/logout',
          {
            chatToken: storage.get(STORAGE_KEYS.wsToken) ?? '',
            operationID: newOperationId(),
            platform: config.platform,
          },
          { quiet: true, maxAttempts: 1 },
        );
      } catch {
        // Signing out locally must work offline too.
      } finally {
        endSession();
      }
    },

    currentHost() {
      return hosts[hostIndex] ?? hosts[0] ?? '';
    },
  };
}

let navigateTo: (path: string) => void = (path) => {
  window.location.assign(path);
};

/** The router registers its navigate function here at start-up (no full page reload). */
export function setApiNavigator(navigate: (path: string) => void): void {
  navigateTo = navigate;
}

export const browserEnvironment: ApiEnvironment = {
  fetch: (url, init) => fetch(url, init),
  storage: browserStore,
  translate: (key, options) => (options ? i18n.t(key, options) : i18n.t(key)),
  language: () => currentLanguage(),
  toast: (message) => {
    showToast(message);
  },
  navigate: (path) => {
    navigateTo(path);
  },
  currentPath: () => `${window.location.pathname}${window.location.search}`,
  schedule: (fn, ms) => {
    window.setTimeout(fn, ms);
  },
  sleep: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms);
    }),
};

/** The app's client. */
export const api: ApiClient = createApiClient(defaultApiConfig, browserEnvironment);
