// Node worker_threads entry with the same protocol as worker.js, so the unit
// tests run the worker engine (worker-engine.js) under Node. Not used by the page.

import { parentPort } from 'node:worker_threads';
import { serveEngine } from './serve.js';
import { loadWasmModule } from './wasm-module.js';
import { nodeWasmSource } from './node.js';

if (!parentPort) throw new Error('node-worker.js must run in a worker thread');
const port = parentPort;
serveEngine(
  {
    postMessage: (msg, transfer) => port.postMessage(msg, /** @type {any} */ (transfer)),
    addEventListener: (_type, fn) => port.on('message', (data) => fn({ data })),
  },
  // The wasm URL of the page does not apply here: load this checkout's build
  // (with the init's memory ceiling, wasm-module.js capMemory).
  (init) => loadWasmModule({ ...nodeWasmSource(), maxMemoryBytes: init.maxMemoryBytes }),
);
