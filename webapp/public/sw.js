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
