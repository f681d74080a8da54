// The single-file page, web/dist/latscope.html (docs/page-loading.md §6):
// the same page as web/vite.config.js builds, with its engine, worker, styles
// and scripts inside one HTML file that works opened from file://.
//
//   page-engine.js   -> page-engine-single.js: the .wasm as a data: URL
//   spawn.js         -> spawn-single.js: the worker as a blob: URL, the glue
//                       bundled in (worker-single.js)
//   one script chunk, one stylesheet -> inline, allowed by hash (single-file.js)
//
// Run after the hosted build (it writes into the same web/dist, keeping it).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { singleFile } from './scripts/single-file.js';

const here = (/** @type {string} */ p) => fileURLToPath(new URL(p, import.meta.url));
const wasmDir = process.env.LATSCOPE_WASM_DIR || here('./public/wasm');

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  plugins: [singleFile()],
  resolve: {
    alias: [
      { find: /^\.\/engine\/page-engine\.js$/, replacement: here('./src/engine/page-engine-single.js') },
      { find: /^\.\/spawn\.js$/, replacement: here('./src/engine/spawn-single.js') },
      { find: /^latscope-wasm-glue$/, replacement: `${wasmDir}/latscope.mjs` },
      { find: /^latscope-wasm-binary/, replacement: `${wasmDir}/latscope.wasm` },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    cssCodeSplit: false,
    modulePreload: false,
    chunkSizeWarningLimit: 4000,
    rollupOptions: { output: { inlineDynamicImports: true } },
  },
  // A classic worker: Chromium does not start a module worker from a blob:
  // URL of a file:// page (an opaque origin); the bundle has no imports left.
  worker: { format: 'iife', rollupOptions: { output: { inlineDynamicImports: true } } },
});
