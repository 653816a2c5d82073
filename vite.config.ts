import { readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The Go server embeds webapp/dist and serves dist/app/index.html when present, so the
// build goes to webapp/dist/app and never touches the committed dist/placeholder.html.
const backend = 'http://127.0.0.1:8080';

/** Text files worth compressing: smaller ones fit in a packet anyway. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|webmanifest)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes x.br and x.gz beside every text file of the finished build (public files included),
 * at the highest levels: the Go server picks one per request by Accept-Encoding, so no
 * request pays for compression. Node's zlib does both in a few lines, where the Vite
 * compression plugins would add a dependency that trails Vite's releases.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'kj-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      const compressBrotli = promisify(brotliCompress);
      const compressGzip = promisify(gzip);
      // Files in parallel: node's compression runs on its thread pool.
      await Promise.all(
        walk(outDir)
          .filter((file) => COMPRESSIBLE.test(file))
          .map(async (file) => {
            const source = await readFile(file);
            if (source.length < MIN_COMPRESS_BYTES) return;
            const [br, gz] = await Promise.all([
              compressBrotli(source, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                  [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
              compressGzip(source, { level: zlib.Z_BEST_COMPRESSION }),
            ]);
            // A copy that saves nothing is left out; the server then sends the file as it is.
            if (br.length < source.length) await writeFile(`${file}.br`, br);
            if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
}

export default defineConfig({
  root: 'webapp',
  publicDir: 'public',
  // Keep caches in the root node_modules (ignored), not in webapp/node_modules.
  cacheDir: '../node_modules/.vite',
  base: '/',
  plugins: [
    react(),
    {
      // The service worker's precache list: every built asset, lazy pages' chunks included,
      // so a launch without the network can open any screen.
      name: 'kj-sw-assets',
      generateBundle(_options, bundle) {
        const files = Object.keys(bundle).filter((name) => name.startsWith('assets/'));
        this.emitFile({ type: 'asset', fileName: 'sw-assets.json', source: JSON.stringify(files.map((f) => `/${f}`)) });
      },
    },
    precompress(),
    {
      // The players' app's stylesheets go to the end of the body: the shell in index.html paints from
      // its inline critical CSS without waiting for them, and the scripts (which run after
      // the page is parsed, so after them) still render the app styled.
      name: 'kj-late-styles',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler(html, context) {
          // The players' app only: the console's page has no shell to paint first.
          if (context.path !== '/index.html') return html;
          const links: string[] = [];
          const head = html.replace(/\s*<link rel="stylesheet"[^>]*>/g, (tag) => {
            links.push(tag.trim());
            return '';
          });
          return links.length === 0 ? html : head.replace('</body>', `  ${links.join('\n    ')}\n  </body>`);
        },
      },
    },
  ],
  // Names the build for the service worker (/sw.js?v=...): a new build is a new worker.
  define: { __APP_BUILD__: JSON.stringify(Date.now().toString(36)) },
  css: {
    // Scoped class names keep the local name in front, so the DOM stays readable in devtools.
    modules: { generateScopedName: '[local]_[hash:base64:5]' },
  },
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // Two pages: the players' app, and the operator console (webapp/admin, served at /admin/)
      // whose code the players' app never loads.
      input: {
        main: fileURLToPath(new URL('./webapp/index.html', import.meta.url)),
        admin: fileURLToPath(new URL('./webapp/admin/index.html', import.meta.url)),
      },
      output: {
        // Libraries every page needs get stable, separately cached chunks; anything only a
        // lazy page uses stays with that page.
        codeSplitting: {
          groups: [
            // The typed-amount parser is shared with the console: in the app chunk it would
            // bring the app's stylesheet into the console's page.
            { name: 'amount', test: /webapp[\\/]src[\\/]format[\\/]amount\.ts$/, priority: 3 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            {
              name: 'vendor',
              test: /node_modules[\\/](i18next|react-i18next|jotai|@tanstack[\\/]react-query|@tanstack[\\/]query-core)[\\/]/,
              priority: 1,
            },
            {
              // The app's own shared code (API client, component kit, navigation, state,
              // formatting, the shell) as one chunk: on a phone network each extra file of the
              // first screen costs a round trip more than its bytes. Not i18n/resources: the
              // language packs import it, and this chunk awaits a pack before the first render.
              name: 'app',
              test: /webapp[\\/]src[\\/](api|app|components|navigation|state|format|i18n[\\/](index|languages))[\\/.]/,
              priority: 0,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/ws': { target: backend, ws: true },
      '/files': { target: backend },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'admin/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Page tests import lazy routes and type like a person; the 2-core CI box needs headroom.
    testTimeout: 15_000,
  },
});
