import { describe, expect, it, vi } from 'vitest';
import { bridgeBusinessPushes, createPushHub } from './pushes';

describe('push hub', () => {
  it('hands each key its data, parsed from the JSON string the socket carries', () => {
    const hub = createPushHub(() => 42);
    const phase = vi.fn();
    const other = vi.fn();
    hub.on('round.phase', phase);
    hub.on('balance', other);
    hub.deliver({ key: 'round.phase', data: '{"windowId":1,"phase":"drawing"}' });
    expect(phase).toHaveBeenCalledWith({ windowId: 1, phase: 'drawing' }, 42);
    expect(other).not.toHaveBeenCalled();
  });

  it('passes data that is already an object, or not JSON, as it is', () => {
    const hub = createPushHub();
    const listener = vi.fn<(data: unknown) => void>();
    hub.on('k', listener);
    hub.deliver({ key: 'k', data: { a: 1 } });
    hub.deliver({ key: 'k', data: 'plain text' });
    expect(listener.mock.calls.map((c) => c[0])).toEqual([{ a: 1 }, 'plain text']);
  });

  it('ignores malformed pushes and stops after unsubscribe', () => {
    const hub = createPushHub();
    const listener = vi.fn();
    const off = hub.on('k', listener);
    hub.deliver({ key: 7, data: '{}' });
    off();
    hub.deliver({ key: 'k', data: '{}' });
    expect(listener).not.toHaveBeenCalled();
  });

  it('tells resync listeners that the stream resumed', () => {
    const hub = createPushHub();
    const listener = vi.fn();
    const off = hub.onResync(listener);
    hub.resync();
    off();
    hub.resync();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('bridgeBusinessPushes', () => {
  it('feeds the hub from the socket and resyncs after a reconnect only', () => {
    let message: ((n: { key: string; data: string }) => void) | null = null;
    let connected: ((reconnect: boolean) => void) | null = null;
    const source = {
      on: (_event: 'OnRecvCustomBusinessMessage', listener: (n: { key: string; data: string }) => void) => {
        message = listener;
        return () => {
          message = null;
        };
      },
      onConnected: (listener: (reconnect: boolean) => void) => {
        connected = listener;
        return () => {
          connected = null;
        };
      },
    };
    const hub = createPushHub();
    const balance = vi.fn();
    const resync = vi.fn();
    hub.on('balance', balance);
    hub.onResync(resync);
    const stop = bridgeBusinessPushes(source, hub);
    message!({ key: 'balance', data: '{"amount":2980,"change":1980}' });
    expect(balance).toHaveBeenCalledWith({ amount: 2980, change: 1980 }, expect.any(Number));
    connected!(false);
    expect(resync).not.toHaveBeenCalled();
    connected!(true);
    expect(resync).toHaveBeenCalledTimes(1);
    stop();
    expect(message).toBeNull();
    expect(connected).toBeNull();
  });
});
