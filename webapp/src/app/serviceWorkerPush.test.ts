// @vitest-environment node
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

type Listener = (event: Record<string, unknown>) => void;

interface Shown {
  title: string;
  options: { body: string; tag: string; data: { url: string; conversationID: string; seq: number } };
}

/** Runs webapp/public/sw.js with stand-ins for the worker's globals, recording what it shows and opens. */
function loadWorker(windows: { url: string; navigate: (url: string) => Promise<unknown> }[] = []) {
  const listeners = new Map<string, Listener>();
  const shown: Shown[] = [];
  const current = new Map<string, Shown['options']>(); // what the browser shows, one per tag
  const opened: string[] = [];
  const focused: string[] = [];
  const scope = {
    location: { href: 'https://kj.test/sw.js?v=test', origin: 'https://kj.test' },
    addEventListener: (type: string, f: Listener) => listeners.set(type, f),
    registration: {
      showNotification: (title: string, options: Shown['options']) => {
        shown.push({ title, options });
        current.set(options.tag, options);
        return Promise.resolve();
      },
      getNotifications: ({ tag }: { tag: string }) => {
        const n = current.get(tag);
        return Promise.resolve(n ? [{ data: n.data }] : []);
      },
    },
    clients: {
      matchAll: () =>
        Promise.resolve(
          windows.map((w) => ({
            ...w,
            focus: () => {
              focused.push(w.url);
              return Promise.resolve(null);
            },
          })),
        ),
      openWindow: (url: string) => {
        opened.push(url);
        return Promise.resolve(null);
      },
    },
  };
  runInNewContext(readFileSync(fileURLToPath(new URL('../../public/sw.js', import.meta.url)), 'utf8'), { self: scope, URL });
  const fire = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    const listener = listeners.get(type);
    if (!listener) throw new Error(`sw.js registers no ${type} listener`);
    listener({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { fire, shown, opened, focused };
}

const pushOf = (payload: unknown) => ({ data: { json: () => payload } });

describe('the service worker shows Web Push messages', () => {
  it('shows the sender and text, one notification per conversation, with the page to open', async () => {
    const w = loadWorker();
    await w.fire('push', pushOf({ conversationID: 'si_1_2', title: 'Alice', body: 'hello', url: '/pages/chat/conversation?conversationID=si_1_2' }));
    await w.fire('push', pushOf({ conversationID: 'si_1_2', title: 'Alice', body: 'again', url: '/pages/chat/conversation?conversationID=si_1_2' }));
    await w.fire('push', pushOf({ conversationID: 'sg_9', title: 'Bob', body: 'group', url: '/pages/chat/conversation?conversationID=sg_9' }));
    expect(w.shown.map((s) => [s.title, s.options.body, s.options.tag])).toEqual([
      ['Alice', 'hello', 'conversation-si_1_2'],
      ['Alice', 'again', 'conversation-si_1_2'],
      ['Bob', 'group', 'conversation-sg_9'],
    ]);
    expect(w.shown[0]?.options.data.url).toBe('/pages/chat/conversation?conversationID=si_1_2');
  });

  it('never replaces a newer message of the conversation with an older one (push services do not keep order)', async () => {
    const w = loadWorker();
    const push = (seq: number, body: string) => pushOf({ conversationID: 'si_1_2', title: 'Alice', body, url: '/', seq });
    await w.fire('push', push(5, 'fifth'));
    await w.fire('push', push(3, 'third, late'));
    await w.fire('push', push(6, 'sixth'));
    await w.fire('push', push(6, 'sixth, again'));
    expect(w.shown.map((s) => [s.options.body, s.options.data.seq])).toEqual([
      ['fifth', 5],
      ['sixth', 6],
      ['sixth, again', 6],
    ]);
  });

  it('shows something for a push it cannot read, and never a link off the app', async () => {
    const w = loadWorker();
    await w.fire('push', { data: { json: () => JSON.parse('not json') as unknown } });
    await w.fire('push', pushOf({ conversationID: 'si_1_2', title: 'x', body: 'y', url: 'https://evil.test/' }));
    await w.fire('push', pushOf({ conversationID: 'si_1_2', title: 'x', body: 'y', url: '//evil.test/' }));
    expect(w.shown.map((s) => s.options.data.url)).toEqual(['/', '/', '/']);
    expect(w.shown[0]?.title).toBe('kj');
  });

  it('a tap opens the conversation: in the open window, else a new one', async () => {
    const navigate = vi.fn(() => Promise.resolve(null));
    const open = loadWorker([{ url: 'https://kj.test/pages/tabBar/mine', navigate }]);
    const close = vi.fn();
    const notification = { close, data: { url: '/pages/chat/conversation?conversationID=sg_9' } };
    await open.fire('notificationclick', { notification });
    expect(close).toHaveBeenCalled();
    expect(open.focused).toEqual(['https://kj.test/pages/tabBar/mine']);
    expect(navigate).toHaveBeenCalledWith('https://kj.test/pages/chat/conversation?conversationID=sg_9');
    expect(open.opened).toEqual([]);

    const none = loadWorker([{ url: 'https://other.test/', navigate }]);
    await none.fire('notificationclick', { notification });
    expect(none.opened).toEqual(['https://kj.test/pages/chat/conversation?conversationID=sg_9']);

    // A window this worker does not control cannot be navigated: a new window opens instead.
    const uncontrolled = loadWorker([{ url: 'https://kj.test/', navigate: () => Promise.reject(new Error('not controlled')) }]);
    await uncontrolled.fire('notificationclick', { notification });
    expect(uncontrolled.opened).toEqual(['https://kj.test/pages/chat/conversation?conversationID=sg_9']);
  });
});
