import { describe, expect, it, vi } from 'vitest';
import { createPushHub } from './pushes';

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
