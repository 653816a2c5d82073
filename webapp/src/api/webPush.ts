/**
 * Typed calls of Web Push (httpapi/push.go): the server's VAPID key, and this device's push
 * subscription with its preview choice. A device is this sign-in: signing out ends it.
 */
import { api } from './client';

/** This device's subscription as the server keeps it. */
export interface PushState {
  subscribed: boolean;
  endpoint?: string;
  /** Notifications show who wrote and what; false: only that a message came. */
  preview: boolean;
}

/** A browser's PushSubscription.toJSON(), the part the server needs. */
export interface PushSubscriptionBody {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export const webPushApi = {
  key: () => api.request<{ publicKey: string }>('/push/key', undefined, { method: 'GET' }),
  state: (signal?: AbortSignal) => api.request<PushState>('/push/subscription', undefined, { method: 'GET', signal }),
  subscribe: (subscription: PushSubscriptionBody, preview: boolean) =>
    api.request<PushState>('/push/subscribe', { endpoint: subscription.endpoint, keys: subscription.keys, preview }, { quiet: true }),
  preview: (preview: boolean) => api.request<PushState>('/push/preview', { preview }),
  unsubscribe: () => api.request<PushState>('/push/unsubscribe'),
};
