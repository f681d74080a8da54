// The single-file page's Web Worker entry (page-engine-single.js): worker.js
// with the Emscripten glue bundled in (Vite inlines this worker as a blob:
// URL) and the .wasm bytes taken from the init request, so the worker
// fetches and imports nothing.
import factory from 'latscope-wasm-glue';
import { serveEngine } from './serve.js';
import { loadWasmModule } from './wasm-module.js';

serveEngine(/** @type {any} */ (self), (init) => {
  if (!init.wasmBinary) throw new Error('the single-file worker needs the engine bytes in its init request');
  return loadWasmModule({ url: '', factory, wasmBinary: init.wasmBinary, maxMemoryBytes: init.maxMemoryBytes });
});
