/* global self, caches */
// The app's service worker: keeps the app shell and its assets so the app starts from the home
// screen without the network, and answers a page load it cannot serve with the app's own
// offline screen (/offline.html). Each build registers it as /sw.js?v=<build>; a new build
// installs beside the running one and waits, so it takes over on the next launch (when no page
// uses the old one) or at once when the player accepts the "new version" prompt.
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const CACHE = `kj-shell-${VERSION}`;
const SHELL = ['/', '/offline.html', '/offline.css', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png', '/favicon.svg'];

self.addEventListener('install', (event) => {
  // The shell, then every asset of the build (sw-assets.json, written by the build).
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache
        .addAll(SHELL)
        .then(() => fetch('/sw-assets.json', { cache: 'no-cache' }))
        .then((response) => (response.ok ? response.json() : []))
        .then((assets) => cache.addAll(assets)),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('kj-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'activate-new-version') void self.skipWaiting();
});

/**
 * A chat message while the app is closed (Web Push, sent by the server's push package): one
 * notification per conversation (tagged with its id, so a newer message replaces the older
 * one), with what the server put in it — the sender and the text, or only that a message came
 * when the user turned the preview off.
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(showPush(data));
});

/**
 * Shows a push unless the conversation already shows a newer message: a push service does not
 * promise to deliver in order, and an older message must not replace a newer one.
 */
async function showPush(data) {
  const conversationID = typeof data.conversationID === 'string' ? data.conversationID : '';
  const tag = conversationID ? `conversation-${conversationID}` : 'kj';
  const seq = typeof data.seq === 'number' ? data.seq : 0;
  const shown = await self.registration.getNotifications({ tag });
  if (seq > 0 && shown.some((n) => n.data && typeof n.data.seq === 'number' && n.data.seq > seq)) return;
  await self.registration.showNotification(typeof data.title === 'string' && data.title ? data.title : 'kj', {
    body: typeof data.body === 'string' ? data.body : '',
    tag,
    renotify: true,
    icon: '/icons/icon-192.png',
    data: { url: appURL(data.url), conversationID, seq },
  });
}

/** A path of this app only: anything else (another origin, `//host`) opens the app's start. */
function appURL(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

/** A tap on a notification opens its conversation. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openConversation(event.notification.data && event.notification.data.url));
});

/**
 * Opens an app page (a notification's conversation) in the app's open window, else in a new
 * one. The window is navigated before it is focused: focusing needs the tap's user activation,
 * navigating does not, so the page changes even where the focus is refused.
 */
function openConversation(path) {
  const url = new URL(appURL(path), self.location.origin).href;
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (!open) return self.clients.openWindow(url);
    // navigate works on a window this worker controls; any other gets a window of its own.
    return open.navigate(url).then(
      (moved) => (moved || open).focus().catch(() => moved || open),
      () => self.clients.openWindow(url),
    );
  });
}

/**
 * The app's own routes (webapp/src/app/routes.tsx): `/`, everything under `/pages/` and the chat's
 * top-level system pages. Only a page load of one of these is the app — answered with the cached
 * shell when offline, and its answer kept as the shell. Any other page load (`/openapi.yaml`,
 * `/api`, `/files`, `/admin`, `/healthz`, `/metrics`, a file name) is the server's to answer: it
 * never gets the app in its place, and its answer never replaces the app. A route added outside
 * these fails src/app/serviceWorkerRoutes.test.ts until it is listed here.
 */
const APP_PAGES = ['/preview-image', '/open-location', '/choose-location'];
function isAppRoute(pathname) {
  return pathname === '/' || pathname.startsWith('/pages/') || APP_PAGES.includes(pathname);
}

function isAsset(url) {
  return (
    url.pathname.startsWith('/assets/') ||
    url.pathname.startsWith('/icons/') ||
    url.pathname === '/favicon.svg' ||
    url.pathname === '/offline.css'
  );
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // The API, the socket, uploads and the console always go to the network.
  if (url.origin !== self.location.origin) return;
  if (/^\/(api|ws|files|admin|metrics|healthz|readyz)(\/|$)/.test(url.pathname)) return;

  if (request.mode === 'navigate') {
    if (!isAppRoute(url.pathname)) return;
    // Network first, so a deployed build shows; without a network the cached shell, and
    // without that the offline screen.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put('/', copy));
          }
          return response;
        })
        .catch(() => caches.match('/', { cacheName: CACHE }).then((shell) => shell || caches.match('/offline.html'))),
    );
    return;
  }
  if (isAsset(url)) {
    // Hashed file names never change content: cache first.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});
