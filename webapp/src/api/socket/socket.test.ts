import { describe, expect, it } from 'vitest';
import { ChatRequestError, SocketErrorCode } from './protocol';
import { ChatSocket, defaultSocketConfig, type SocketEnvironment, type WebSocketLike } from './socket';

interface SentFrame {
  reqFuncName: string;
  operationID: string;
  userID: string;
  data: string;
}

class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  sent: SentFrame[] = [];
  closedWith: number | null = null;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as SentFrame);
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  receive(frame: { event: string; errCode?: number; errMsg?: string; data?: unknown; operationID?: string }): void {
    const data = frame.data === undefined ? '' : JSON.stringify(frame.data);
    this.onmessage?.(
      new MessageEvent('message', {
        data: JSON.stringify({ errCode: 0, errMsg: '', operationID: '', ...frame, data }),
      }),
    );
  }

  /** The server closes the socket. */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code }));
  }

  last(name: string): SentFrame {
    const frame = [...this.sent].reverse().find((f) => f.reqFuncName === name);
    if (!frame) throw new Error(`no ${name} sent`);
    return frame;
  }

  /** Opens and answers Login. */
  signIn(): void {
    this.open();
    this.receive({ event: 'Login', operationID: this.last('Login').operationID });
  }
}

class Harness implements SocketEnvironment {
  time = 1_000_000;
  sockets: FakeWebSocket[] = [];
  isOnline = true;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextTimer = 1;
  private nextOp = 1;

