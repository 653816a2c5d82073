/**
 * The browser's side of Web Push: whether this browser can get notifications while the app is
 * closed, and subscribing it with the server's VAPID key (the service worker, public/sw.js,
 * shows what arrives). Screens call these, never the Push API itself.
 */
import { webPushApi, type PushState, type PushSubscriptionBody } from '../../../api/webPush';

/**
 * What this browser can do: `supported`; `needsInstall` on iPhone and iPad outside an app added
 * to the home screen (Safari delivers push only there); `denied` when the site's notifications
 * are blocked; `unsupported` otherwise.
 */
export type PushSupport = 'supported' | 'needsInstall' | 'denied' | 'unsupported';

/** Why turning notifications on did not work. */
export class PushSetupError extends Error {
  constructor(readonly reason: 'denied' | 'unsupported' | 'service') {
    super(reason);
  }
}

function isAppleMobile(): boolean {
  // iPadOS reports itself as a Mac with touch.
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1);
}

function standalone(): boolean {
  return window.matchMedia('(display-mode: standalone)').matches;
}

export function pushSupport(): PushSupport {
  const capable = 'serviceWorker' in navigator && 'PushManager' in window && typeof Notification !== 'undefined';
  if (isAppleMobile() && !standalone()) return 'needsInstall';
  if (!capable) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return 'supported';
}

/** The VAPID key as the Push API takes it: base64url to bytes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(padded);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  // getRegistration, not ready: ready never settles where no worker is registered (a dev build).
  const reg = await navigator.serviceWorker.getRegistration('/');
  if (!reg) throw new PushSetupError('unsupported');
  return reg;
}

function body(subscription: PushSubscription): PushSubscriptionBody {
  const json = subscription.toJSON();
  return { endpoint: json.endpoint ?? subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}

/**
 * Turns notifications on for this device: asks the permission, subscribes the browser with the
 * server's key (reusing a subscription it holds) and hands the subscription to the server.
 */
export async function enablePush(preview: boolean): Promise<PushState> {
  if (pushSupport() === 'unsupported' || pushSupport() === 'needsInstall') throw new PushSetupError('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushSetupError('denied');
  const reg = await registration();
  const { publicKey } = await webPushApi.key();
  let subscription: PushSubscription | null = await reg.pushManager.getSubscription();
  if (!subscription) {
    try {
      subscription = await withTimeout(
        reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
        SUBSCRIBE_TIMEOUT_MS,
      );
    } catch {
      // The browser could not reach its push service (offline, or a browser without one).
      throw new PushSetupError('service');
    }
  }
  return webPushApi.subscribe(body(subscription), preview);
}

/**
 * How long subscribing may take: a browser that cannot reach its push service may never settle
 * (headless Chromium waits for a connection that does not come).
 */
const SUBSCRIBE_TIMEOUT_MS = 20_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error('timeout'));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Changes the preview choice of this device's subscription. */
export function setPushPreview(preview: boolean): Promise<PushState> {
  return webPushApi.preview(preview);
}

/** Turns notifications off for this device, in the browser and on the server. */
export async function disablePush(): Promise<PushState> {
  const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/') : undefined;
  const subscription = await reg?.pushManager.getSubscription();
  await subscription?.unsubscribe().catch(() => false);
  return webPushApi.unsubscribe();
}
