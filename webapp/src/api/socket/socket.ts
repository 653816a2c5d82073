/**
 * The one chat socket of the web app (screens never open a WebSocket themselves): it
 * connects with the chat token, sends Login first, matches replies to requests by
 * operationID, hands pushes to listeners by event name, reconnects 500 ms after a close,
 * checks the login status once a second after 9 s without traffic, and ends on
 * OnKickedOffline / OnUserTokenExpired without reconnecting.
 *
 * Everything with a side effect (the WebSocket, timers, the clock, the network state) comes
 * in through `SocketEnvironment`, so the rules are unit-tested without a browser.
 */
import {
  ChatErrorCode,
  ChatRequestError,
  decodeFrame,
  encodeRequest,
  SocketErrorCode,
  type ReplyFrame,
} from './protocol';
import { PUSH_EVENTS, type PushEventName, type PushEvents } from './types';

/** connecting (first time or again), connected, kicked offline, token expired; idle = signed out. */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'kicked' | 'expired';

/** The part of WebSocket the module uses. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface SocketEnvironment {
  open(url: string): WebSocketLike;
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
  now(): number;
  /** False when the device says it is offline. */
  online(): boolean;
  operationId(): string;
}

export interface SocketConfig {
  /** ws(s)://host/ws */
  url: string;
  platformID: number;
  reconnectDelayMs: number;
  /** Traffic-free time after which the login status is checked. */
  idleMs: number;
  /** How often the idle time is looked at. */
  heartbeatMs: number;
  /** How long a request waits for its reply (spec: socket 60 s). */
  requestTimeoutMs: number;
  /** How long a login-status check may take before the socket is replaced. */
  statusTimeoutMs: number;
}

export const defaultSocketConfig: Omit<SocketConfig, 'url'> = {
  platformID: 5,
  reconnectDelayMs: 500,
  idleMs: 9_000,
  heartbeatMs: 1_000,
  requestTimeoutMs: 60_000,
  statusTimeoutMs: 5_000,
};

export interface Credentials {
  userID: string;
  token: string;
}

export interface RequestOptions {
  timeoutMs?: number;
}

interface Pending {
  name: string;
  frame: string;
  sent: boolean;
  resolve: (data: unknown) => void;
  reject: (error: ChatRequestError) => void;
  timer: number;
}

type PushHandler<E extends PushEventName> = (data: PushEvents[E]) => void;

const OPEN = 1;
const CLOSE_TOKEN_EXPIRED = 4001;
const CLOSE_KICKED = 4003;

export class ChatSocket {
  private readonly env: SocketEnvironment;
  private readonly config: SocketConfig;
  private credentials: Credentials | null = null;
  private ws: WebSocketLike | null = null;
  /** Bumped on every new socket: events of an older one are ignored. */
  private generation = 0;
  private loginOperation = '';
  private currentState: ConnectionState = 'idle';
  /** The errCode that kicked this session offline: 1305 (signed in elsewhere) or 1362 (device limit). */
  private kickCode = 0;
  private hasConnected = false;
  private lastTraffic = 0;
  private checking = false;
  private heartbeatTimer = 0;
  private reconnectTimer = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly pushListeners = new Map<string, Set<(data: unknown) => void>>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly connectedListeners = new Set<(reconnect: boolean) => void>();

