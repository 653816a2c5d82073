import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scriptedSocket as newScriptedSocket } from '../test/fakeSocket';
import {
  chatConnectionAtom,
  chatReconnectingAtom,
  chatSessionEndedAtom,
  onAnyBusinessPush,
  onBusinessPush,
  replacingChatSession,
  syncChatSession,
} from './chat';
import { createBrowserStore, STORAGE_KEYS } from './storage';

// Every socket a test started is stopped after it: one left connected keeps its heartbeat
// timer, which fires after the test environment (and its window) is gone on a slow box.
const started: ReturnType<typeof newScriptedSocket>[] = [];
function scriptedSocket(): ReturnType<typeof newScriptedSocket> {
  const harness = newScriptedSocket();
  started.push(harness);
  return harness;
}
afterEach(() => {
  for (const harness of started.splice(0)) harness.socket.stop();
});

describe('onBusinessPush', () => {
  it('hands over the decoded data of one key only', async () => {
    const harness = scriptedSocket();
    const { socket } = harness;
    socket.start({ userID: '1', token: 't' });
    await vi.waitFor(() => {
      expect(socket.state).toBe('connected');
    });
    const { ws } = harness;
    const got: unknown[] = [];
    const off = onBusinessPush('balance', (data, raw) => got.push([data, raw]), socket);
    ws.push('OnRecvCustomBusinessMessage', { key: 'round', data: '{"phase":1}' });
    ws.push('OnRecvCustomBusinessMessage', { key: 'balance', data: '{"cents":1250}' });
    ws.push('OnRecvCustomBusinessMessage', { key: 'balance', data: 'not json' });
    off();
    ws.push('OnRecvCustomBusinessMessage', { key: 'balance', data: '{"cents":1}' });
    expect(got).toEqual([
      [{ cents: 1250 }, '{"cents":1250}'],
      ['not json', 'not json'],
    ]);
  });

  it('hands every key to a dispatcher that wants them all', async () => {
    const harness = scriptedSocket();
    harness.socket.start({ userID: '1', token: 't' });
    await vi.waitFor(() => {
      expect(harness.socket.state).toBe('connected');
    });
    const got: unknown[] = [];
    const off = onAnyBusinessPush((key, data) => got.push([key, data]), harness.socket);
    harness.ws.push('OnRecvCustomBusinessMessage', { key: 'round.phase', data: '{"phase":2}' });
    harness.ws.push('OnRecvCustomBusinessMessage', { key: 'noticeUnread', data: '{"unread":3}' });
    off();
    expect(got).toEqual([
      ['round.phase', { phase: 2 }],
      ['noticeUnread', { unread: 3 }],
    ]);
  });
});

