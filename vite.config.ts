import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The Go server embeds webapp/dist and serves dist/app/index.html when present, so the
// build goes to webapp/dist/app and never touches the committed dist/placeholder.html.
const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  root: 'webapp',
  publicDir: 'public',
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
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
  },
});
