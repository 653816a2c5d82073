/**
 * Customer service (docs/API.md "Customer service"): the HTTP calls and the `/ws/customer` socket.
 * It works without login. The visitor key the server hands out is kept in local storage and
 * sent as `X-Visitor-Id` (the server also sets it as an HttpOnly cookie, which a backup host on
 * another origin would not see) and as `?visitorId=` on the socket.
 */
import { defaultApiConfig } from './config';
import { api, ApiError, ApiErrorCode, newOperationId, type ApiClient, type RequestOptions } from './client';
import type { ContentPage } from './content';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from './storage';

export interface CustomerInit {
  visitorId: string;
  visitorNo: string;
  userId: string;
  serviceId: string;
  serviceName: string;
  welcome: string;
  unread: number;
}

/**
 * What a visitor asks about: a same-city listing or a video (by id), a recharge (amount in
 * cents), or the day's video allowance. It travels beside the message, so the draft the player
 * sees names no internal id; the server titles it from its own store for the agent.
 */
export type CustomerAbout =
  | { kind: 'listing' | 'video'; id: string }
  | { kind: 'recharge'; amount: number; currency: string }
  | { kind: 'videoLimit' };

/** An enquiry's context as the agents see it. */
export interface CustomerContext {
  kind: string;
  id?: string;
  title?: string;
  amount?: number;
  currency?: string;
}

/** Status 1 sent, 2 read by the other side. */
export interface CustomerMessage {
  _id: string;
  visitorNo: string;
  from: 'visitor' | 'agent';
  serviceId: string;
  content: string;
  status: number;
  createdAt: number;
  context?: CustomerContext;
}

export const CUSTOMER_MESSAGE_MAX = 2000;

export function createCustomerApi(client: ApiClient = api, store: KeyValueStore = browserStore) {
  const options = (extra?: RequestOptions): RequestOptions => {
    const visitorId = store.get(STORAGE_KEYS.customerVisitorId);
    return visitorId ? { ...extra, headers: { ...extra?.headers, 'X-Visitor-Id': visitorId } } : { ...extra };
  };
  return {
    async init(extra?: RequestOptions): Promise<CustomerInit> {
      const data = await client.request<CustomerInit>('/customer/init', {}, options(extra));
      if (data.visitorId) store.set(STORAGE_KEYS.customerVisitorId, data.visitorId);
      return data;
    },
    /** Newest first. */
    messages: (page: number, pageSize = 20, extra?: RequestOptions) =>
      client.request<ContentPage<CustomerMessage>>('/customer/messages', { page, pageSize }, options(extra)),
    send: (content: string, extra?: RequestOptions, about?: CustomerAbout) =>
      client.request<CustomerMessage>('/customer/send', about ? { content, context: about } : { content }, options(extra)),
  };
}

export type CustomerApi = ReturnType<typeof createCustomerApi>;

export const customerApi: CustomerApi = createCustomerApi();

/**
 * POST /chat/upload (multipart, kind image; signed-in users only — the server keeps files per
 * account): answers the picture's /files/... address, which is then sent as the message.
 */
export async function uploadCustomerImage(file: Blob, name = 'image', client: ApiClient = api): Promise<string> {
  const form = new FormData();
  form.append('kind', 'image');
  form.append('file', file, name);
  const data = await client.upload<{ url?: unknown }>('/chat/upload', form, { quiet: true });
  if (typeof data.url !== 'string' || data.url === '') throw new ApiError(ApiErrorCode.badResponse, '');
  return data.url;
}

export type CustomerServerFrame =
  | ({ type: 'init' } & Partial<CustomerInit>)
  | { type: 'message'; visitorNo: string; message: CustomerMessage }
  | { type: 'read'; visitorNo: string; by: 'visitor' | 'agent'; upto: string }
  | { type: 'assigned'; visitorNo: string; serviceId: string; serviceName: string }
  | { type: 'ack'; clientMsgId: string; message: CustomerMessage }
  | { type: 'error'; clientMsgId?: string; code: number; message: string }
  | { type: 'pong' };

export type CustomerSocketState = 'connecting' | 'open' | 'closed';

