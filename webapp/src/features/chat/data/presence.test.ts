import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserStatus } from '../../../api/socket/types';
import { connectedSocket } from '../../../test/fakeSocket';
import { PresenceWatch } from './presence';

afterEach(() => {
  vi.restoreAllMocks();
});

const status = (userID: string, s: number, lastSeen = 0): UserStatus => ({ userID, status: s, platformIDs: [], lastSeen });

describe('presence watch', () => {
  it('subscribes once per user, follows pushes, and unsubscribes when the last screen leaves', async () => {
    const { socket, ws } = await connectedSocket();
    const subscribe = vi.fn((ids: string[]) => Promise.resolve(ids.map((id) => status(id, 1))));
    const unsubscribe = vi.fn(() => Promise.resolve(null));
    const watch = new PresenceWatch(socket, { subscribeUsersStatus: subscribe, unsubscribeUsersStatus: unsubscribe });
    const seen = vi.fn();
    watch.subscribe(seen);

    const stopA = watch.watch('2');
    const stopB = watch.watch('2');
    expect(subscribe).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => {
      expect(watch.get('2')?.status).toBe(1);
    });

    ws.push('OnUserStatusChanged', status('2', 0, 1234));
    expect(watch.get('2')).toMatchObject({ status: 0, lastSeen: 1234 });
    // A push about someone no screen shows is ignored.
    ws.push('OnUserStatusChanged', status('7', 1));
    expect(watch.get('7')).toBeUndefined();
    expect(seen).toHaveBeenCalled();

    stopA();
    expect(unsubscribe).not.toHaveBeenCalled();
    stopB();
    expect(unsubscribe).toHaveBeenCalledWith(['2']);
    expect(watch.get('2')).toBeUndefined();
  });

  it('watches again after a reconnect (subscriptions belong to a socket)', async () => {
    const { socket, ws } = await connectedSocket();
    const subscribe = vi.fn((ids: string[]) => Promise.resolve(ids.map((id) => status(id, 1))));
    const watch = new PresenceWatch(socket, { subscribeUsersStatus: subscribe, unsubscribeUsersStatus: () => Promise.resolve(null) });
    watch.watch('2');
    expect(subscribe).toHaveBeenCalledTimes(1);
    ws.onclose?.(new CloseEvent('close', { code: 1006 }));
    await vi.waitFor(
      () => {
        expect(subscribe).toHaveBeenCalledTimes(2);
      },
      { timeout: 3000 },
    );
    expect(subscribe).toHaveBeenLastCalledWith(['2']);
  });

  it('asks again for a watched user who tells nothing, once a message makes them related', async () => {
    const { socket } = await connectedSocket();
    let related = false;
    const subscribe = vi.fn((ids: string[]) => Promise.resolve(ids.map((id) => (related ? status(id, 1) : status(id, 0)))));
    const watch = new PresenceWatch(socket, { subscribeUsersStatus: subscribe, unsubscribeUsersStatus: () => Promise.resolve(null) });
    watch.refresh('2'); // not watched: nothing to ask
    expect(subscribe).not.toHaveBeenCalled();
    watch.watch('2');
    await vi.waitFor(() => {
      expect(watch.get('2')).toMatchObject({ status: 0, lastSeen: 0 });
    });
    related = true;
    watch.refresh('2');
    await vi.waitFor(() => {
      expect(watch.get('2')?.status).toBe(1);
    });
    expect(subscribe).toHaveBeenCalledTimes(2);
    // A status that tells something is not asked again.
    watch.refresh('2');
    expect(subscribe).toHaveBeenCalledTimes(2);
  });
});