describe('syncChatSession', () => {
  it('connects with the stored chat token, mirrors the state, and signs out when the tokens go', async () => {
    const harness = scriptedSocket();
    const store = createBrowserStore();
    const jotai = createStore();
    const stop = syncChatSession(harness.socket, store, jotai);
    expect(harness.sockets).toHaveLength(0);
    expect(jotai.get(chatConnectionAtom)).toBe('idle');

    store.set(STORAGE_KEYS.token, 'access');
    store.set(STORAGE_KEYS.userId, '42');
    store.set(STORAGE_KEYS.wsToken, 'chat-token');
    expect(harness.sockets).toHaveLength(1);
    expect(new URL(harness.ws.url).searchParams.get('token')).toBe('chat-token');
    await vi.waitFor(() => {
      expect(jotai.get(chatConnectionAtom)).toBe('connected');
    });

    // A drop shows "reconnecting" until the socket is back.
    harness.ws.onclose?.(new CloseEvent('close', { code: 1006 }));
    expect(jotai.get(chatConnectionAtom)).toBe('connecting');
    expect(jotai.get(chatReconnectingAtom)).toBe(true);
    await vi.waitFor(() => {
      expect(jotai.get(chatConnectionAtom)).toBe('connected');
    }, { timeout: 3000 });
    expect(jotai.get(chatReconnectingAtom)).toBe(false);

    // A renewed chat token replaces the session.
    store.set(STORAGE_KEYS.wsToken, 'chat-token-2');
    expect(harness.ws.url).toContain('token=chat-token-2');

    store.remove(STORAGE_KEYS.token);
    expect(jotai.get(chatConnectionAtom)).toBe('idle');
    stop();
  });

  function signedIn(store: ReturnType<typeof createBrowserStore>, userID: string, chatToken: string): void {
    store.set(STORAGE_KEYS.token, `access-${userID}`);
    store.set(STORAGE_KEYS.userId, userID);
    store.set(STORAGE_KEYS.wsToken, chatToken);
  }

  /** User 42 signed in with chat token chat-a, and the session synced and connected. */
  async function connectedAs42() {
    const harness = scriptedSocket();
    const store = createBrowserStore();
    const jotai = createStore();
    signedIn(store, '42', 'chat-a');
    const stop = syncChatSession(harness.socket, store, jotai);
    await vi.waitFor(() => {
      expect(jotai.get(chatConnectionAtom)).toBe('connected');
    });
    return { harness, store, jotai, stop };
  }

  it('drops the stored session and reports it when the server says the token expired', async () => {
    const { harness, store, jotai, stop } = await connectedAs42();
    harness.ws.push('OnUserTokenExpired', null);
    expect(store.get(STORAGE_KEYS.wsToken)).toBeNull();
    expect(store.get(STORAGE_KEYS.token)).toBeNull();
    expect(jotai.get(chatSessionEndedAtom)).toBe('expired');
    expect(jotai.get(chatConnectionAtom)).toBe('idle');
    stop();
  });

  it('reports a kick by the device limit (1362) apart from a sign-in elsewhere (1305)', async () => {
    const kick = async (errCode: number) => {
      const { harness, store, jotai, stop } = await connectedAs42();
      harness.ws.onmessage?.(
        new MessageEvent('message', { data: JSON.stringify({ event: 'OnKickedOffline', errCode, errMsg: 'kicked', operationID: '', data: '' }) }),
      );
      expect(store.get(STORAGE_KEYS.wsToken)).toBeNull();
      const ended = jotai.get(chatSessionEndedAtom);
      stop();
      return ended;
    };
    expect(await kick(1362)).toBe('deviceLimit');
    expect(await kick(1305)).toBe('kicked');
  });

  it('keeps the next account signed in when a switch ends the session being left first', async () => {
    const { harness, store, jotai, stop } = await connectedAs42();
    const old = harness.ws;
    await replacingChatSession(
      () => {
        // The server ends the old session (its socket hears so) before the reply stores the next one.
        old.push('OnUserTokenExpired', null);
        signedIn(store, '77', 'chat-b');
        return Promise.resolve();
      },
      harness.socket,
      store,
      jotai,
    );
    expect(jotai.get(chatSessionEndedAtom)).toBeNull();
    expect(store.get(STORAGE_KEYS.wsToken)).toBe('chat-b');
    expect(harness.socket.userID).toBe('77');
    await vi.waitFor(() => {
      expect(jotai.get(chatConnectionAtom)).toBe('connected');
    });
    // The old socket's late words change nothing either.
    old.push('OnKickedOffline', null);
    expect(store.get(STORAGE_KEYS.wsToken)).toBe('chat-b');
    expect(jotai.get(chatConnectionAtom)).toBe('connected');
    stop();
  });

  it('ends the session after a switch that failed once the server had ended it', async () => {
    const { harness, store, jotai, stop } = await connectedAs42();
    const failed = replacingChatSession(
      () => {
        harness.ws.push('OnUserTokenExpired', null);
        return Promise.reject(new Error('network'));
      },
      harness.socket,
      store,
      jotai,
    );
    await expect(failed).rejects.toThrow('network');
    expect(store.get(STORAGE_KEYS.wsToken)).toBeNull();
    expect(jotai.get(chatSessionEndedAtom)).toBe('expired');
    stop();
  });
});