export interface CustomerSocketOptions {
  /** Base URL of the API (`/api` or `https://host/api`); the socket lives at `/ws/customer` beside it. */
  apiBase?: string;
  store?: KeyValueStore;
  language: () => string;
  onFrame: (frame: CustomerServerFrame) => void;
  onState: (state: CustomerSocketState) => void;
  /** Called when the socket opened again after a drop: messages may have been missed. */
  onReconnect: () => void;
  createSocket?: (url: string) => WebSocket;
  reconnectDelayMs?: number;
  pingIntervalMs?: number;
}

/** `/api` → `ws(s)://<page host>/ws/customer`; `https://h/api` → `wss://h/ws/customer`. */
export function customerSocketUrl(apiBase: string, query: Record<string, string>, location: Location = window.location): string {
  let origin: string;
  if (/^https?:\/\//i.test(apiBase)) {
    const url = new URL(apiBase);
    origin = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
  } else {
    origin = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const qs = params.toString();
  return `${origin}/ws/customer${qs ? `?${qs}` : ''}`;
}

function isFrame(value: unknown): value is CustomerServerFrame {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * The visitor's socket: reconnects 500 ms after a close, like the chat socket, pings to keep idle
 * proxies from closing it, and reports a reconnect so the page reloads the newest messages.
 */
export class CustomerSocket {
  private socket: WebSocket | null = null;
  private stopped = false;
  private openedBefore = false;
  /** Attempts since the socket was last open: the delay doubles after the first one. */
  private failures = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private readonly options: Required<Omit<CustomerSocketOptions, 'apiBase'>> & { apiBase: string };

  constructor(options: CustomerSocketOptions) {
    this.options = {
      apiBase: options.apiBase ?? defaultApiConfig.hosts[0] ?? '/api',
      store: options.store ?? browserStore,
      createSocket: options.createSocket ?? ((url) => new WebSocket(url)),
      reconnectDelayMs: options.reconnectDelayMs ?? 500,
      pingIntervalMs: options.pingIntervalMs ?? 20_000,
      language: options.language,
      onFrame: options.onFrame,
      onState: options.onState,
      onReconnect: options.onReconnect,
    };
  }

  connect(): void {
    this.stopped = false;
    this.open();
  }

  private open(): void {
    if (this.stopped) return;
    const { store } = this.options;
    const url = customerSocketUrl(this.options.apiBase, {
      visitorId: store.get(STORAGE_KEYS.customerVisitorId) ?? '',
      token: store.get(STORAGE_KEYS.token) ?? '',
      lang: this.options.language(),
    });
    this.options.onState('connecting');
    let socket: WebSocket;
    try {
      socket = this.options.createSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.failures = 0;
      this.options.onState('open');
      if (this.openedBefore) this.options.onReconnect();
      this.openedBefore = true;
      this.pingTimer = setInterval(() => {
        this.sendFrame({ type: 'ping' });
      }, this.options.pingIntervalMs);
    };
    socket.onmessage = (event: MessageEvent) => {
      if (this.socket !== socket || typeof event.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!isFrame(frame)) return;
      if (frame.type === 'init' && frame.visitorId) store.set(STORAGE_KEYS.customerVisitorId, frame.visitorId);
      this.options.onFrame(frame);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.clearPing();
      this.socket = null;
      this.options.onState('closed');
      this.scheduleReconnect();
    };
    socket.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    // 500 ms after a drop; a server that keeps refusing is asked less and less often (≤ 16 s).
    const delay = this.options.reconnectDelayMs * 2 ** Math.min(this.failures, 5);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, delay);
  }

  private clearPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private sendFrame(frame: Record<string, unknown>): boolean {
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  /** Sends a message; false when the socket is not open (the caller falls back to HTTP). */
  send(content: string, clientMsgId: string, about?: CustomerAbout): boolean {
    return this.sendFrame(about ? { type: 'send', content, clientMsgId, context: about } : { type: 'send', content, clientMsgId });
  }

  markRead(): boolean {
    return this.sendFrame({ type: 'read' });
  }

  close(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.clearPing();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      socket.onerror = null;
      socket.close(1000);
    }
  }
}

/** A client id for one outgoing message (matches its ack). */
export function newClientMsgId(): string {
  return `c${newOperationId()}`;
}
