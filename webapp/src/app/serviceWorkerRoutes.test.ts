// @vitest-environment node
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { routes } from './routes';

type FetchListener = (event: { request: { method: string; url: string; mode: string }; respondWith: (r: unknown) => void }) => void;

/** Runs webapp/public/sw.js as a worker would, with stand-ins for the worker's globals. */
function loadWorker() {
  const listeners = new Map<string, FetchListener>();
  const scope = {
    location: { href: 'https://kj.test/sw.js?v=test', origin: 'https://kj.test' },
    addEventListener: (type: string, f: FetchListener) => listeners.set(type, f),
  };
  const context: Record<string, unknown> = {
    self: scope,
    caches: { match: () => Promise.resolve(undefined), open: () => Promise.resolve({ put: () => Promise.resolve() }) },
    fetch: () => Promise.resolve({ ok: true, clone: () => ({}) }),
    URL,
  };
  runInNewContext(readFileSync(fileURLToPath(new URL('../../public/sw.js', import.meta.url)), 'utf8'), context);
  const fetchListener = listeners.get('fetch');
  if (!fetchListener) throw new Error('sw.js registers no fetch listener');
  return { isAppRoute: context.isAppRoute as (pathname: string) => boolean, onFetch: fetchListener };
}

/** Every path of the route table (`*`, the not-found route, left out). */
function routePaths(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((r) => {
    const own = r.path === undefined ? parent : r.path.startsWith('/') ? r.path : `${parent.replace(/\/$/, '')}/${r.path}`;
    const here = r.path !== undefined && r.path !== '*' ? [own] : [];
    return [...here, ...routePaths(r.children ?? [], own)];
  });
}

/** Whether the worker answers a page load of path (it calls respondWith). */
function answersNavigation(onFetch: FetchListener, path: string): boolean {
  const respondWith = vi.fn();
  onFetch({ request: { method: 'GET', url: `https://kj.test${path}`, mode: 'navigate' }, respondWith });
  return respondWith.mock.calls.length > 0;
}

describe('the service worker answers page loads of the app only', () => {
  const { isAppRoute, onFetch } = loadWorker();

  it('knows every route of the app', () => {
    const paths = routePaths(routes);
    expect(paths.length).toBeGreaterThan(40);
    for (const path of paths) expect([path, isAppRoute(path)]).toEqual([path, true]);
  });

  it('leaves the server its own pages: never the offline shell in their place', () => {
    const server = [
      '/openapi.yaml', '/api', '/api/getBaseData', '/files/avatars/a.png', '/files/chat/ab/x.png', '/admin', '/admin/',
      '/admin/users', '/healthz', '/readyz', '/metrics', '/ws', '/ws/customer', '/manifest.webmanifest', '/sw.js',
      '/sw-assets.json', '/offline.html', '/favicon.svg', '/robots.txt', '/assets/index-abc123.js', '/icons/icon-192.png',
      '/openapi', '/preview-image/x', '/pagesx',
    ];
    for (const path of server) {
      expect([path, isAppRoute(path)]).toEqual([path, false]);
      expect([path, answersNavigation(onFetch, path)]).toEqual([path, false]);
    }
  });

  it('answers the app\'s page loads (network first, the shell offline)', () => {
    for (const path of ['/', '/pages/tabBar/mine', '/pages/chat/conversation', '/preview-image']) {
      expect([path, answersNavigation(onFetch, path)]).toEqual([path, true]);
    }
  });
});