  open(url: string): WebSocketLike {
    const ws = new FakeWebSocket(url);
    this.sockets.push(ws);
    return ws;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextTimer++;
    this.timers.set(id, { at: this.time + ms, fn });
    return id;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  now(): number {
    return this.time;
  }

  online(): boolean {
    return this.isOnline;
  }

  operationId(): string {
    return `op${this.nextOp++}`;
  }

  /** Moves the clock, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      }
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
  }

  get socket(): FakeWebSocket {
    const ws = this.sockets.at(-1);
    if (!ws) throw new Error('no socket opened');
    return ws;
  }
}

function setup() {
  const env = new Harness();
  const socket = new ChatSocket({ ...defaultSocketConfig, url: 'ws://kj.test/ws' }, env);
  const states: string[] = [];
  socket.onStateChange((s) => states.push(s));
  return { env, socket, states };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ChatSocket', () => {
  it('connects with the chat token in the query and sends Login first', () => {
    const { env, socket, states } = setup();
    socket.start({ userID: '42', token: 'chat-token' });
    const url = new URL(env.socket.url);
    expect(`${url.origin}${url.pathname}`).toBe('ws://kj.test/ws');
    expect(url.searchParams.get('sendID')).toBe('42');
    expect(url.searchParams.get('token')).toBe('chat-token');
    expect(url.searchParams.get('platformID')).toBe('5');
    expect(url.searchParams.get('operationID')).toBeTruthy();
    env.socket.open();
    expect(env.socket.sent[0]?.reqFuncName).toBe('Login');
    expect(JSON.parse(env.socket.sent[0]?.data ?? '')).toEqual(['42', 'chat-token']);
    expect(env.socket.sent[0]?.operationID).toBe(url.searchParams.get('operationID'));
    expect(states).toEqual(['connecting']);
    env.socket.receive({ event: 'Login', operationID: env.socket.sent[0]?.operationID ?? '' });
    expect(socket.state).toBe('connected');
  });

  it('holds requests until Login is answered, then matches replies by operationID', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    const first = socket.request<{ ok: boolean }>('GetSelfUserInfo');
    const second = socket.request<number>('GetTotalUnreadMsgCount');
    env.socket.open();
    expect(env.socket.sent.map((f) => f.reqFuncName)).toEqual(['Login']);
    env.socket.receive({ event: 'Login', operationID: env.socket.last('Login').operationID });
    expect(env.socket.sent.map((f) => f.reqFuncName)).toEqual(['Login', 'GetSelfUserInfo', 'GetTotalUnreadMsgCount']);
    // Answered out of order.
    env.socket.receive({ event: 'GetTotalUnreadMsgCount', data: 7, operationID: env.socket.last('GetTotalUnreadMsgCount').operationID });
    env.socket.receive({ event: 'GetSelfUserInfo', data: { ok: true }, operationID: env.socket.last('GetSelfUserInfo').operationID });
    await expect(second).resolves.toBe(7);
    await expect(first).resolves.toEqual({ ok: true });
  });

  it('encodes object and array arguments as JSON strings inside the data array', () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    void socket.request('SendMessage', [{ clientMsgID: 'c1' }, '7', '', { title: '' }, false]);
    void socket.request('InviteUserToGroup', ['g1', '', ['1', '2']]);
    expect(JSON.parse(env.socket.last('SendMessage').data)).toEqual(['{"clientMsgID":"c1"}', '7', '', '{"title":""}', false]);
    expect(JSON.parse(env.socket.last('InviteUserToGroup').data)).toEqual(['g1', '', '["1","2"]']);
    void socket.request('GetAllConversationList');
    expect(env.socket.last('GetAllConversationList').data).toBe('[]');
  });

  it('rejects a failed call with the errCode and errMsg of the reply', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    const sent = socket.request('SendMessage', []);
    env.socket.receive({ event: 'SendMessage', errCode: 1322, errMsg: 'You are muted', operationID: env.socket.last('SendMessage').operationID });
    const error = await sent.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatRequestError);
    expect(error).toMatchObject({ code: 1322, message: 'You are muted', event: 'SendMessage' });
  });

  it('hands pushes to listeners by event name', () => {
    const { env, socket } = setup();
    const got: unknown[] = [];
    const off = socket.on('OnTotalUnreadMessageCountChanged', (n) => got.push(n));
    socket.on('OnRecvCustomBusinessMessage', (n) => got.push(n));
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    env.socket.receive({ event: 'OnTotalUnreadMessageCountChanged', data: 3 });
    env.socket.receive({ event: 'OnRecvCustomBusinessMessage', data: { key: 'balance', data: '{"cents":100}' } });
    off();
    env.socket.receive({ event: 'OnTotalUnreadMessageCountChanged', data: 4 });
    expect(got).toEqual([3, { key: 'balance', data: '{"cents":100}' }]);
  });

  it('reconnects 500 ms after a close, fails requests on the wire with 111, and logs in again', async () => {
    const { env, socket, states } = setup();
    const connected: boolean[] = [];
    socket.onConnected((again) => connected.push(again));
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    const inFlight = socket.request('GetAllConversationList');
    env.socket.drop();
    await expect(inFlight).rejects.toMatchObject({ code: SocketErrorCode.closed });
    expect(socket.state).toBe('connecting');
    const queued = socket.request<number>('GetTotalUnreadMsgCount');
    env.advance(499);
    expect(env.sockets).toHaveLength(1);
    env.advance(1);
    expect(env.sockets).toHaveLength(2);
    env.socket.signIn();
    expect(connected).toEqual([false, true]);
    env.socket.receive({ event: 'GetTotalUnreadMsgCount', data: 2, operationID: env.socket.last('GetTotalUnreadMsgCount').operationID });
    await expect(queued).resolves.toBe(2);
    expect(states).toEqual(['connecting', 'connected', 'connecting', 'connected']);
  });

  it('keeps retrying every 500 ms while the server refuses to open', () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.drop();
    env.advance(500);
    env.socket.drop();
    env.advance(500);
    expect(env.sockets).toHaveLength(3);
    expect(socket.state).toBe('connecting');
  });

  it('checks the login status once a second after 9 s without traffic', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    env.advance(8_000);
    expect(env.socket.sent.filter((f) => f.reqFuncName === 'GetLoginStatus')).toHaveLength(0);
    env.advance(1_000);
    expect(env.socket.sent.filter((f) => f.reqFuncName === 'GetLoginStatus')).toHaveLength(1);
    // The answer is traffic: no new check before another 9 s of silence.
    env.socket.receive({ event: 'GetLoginStatus', data: 3, operationID: env.socket.last('GetLoginStatus').operationID });
    await flush();
    env.advance(8_000);
    expect(env.socket.sent.filter((f) => f.reqFuncName === 'GetLoginStatus')).toHaveLength(1);
    // A push is traffic too.
    env.socket.receive({ event: 'OnTotalUnreadMessageCountChanged', data: 1 });
    env.advance(8_000);
    expect(env.socket.sent.filter((f) => f.reqFuncName === 'GetLoginStatus')).toHaveLength(1);
    env.advance(1_000);
    expect(env.socket.sent.filter((f) => f.reqFuncName === 'GetLoginStatus')).toHaveLength(2);
  });

  it('replaces a socket whose login-status check goes unanswered', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    const first = env.socket;
    env.advance(9_000);
    expect(first.sent.at(-1)?.reqFuncName).toBe('GetLoginStatus');
    env.advance(5_000); // the check times out
    await flush();
    expect(first.closedWith).toBe(4000);
    expect(socket.state).toBe('connecting');
    env.advance(500);
    expect(env.sockets).toHaveLength(2);
    env.socket.signIn();
    expect(socket.state).toBe('connected');
  });

  it('OnKickedOffline ends the session without reconnecting', async () => {
    const { env, socket } = setup();
    const kicked: unknown[] = [];
    socket.on('OnKickedOffline', () => kicked.push(true));
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    const pending = socket.request('GetFriendList');
    env.socket.receive({ event: 'OnKickedOffline', errCode: 1305, errMsg: 'kicked' });
    expect(socket.state).toBe('kicked');
    expect(kicked).toEqual([true]);
    await expect(pending).rejects.toMatchObject({ code: SocketErrorCode.closed });
    env.advance(5_000);
    expect(env.sockets).toHaveLength(1);
    await expect(socket.request('GetFriendList')).rejects.toMatchObject({ code: SocketErrorCode.notConnected });
  });

  it('a refused Login (token expired) or close code 4003 (kicked) ends the session', () => {
    const a = setup();
    a.socket.start({ userID: '42', token: 'old' });
    a.env.socket.open();
    a.env.socket.receive({ event: 'Login', errCode: 1304, errMsg: 'expired', operationID: a.env.socket.last('Login').operationID });
    expect(a.socket.state).toBe('expired');
    a.env.advance(2_000);
    expect(a.env.sockets).toHaveLength(1);

    const b = setup();
    b.socket.start({ userID: '42', token: 't' });
    b.env.socket.signIn();
    b.env.socket.drop(4003);
    expect(b.socket.state).toBe('kicked');
    b.env.advance(2_000);
    expect(b.env.sockets).toHaveLength(1);
  });

  it('the device limit (1362) is a kick of its own: no reconnect, told apart from "signed in elsewhere"', () => {
    // Kicked on a live socket.
    const a = setup();
    a.socket.start({ userID: '42', token: 't' });
    a.env.socket.signIn();
    a.env.socket.receive({ event: 'OnKickedOffline', errCode: 1362, errMsg: 'too many devices' });
    expect(a.socket.state).toBe('kicked');
    expect(a.socket.kickedByDeviceLimit).toBe(true);
    a.env.advance(5_000);
    expect(a.env.sockets).toHaveLength(1);

    // Refused at Login (the socket of a device already signed out): no retry every 500 ms.
    const b = setup();
    b.socket.start({ userID: '42', token: 'old' });
    b.env.socket.open();
    b.env.socket.receive({ event: 'Login', errCode: 1362, errMsg: 'too many devices', operationID: b.env.socket.last('Login').operationID });
    expect(b.socket.state).toBe('kicked');
    expect(b.socket.kickedByDeviceLimit).toBe(true);
    b.env.advance(5_000);
    expect(b.env.sockets).toHaveLength(1);

    // The platform policy's kick is not the device limit.
    const c = setup();
    c.socket.start({ userID: '42', token: 't' });
    c.env.socket.signIn();
    c.env.socket.receive({ event: 'OnKickedOffline', errCode: 1305, errMsg: 'kicked' });
    expect(c.socket.state).toBe('kicked');
    expect(c.socket.kickedByDeviceLimit).toBe(false);
  });

  it('stop() logs out and stays idle; new credentials open a new session', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    const pending = socket.request('GetFriendList');
    socket.stop();
    expect(env.socket.last('Logout')).toBeTruthy();
    expect(env.socket.closedWith).toBe(1000);
    expect(socket.state).toBe('idle');
    await expect(pending).rejects.toMatchObject({ code: SocketErrorCode.closed });
    env.advance(2_000);
    expect(env.sockets).toHaveLength(1);
    socket.start({ userID: '43', token: 'u' });
    expect(env.sockets).toHaveLength(2);
    expect(new URL(env.socket.url).searchParams.get('sendID')).toBe('43');
    // The same credentials again change nothing.
    socket.start({ userID: '43', token: 'u' });
    expect(env.sockets).toHaveLength(2);
  });

  it('fails at once with 113 while the device is offline, and nudge() reconnects without waiting', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    env.isOnline = false;
    await expect(socket.request('GetFriendList')).rejects.toMatchObject({ code: SocketErrorCode.offline });
    env.socket.drop();
    env.isOnline = true;
    socket.nudge();
    expect(env.sockets).toHaveLength(2);
  });

  it('times out a request that gets no reply', async () => {
    const { env, socket } = setup();
    socket.start({ userID: '42', token: 't' });
    env.socket.signIn();
    const pending = socket.request('GetFriendList', [], { timeoutMs: 1_000 });
    env.advance(1_000);
    await expect(pending).rejects.toMatchObject({ code: SocketErrorCode.notConnected });
  });
});
