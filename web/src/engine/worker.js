// Web Worker entry: the in-thread engine behind the protocol (protocol.js).
// Started by worker-engine.js as a module worker:
//   new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })

import { serveEngine } from './serve.js';
import { loadWasmModule } from './wasm-module.js';

serveEngine(/** @type {any} */ (self), (init) => loadWasmModule({ url: init.wasmUrl, maxMemoryBytes: init.maxMemoryBytes }));