  constructor(config: SocketConfig, env: SocketEnvironment) {
    this.config = config;
    this.env = env;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  /** Whether the session was kicked because the account signed in on more devices than allowed. */
  get kickedByDeviceLimit(): boolean {
    return this.currentState === 'kicked' && this.kickCode === ChatErrorCode.deviceLimit;
  }

  /** Whether this session has been signed in before (a connecting state is then a reconnect). */
  get connectedBefore(): boolean {
    return this.hasConnected;
  }

  get userID(): string {
    return this.credentials?.userID ?? '';
  }

  /** The chat token of the session this socket is (or was last) signed in with. */
  get token(): string {
    return this.credentials?.token ?? '';
  }

  /** Connects as `credentials`; a call with other credentials replaces the session. */
  start(credentials: Credentials): void {
    const same =
      this.credentials?.userID === credentials.userID && this.credentials.token === credentials.token;
    if (same && this.currentState !== 'idle') return;
    if (this.credentials) this.stop();
    this.credentials = { ...credentials };
    this.hasConnected = false;
    this.connect();
  }

  /** Signs the socket out (Logout, then close) and stays idle. */
  stop(): void {
    const ws = this.ws;
    if (ws && this.currentState === 'connected' && ws.readyState === OPEN) {
      try {
        ws.send(encodeRequest('Logout', this.env.operationId(), this.userID, []));
      } catch {
        // closing anyway
      }
    }
    this.teardown(SocketErrorCode.closed);
    this.credentials = null;
    this.hasConnected = false;
    this.setState('idle');
  }

  /** Reconnects at once if a reconnect is waiting (e.g. the device came back online). */
  nudge(): void {
    if (this.currentState === 'connecting' && this.reconnectTimer) {
      this.env.clearTimeout(this.reconnectTimer);
      this.reconnectTimer = 0;
      this.connect();
    }
  }

  /** Sends a request; resolves with the reply's data, rejects with a ChatRequestError. */
  request<T>(name: string, args: readonly unknown[] = [], options: RequestOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!this.credentials || this.currentState === 'kicked' || this.currentState === 'expired') {
        reject(new ChatRequestError(SocketErrorCode.notConnected, 'socket not connected', name));
        return;
      }
      if (!this.env.online()) {
        reject(new ChatRequestError(SocketErrorCode.offline, 'network offline', name));
        return;
      }
      const operationID = this.env.operationId();
      const timeoutMs = options.timeoutMs ?? this.config.requestTimeoutMs;
      const entry: Pending = {
        name,
        frame: encodeRequest(name, operationID, this.credentials.userID, args),
        sent: false,
        resolve: (data) => {
          resolve(data as T);
        },
        reject,
        timer: this.env.setTimeout(() => {
          if (this.pending.delete(operationID)) {
            reject(new ChatRequestError(SocketErrorCode.notConnected, 'request timed out', name));
          }
        }, timeoutMs),
      };
      this.pending.set(operationID, entry);
      // Before Login is answered requests wait; they go out once the socket is signed in.
      if (this.currentState === 'connected') this.send(entry);
    });
  }

  /** Subscribes to a push event; returns the unsubscribe function. */
  on<E extends PushEventName>(event: E, handler: PushHandler<E>): () => void {
    let set = this.pushListeners.get(event);
    if (!set) {
      set = new Set();
      this.pushListeners.set(event, set);
    }
    const listener = handler as (data: unknown) => void;
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  /** Called after every successful Login; `reconnect` is true after the first one. */
  onConnected(listener: (reconnect: boolean) => void): () => void {
    this.connectedListeners.add(listener);
    return () => {
      this.connectedListeners.delete(listener);
    };
  }

  private setState(state: ConnectionState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    for (const listener of [...this.stateListeners]) listener(state);
  }

  private connect(): void {
    const credentials = this.credentials;
    if (!credentials) return;
    this.reconnectTimer = 0;
    this.setState('connecting');
    const generation = ++this.generation;
    this.loginOperation = this.env.operationId();
    const query = new URLSearchParams({
      sendID: credentials.userID,
      token: credentials.token,
      platformID: String(this.config.platformID),
      operationID: this.loginOperation,
    });
    let ws: WebSocketLike;
    try {
      ws = this.env.open(`${this.config.url}?${query.toString()}`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (generation !== this.generation) return;
      this.lastTraffic = this.env.now();
      ws.send(encodeRequest('Login', this.loginOperation, credentials.userID, [credentials.userID, credentials.token]));
    };
    ws.onmessage = (event) => {
      if (generation !== this.generation || typeof event.data !== 'string') return;
      this.lastTraffic = this.env.now();
      const frame = decodeFrame(event.data);
      if (frame) this.receive(frame);
    };
    ws.onerror = () => {
      // A close event follows; it decides what happens next.
    };
    ws.onclose = (event) => {
      if (generation !== this.generation) return;
      this.closed(event.code);
    };
    this.startHeartbeat();
  }

  private receive(frame: ReplyFrame): void {
    if (frame.event === 'Login' && frame.operationID === this.loginOperation) {
      this.loginAnswered(frame);
      return;
    }
    if (frame.event === 'OnKickedOffline') {
      this.kickCode = frame.errCode;
      this.end('kicked');
      this.emit('OnKickedOffline', null);
      return;
    }
    if (frame.event === 'OnUserTokenExpired') {
      this.end('expired');
      this.emit('OnUserTokenExpired', null);
      return;
    }
    const entry = frame.operationID ? this.pending.get(frame.operationID) : undefined;
    if (entry) {
      this.pending.delete(frame.operationID);
      this.env.clearTimeout(entry.timer);
      if (frame.errCode === 0) entry.resolve(frame.data);
      else entry.reject(new ChatRequestError(frame.errCode, frame.errMsg, frame.event || entry.name));
      return;
    }
    if ((PUSH_EVENTS as readonly string[]).includes(frame.event)) {
      this.emit(frame.event as PushEventName, frame.data);
    }
  }

  private loginAnswered(frame: ReplyFrame): void {
    // The device limit is a kick too: reconnecting with this token would only be refused again.
    if (frame.errCode === ChatErrorCode.kicked || frame.errCode === ChatErrorCode.deviceLimit) {
      this.kickCode = frame.errCode;
      this.end('kicked');
      return;
    }
    if (frame.errCode === ChatErrorCode.tokenExpired) {
      this.end('expired');
      return;
    }
    if (frame.errCode !== 0) {
      // The server could not sign the socket in (busy): try again like after a close.
      this.replaceSocket();
      return;
    }
    const reconnect = this.hasConnected;
    this.hasConnected = true;
    this.setState('connected');
    for (const entry of this.pending.values()) {
      if (!entry.sent) this.send(entry);
    }
    for (const listener of [...this.connectedListeners]) listener(reconnect);
  }

  private send(entry: Pending): void {
    const ws = this.ws;
    if (ws?.readyState !== OPEN) return;
    try {
      ws.send(entry.frame);
      entry.sent = true;
    } catch {
      // The close event re-queues nothing: the request fails with 111 there.
    }
  }

  private emit(event: PushEventName, data: unknown): void {
    const set = this.pushListeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(data);
      } catch (error) {
        // One broken listener must not starve the others of the push.
        console.warn('chat push listener failed', event, error);
      }
    }
  }

  private closed(code: number): void {
    if (code === CLOSE_KICKED) {
      this.end('kicked');
      return;
    }
    if (code === CLOSE_TOKEN_EXPIRED) {
      this.end('expired');
      return;
    }
    this.failSent();
    this.ws = null;
    this.scheduleReconnect();
  }

  /** Requests already on the wire cannot be answered any more; queued ones wait. */
  private failSent(): void {
    for (const [id, entry] of this.pending) {
      if (!entry.sent) continue;
      this.pending.delete(id);
      this.env.clearTimeout(entry.timer);
      entry.reject(new ChatRequestError(SocketErrorCode.closed, 'socket closed', entry.name));
    }
  }

  private scheduleReconnect(): void {
    if (!this.credentials || this.currentState === 'kicked' || this.currentState === 'expired') return;
    this.setState('connecting');
    if (this.reconnectTimer) return;
    this.reconnectTimer = this.env.setTimeout(() => {
      this.reconnectTimer = 0;
      this.connect();
    }, this.config.reconnectDelayMs);
  }

  /** Drops the current socket without waiting for its close handshake, then reconnects. */
  private replaceSocket(): void {
    const ws = this.ws;
    this.generation += 1;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close(4000, 'reconnect');
      } catch {
        // already closed
      }
    }
    this.failSent();
    this.scheduleReconnect();
  }

  /** Kicked or expired: no reconnect; every request fails. */
  private end(state: 'kicked' | 'expired'): void {
    this.teardown(SocketErrorCode.closed);
    this.setState(state);
  }

  private teardown(code: number): void {
    this.generation += 1;
    if (this.reconnectTimer) this.env.clearTimeout(this.reconnectTimer);
    if (this.heartbeatTimer) this.env.clearTimeout(this.heartbeatTimer);
    this.reconnectTimer = 0;
    this.heartbeatTimer = 0;
    this.checking = false;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close(1000);
      } catch {
        // already closed
      }
    }
    for (const entry of this.pending.values()) {
      this.env.clearTimeout(entry.timer);
      entry.reject(new ChatRequestError(code, 'socket closed', entry.name));
    }
    this.pending.clear();
  }

  private startHeartbeat(): void {
    if (this.heartbeatTimer) return;
    const tick = (): void => {
      this.heartbeatTimer = this.env.setTimeout(tick, this.config.heartbeatMs);
      this.heartbeat();
    };
    this.heartbeatTimer = this.env.setTimeout(tick, this.config.heartbeatMs);
  }

  private heartbeat(): void {
    if (this.currentState !== 'connected' || this.checking) return;
    if (this.env.now() - this.lastTraffic < this.config.idleMs) return;
    this.checking = true;
    const generation = this.generation;
    this.request<number>('GetLoginStatus', [], { timeoutMs: this.config.statusTimeoutMs }).then(
      () => {
        this.checking = false;
      },
      (error: unknown) => {
        this.checking = false;
        if (generation !== this.generation) return;
        if (error instanceof ChatRequestError && error.code === SocketErrorCode.closed) return;
        // No answer, or the server no longer knows the sign-in: a fresh socket logs in again.
        this.replaceSocket();
      },
    );
  }
}
