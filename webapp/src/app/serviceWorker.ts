/**
 * Registers the service worker (webapp/public/sw.js) of a production build and reports a new
 * version waiting: each build registers /sw.js?v=<build>, the browser installs a changed one
 * beside the running one, and it waits until the next launch — or until the player takes it
 * now from the prompt (`activateNewVersion`), which reloads the page once it controls it.
 */
import { atom } from 'jotai';
import { appStore, type AppStore } from '../state/store';

/** The installed worker waiting to take over, or null. */
export const waitingWorkerAtom = atom<ServiceWorker | null>(null);

let firstScreenDone: () => void = () => undefined;
const firstScreen = new Promise<void>((resolve) => {
  firstScreenDone = resolve;
});

/** Says the app's first screen is on the page (the shell's first effect, app/AppShell.tsx). */
export function firstScreenShown(): void {
  firstScreenDone();
}

/** Resolves after the next frame has been painted. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      setTimeout(resolve, 0);
    });
  });
}

export function registerServiceWorker(
  store: AppStore = appStore,
  { shown = firstScreen }: { shown?: Promise<void> } = {},
): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const hadController = navigator.serviceWorker.controller !== null;
  // The worker's install downloads every asset of the build (and writes it to the cache): on a
  // slow network that must not compete with the first screen, so it registers once the page has
  // loaded and the first screen has been painted. The load event alone is not enough: it fires
  // when the first page's chunk and stylesheet are in, just before that screen renders, so the
  // install ran beside the first render.
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          window.addEventListener(
            'load',
            () => {
              resolve();
            },
            { once: true },
          );
        });
  void Promise.all([loaded, shown.then(afterPaint)])
    .then(() => navigator.serviceWorker.register(`/sw.js?v=${__APP_BUILD__}`, { scope: '/' }))
    .then((registration) => {
      const offer = (worker: ServiceWorker | null): void => {
        // The first install has nothing to replace: no prompt.
        if (worker && hadController) store.set(waitingWorkerAtom, worker);
      };
      offer(registration.waiting);
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer(installing);
        });
      });
    })
    .catch(() => undefined); // the app works without it
}

/** The prompt's "update now": the waiting worker takes over and the page reloads under it. */
export function activateNewVersion(worker: ServiceWorker): void {
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    window.location.reload();
  });
  worker.postMessage('activate-new-version');
}
