/**
 * Presence of the users a screen shows (a chat's header, a profile): each is watched on the
 * socket (SubscribeUsersStatus) while at least one screen shows them, kept current by
 * OnUserStatusChanged, and watched again after a reconnect (subscriptions belong to a socket).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { chat, chatSocket } from '../../../api/chat';
import type { ChatSocket } from '../../../api/socket/socket';
import type { UserStatus } from '../../../api/socket/types';

export class PresenceWatch {
  private readonly statuses = new Map<string, UserStatus>();
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private bound = false;

  constructor(
    private readonly socket: ChatSocket,
    private readonly calls: Pick<typeof chat, 'subscribeUsersStatus' | 'unsubscribeUsersStatus'>,
  ) {}

  private bind(): void {
    if (this.bound) return;
    this.bound = true;
    this.socket.on('OnUserStatusChanged', (status) => {
      if (this.counts.has(status.userID)) this.set([status]);
    });
    this.socket.onConnected((reconnect) => {
      const ids = [...this.counts.keys()];
      if (reconnect && ids.length > 0) this.fetch(ids);
    });
  }

  private set(list: readonly UserStatus[]): void {
    for (const s of list) this.statuses.set(s.userID, s);
    for (const l of this.listeners) l();
  }

  private fetch(ids: string[]): void {
    this.calls.subscribeUsersStatus(ids).then(
      (list) => {
        this.set(list.filter((s) => this.counts.has(s.userID)));
      },
      () => {
        // Unknown until the next reconnect or status push.
      },
    );
  }

  /** Starts watching a user; the returned function stops. */
  watch(userID: string): () => void {
    this.bind();
    const n = this.counts.get(userID) ?? 0;
    this.counts.set(userID, n + 1);
    if (n === 0) this.fetch([userID]);
    return () => {
      const left = (this.counts.get(userID) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(userID, left);
        return;
      }
      this.counts.delete(userID);
      this.statuses.delete(userID);
      this.calls.unsubscribeUsersStatus([userID]).catch(() => undefined);
    };
  }

  /**
   * Asks again for a watched user whose status tells nothing (offline, never seen): the
   * server tells presence only to related users, and a one-to-one peer becomes one with the
   * first message stored between them, after the screen asked.
   */
  refresh(userID: string): void {
    if (!this.counts.has(userID)) return;
    const known = this.statuses.get(userID);
    if (known && (known.status !== 0 || known.lastSeen > 0)) return;
    this.fetch([userID]);
  }

  get(userID: string): UserStatus | undefined {
    return this.statuses.get(userID);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
}

export const presenceWatch = new PresenceWatch(chatSocket, chat);

/** The presence of a user while the calling screen shows it ('' watches nobody). */
export function usePresence(userID: string, watch: PresenceWatch = presenceWatch): UserStatus | undefined {
  useEffect(() => (userID ? watch.watch(userID) : undefined), [userID, watch]);
  return useSyncExternalStore(watch.subscribe, () => (userID ? watch.get(userID) : undefined));
}
