import { expect, vi } from 'vitest';
import { ChatSocket, defaultSocketConfig, type SocketEnvironment, type WebSocketLike } from '../api/socket/socket';

interface Frame {
  reqFuncName: string;
  operationID: string;
  data: string;
}

/** A WebSocket the test drives: it records frames and replies or pushes on demand. */
export class ScriptedWebSocket implements WebSocketLike {
  readyState = 0;
  sent: Frame[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  /** Answers requests by name (data or an error); unanswered requests wait. */
  answers = new Map<string, (args: unknown[]) => { data?: unknown; errCode?: number; errMsg?: string }>();

  constructor(readonly url: string) {
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.(new Event('open'));
    });
  }

  send(text: string): void {
    const frame = JSON.parse(text) as Frame;
    this.sent.push(frame);
    const args = JSON.parse(frame.data || '[]') as unknown[];
    if (frame.reqFuncName === 'Login') {
      this.reply(frame, {});
      return;
    }
    const answer = this.answers.get(frame.reqFuncName);
    if (answer) this.reply(frame, answer(args));
  }

  close(): void {
    this.readyState = 3;
  }

  reply(frame: Frame, { data, errCode = 0, errMsg = '' }: { data?: unknown; errCode?: number; errMsg?: string }): void {
    queueMicrotask(() => {
      this.onmessage?.(
        new MessageEvent('message', {
          data: JSON.stringify({
            event: frame.reqFuncName,
            errCode,
            errMsg,
            operationID: frame.operationID,
            data: data === undefined ? '' : JSON.stringify(data),
          }),
        }),
      );
    });
  }

  push(event: string, data: unknown): void {
    this.onmessage?.(
      new MessageEvent('message', { data: JSON.stringify({ event, errCode: 0, errMsg: '', operationID: '', data: JSON.stringify(data) }) }),
    );
  }
}

/** A ChatSocket over ScriptedWebSocket with real timers. */
export function scriptedSocket() {
  const sockets: ScriptedWebSocket[] = [];
  let op = 0;
  const env: SocketEnvironment = {
    open: (url) => {
      const ws = new ScriptedWebSocket(url);
      sockets.push(ws);
      return ws;
    },
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (id) => {
      window.clearTimeout(id);
    },
    now: () => Date.now(),
    online: () => true,
    operationId: () => `op${++op}`,
  };
  const socket = new ChatSocket({ ...defaultSocketConfig, url: 'ws://test/ws' }, env);
  return {
    socket,
    sockets,
    get ws(): ScriptedWebSocket {
      const ws = sockets.at(-1);
      if (!ws) throw new Error('no socket');
      return ws;
    },
  };
}

/** A scriptedSocket started as user 1 and already connected. */
export async function connectedSocket() {
  const harness = scriptedSocket();
  harness.socket.start({ userID: '1', token: 't' });
  await vi.waitFor(() => {
    expect(harness.socket.state).toBe('connected');
  });
  return harness;
}
