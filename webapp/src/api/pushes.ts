/**
 * Business notifications of the chat socket (`OnRecvCustomBusinessMessage`, data
 * `{"key", "data"}` with data a JSON string) fanned out by key to the screens that care.
 *
 * The chat socket module feeds this hub: it calls `deliverBusinessPush` for every business
 * message and `announcePushResync` after a reconnect (anything pushed while the socket was
 * down is lost, so listeners reload over HTTP). Screens never depend on the socket being
 * there: they keep working from HTTP alone and get faster when pushes arrive.
 */

export interface BusinessPush {
  key: string;
  data: unknown;
}

/** `receivedAt` is monotonic (performance.now()), as the server clock estimate wants it. */
type PushListener = (data: unknown, receivedAt: number) => void;

export interface PushHub {
  /** Listens to one key; returns the unsubscribe function. */
  on(key: string, listener: PushListener): () => void;
  /** Listens to "the push stream resumed after a gap": reload what pushes would have said. */
  onResync(listener: () => void): () => void;
  deliver(push: { key: unknown; data: unknown }): void;
  resync(): void;
}

function parseData(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

export function createPushHub(now: () => number = () => performance.now()): PushHub {
  const listeners = new Map<string, Set<PushListener>>();
  const resyncListeners = new Set<() => void>();
  return {
    on(key, listener) {
      let set = listeners.get(key);
      if (!set) {
        set = new Set();
        listeners.set(key, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    onResync(listener) {
      resyncListeners.add(listener);
      return () => {
        resyncListeners.delete(listener);
      };
    },
    deliver(push) {
      if (typeof push.key !== 'string') return;
      const set = listeners.get(push.key);
      if (!set || set.size === 0) return;
      const receivedAt = now();
      const data = parseData(push.data);
      for (const listener of [...set]) listener(data, receivedAt);
    },
    resync() {
      for (const listener of [...resyncListeners]) listener();
    },
  };
}

/** The app's hub. */
export const pushHub: PushHub = createPushHub();

/** For the chat socket module: one business message as it came off the socket. */
export function deliverBusinessPush(push: { key: unknown; data: unknown }): void {
  pushHub.deliver(push);
}

/** For the chat socket module: call after a reconnect. */
export function announcePushResync(): void {
  pushHub.resync();
}

/** What the chat socket offers for business pushes (the ChatSocket of the chat area fits). */
export interface BusinessPushSource {
  on(event: 'OnRecvCustomBusinessMessage', listener: (notification: { key: string; data: string }) => void): () => void;
  /** Called after every successful sign-in of the socket; `reconnect` is true after the first. */
  onConnected(listener: (reconnect: boolean) => void): () => void;
}

/**
 * Feeds the hub from the chat socket: every business message, and a resync after each
 * reconnect (pushes sent while it was down are lost). Returns the stop function.
 */
export function bridgeBusinessPushes(source: BusinessPushSource, hub: PushHub = pushHub): () => void {
  const offs = [
    source.on('OnRecvCustomBusinessMessage', (notification) => {
      hub.deliver(notification);
    }),
    source.onConnected((reconnect) => {
      if (reconnect) hub.resync();
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
