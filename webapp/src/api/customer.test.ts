import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiEnvironment } from './client';
import { defaultApiConfig } from './config';
import { createCustomerApi, CustomerSocket, customerSocketUrl, type CustomerServerFrame } from './customer';
import { STORAGE_KEYS, type KeyValueStore } from './storage';
import { memoryStore } from '../test/memoryStore';

class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.();
  }
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {
    this.readyState = 3;
  }
}

afterEach(() => {
  vi.useRealTimers();
  FakeSocket.instances = [];
});

describe('customerSocketUrl', () => {
  const location = { protocol: 'https:', host: 'app.example' } as Location;
  it('puts the socket beside the API, with only the parameters given', () => {
    expect(customerSocketUrl('/api', { visitorId: 'v_1', token: '', lang: 'en-US' }, location)).toBe(
      'wss://app.example/ws/customer?visitorId=v_1&lang=en-US',
    );
    expect(customerSocketUrl('http://10.0.0.2:8080/api', {}, location)).toBe('ws://10.0.0.2:8080/ws/customer');
  });
});

describe('CustomerSocket', () => {
  function connect(store: KeyValueStore) {
    const frames: CustomerServerFrame[] = [];
    const states: string[] = [];
    const onReconnect = vi.fn();
    const socket = new CustomerSocket({
      apiBase: 'http://h/api',
      store,
      language: () => 'zh-CN',
      onFrame: (f) => frames.push(f),
      onState: (s) => states.push(s),
      onReconnect,
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    socket.connect();
    return { socket, frames, states, onReconnect };
  }

  it('connects with the visitor key, the token and the language; keeps a new key', () => {
    const store = memoryStore({ [STORAGE_KEYS.customerVisitorId]: 'v_old', [STORAGE_KEYS.token]: 'T' });
    const { frames } = connect(store);
    const ws = FakeSocket.instances[0]!;
    expect(ws.url).toBe('ws://h/ws/customer?visitorId=v_old&token=T&lang=zh-CN');
    ws.open();
    ws.receive({ type: 'init', visitorId: 'v_new', visitorNo: '9', serviceName: 'Ann' });
    expect(store.get(STORAGE_KEYS.customerVisitorId)).toBe('v_new');
    expect(frames[0]).toMatchObject({ type: 'init', serviceName: 'Ann' });
  });

  it('sends only while open, and ignores frames that are not JSON objects', () => {
    const { socket, frames } = connect(memoryStore());
    const ws = FakeSocket.instances[0]!;
    expect(socket.send('hi', 'c1')).toBe(false);
    ws.open();
    expect(socket.send('hi', 'c1')).toBe(true);
    expect(JSON.parse(ws.sent[0]!)).toEqual({ type: 'send', content: 'hi', clientMsgId: 'c1' });
    ws.onmessage?.({ data: 'not json' });
    ws.onmessage?.({ data: '[1]' });
    expect(frames).toHaveLength(0);
  });

  it('reconnects 500 ms after a drop and reports the reconnect; backs off while refused', () => {
    vi.useFakeTimers();
    const { states, onReconnect, socket } = connect(memoryStore());
    FakeSocket.instances[0]!.open();
    FakeSocket.instances[0]!.drop();
    expect(states).toEqual(['connecting', 'open', 'closed']);
    vi.advanceTimersByTime(499);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    // Refused again: the next try waits 1 s, then 2 s.
    FakeSocket.instances[1]!.drop();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);
    FakeSocket.instances[2]!.open();
    expect(onReconnect).toHaveBeenCalledTimes(1);
    socket.close();
    FakeSocket.instances[2]!.drop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(3);
  });

  it('pings to keep the connection alive', () => {
    vi.useFakeTimers();
    connect(memoryStore());
    const ws = FakeSocket.instances[0]!;
    ws.open();
    vi.advanceTimersByTime(20_000);
    expect(ws.sent.map((s) => JSON.parse(s) as unknown)).toEqual([{ type: 'ping' }]);
  });
});

describe('customer API', () => {
  it('sends the stored visitor key and keeps the one the server answers', async () => {
    const store = memoryStore({ [STORAGE_KEYS.customerVisitorId]: 'v_1' });
    const seen: Record<string, string>[] = [];
    const env: ApiEnvironment = {
      fetch: (_url, init) => {
        seen.push(init.headers as Record<string, string>);
        return Promise.resolve(new Response(JSON.stringify({ code: 0, message: '', data: { visitorId: 'v_2', visitorNo: '5' } })));
      },
      storage: store,
      translate: (key) => key,
      language: () => 'en-US',
      toast: () => undefined,
      navigate: () => undefined,
      currentPath: () => '/',
      schedule: () => undefined,
      sleep: () => Promise.resolve(),
    };
    const api = createCustomerApi(createApiClient(defaultApiConfig, env), store);
    const init = await api.init();
    expect(init.visitorNo).toBe('5');
    expect(seen[0]!['X-Visitor-Id']).toBe('v_1');
    expect(store.get(STORAGE_KEYS.customerVisitorId)).toBe('v_2');
  });
});
