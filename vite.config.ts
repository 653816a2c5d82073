import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The Go server embeds webapp/dist and serves dist/app/index.html when present, so the
// build goes to webapp/dist/app and never touches the committed dist/placeholder.html.
const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  root: 'webapp',
  publicDir: 'public',
  // Keep caches in the root node_modules (ignored), not in webapp/node_modules.
  cacheDir: '../node_modules/.vite',
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries every page needs get stable, separately cached chunks; anything only a
        // lazy page uses stays with that page.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            {
              name: 'vendor',
              test: /node_modules[\\/](i18next|react-i18next|jotai|@tanstack[\\/]react-query|@tanstack[\\/]query-core)[\\/]/,
              priority: 1,
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
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Page tests import lazy routes and type like a person; the 2-core CI box needs headroom.
    testTimeout: 15_000,
  },
});
