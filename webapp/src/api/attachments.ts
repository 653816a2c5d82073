/**
 * Chat attachments (`/files/chat/...`) are served to the conversation's members only. Messages
 * keep the bare path; what the page puts in `src`/`href` is a link the server signs for this
 * user (POST /chat/fileURLs), valid more than 5 and at most 10 minutes. Links are cached until
 * shortly before they expire — by the time left the server states (`expiresIn`), so a device whose
 * clock is off still renews them in time — and the attachments a screen shows at once are asked
 * for in one call.
 */
import { assetUrl } from './assets';
import { api, type ApiClient } from './client';
import { browserStore, STORAGE_KEYS } from './storage';

/** A link is asked for again this long before it expires (links live more than 5 minutes). */
export const REFRESH_MARGIN_MS = 2 * 60_000;
/** A reference the server would not sign (not ours to read, or the call failed) is retried after this. */
const REFUSED_RETRY_MS = 60_000;
/** The server signs at most this many references a call. */
const BATCH_MAX = 200;

interface Entry {
  /** The signed link, or null when the server would not sign it. */
  link: string | null;
  /** When to ask again (ms). */
  staleAt: number;
}

type Waiter = (link: string | null) => void;

/** True for a reference to a chat attachment: `/files/chat/...`, on this host or an absolute URL. */
export function isChatAttachment(ref: string | null | undefined): boolean {
  if (!ref) return false;
  return /^(https?:\/\/[^/?#]+)?\/files\/chat\//i.test(ref);
}

/** The expiry (ms, by this device's clock) a signed link names in its `e` parameter, for a server
 * that does not state `expiresIn`; without one, the shortest life a link has. */
function expiryOf(link: string, now: number): number {
  const e = /[?&]e=(\d+)/.exec(link);
  return e ? Number(e[1]) * 1000 : now + 5 * 60_000;
}

export interface AttachmentLinks {
  /** The signed address to show `ref` with, when a fresh one is known. */
  cached(ref: string): string | null | undefined;
  /** The signed address of `ref` (null when the server refuses it); one call per batch. */
  resolve(ref: string): Promise<string | null>;
  /** Milliseconds until `ref` must be asked for again (0 when it must now). */
  renewIn(ref: string): number;
}

/** The session the links are asked for ('' signed out). */
const currentSession = (): string => browserStore.get(STORAGE_KEYS.token) ?? '';

export function createAttachmentLinks(
  client: ApiClient = api,
  now: () => number = Date.now,
  session: () => string = currentSession,
): AttachmentLinks {
  const cache = new Map<string, Entry>();
  let cachedFor = session();
  let waiting = new Map<string, Waiter[]>();
  let scheduled = false;

  const fresh = (ref: string): Entry | undefined => {
    // Links are signed for one user: another sign-in (switching accounts) starts over.
    if (session() !== cachedFor) {
      cache.clear();
      cachedFor = session();
    }
    const entry = cache.get(ref);
    return entry && entry.staleAt > now() ? entry : undefined;
  };

  /** The links the server signs for part; none signed out (a customer-service guest reads no
   * attachment, and asking would end on the sign-in page) or when the call fails. */
  async function ask(part: string[]): Promise<{ urls: Record<string, unknown>; expiresIn?: number }> {
    if (!session()) return { urls: {} };
    try {
      const data = await client.request<{ urls?: Record<string, unknown>; expiresIn?: unknown }>('/chat/fileURLs', { urls: part }, { quiet: true });
      const expiresIn = typeof data.expiresIn === 'number' && data.expiresIn > 0 ? data.expiresIn : undefined;
      return { urls: data.urls ?? {}, expiresIn };
    } catch {
      return { urls: {} };
    }
  }

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = waiting;
    waiting = new Map();
    const refs = [...batch.keys()];
    for (let i = 0; i < refs.length; i += BATCH_MAX) {
      const part = refs.slice(i, i + BATCH_MAX);
      // The server counted expiresIn from some moment after this one: counting from here errs early.
      const asked = now();
      const { urls: links, expiresIn } = await ask(part);
      for (const ref of part) {
        const value = links[ref];
        const link = typeof value === 'string' && value !== '' ? assetUrl(value) : null;
        const expiry = expiresIn !== undefined ? asked + expiresIn * 1000 : link ? expiryOf(link, asked) : 0;
        cache.set(ref, { link, staleAt: link ? expiry - REFRESH_MARGIN_MS : now() + REFUSED_RETRY_MS });
        for (const done of batch.get(ref) ?? []) done(link);
      }
    }
  }

  return {
    cached(ref) {
      return fresh(ref)?.link;
    },
    renewIn(ref) {
      const entry = fresh(ref);
      return entry ? entry.staleAt - now() : 0;
    },
    resolve(ref) {
      const entry = fresh(ref);
      if (entry) return Promise.resolve(entry.link);
      return new Promise((resolve) => {
        const list = waiting.get(ref);
        if (list) list.push(resolve);
        else waiting.set(ref, [resolve]);
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(() => void flush());
        }
      });
    },
  };
}

export const attachmentLinks: AttachmentLinks = createAttachmentLinks();
