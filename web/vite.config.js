// Vite builds the static page from web/ (root). `base: './'` keeps every URL
// relative, so dist/ works from any path or a file server. The WASM glue and
// the demo logs are plain files in public/ (wasm/, demo/), copied as is.
import { defineConfig } from 'vite';

// The dev server injects inline styles and talks to the page over a
// WebSocket, which index.html's Content-Security-Policy forbids: `vite` (dev)
// serves the page without that meta tag; builds keep it (docs/security.md).
const cspOnlyInBuilds = {
  name: 'latscope-csp-only-in-builds',
  apply: /** @type {'serve'} */ ('serve'),
  transformIndexHtml: (/** @type {string} */ html) => html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''),
};

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  plugins: [cspOnlyInBuilds],
  base: './',
  publicDir: 'public',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
});
