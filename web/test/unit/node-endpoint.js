// A worker_threads Worker dressed as a Web Worker for WorkerProxy: how the
// unit tests run the worker engine (worker-engine.js) under Node.
import { Worker } from 'node:worker_threads';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';

/** @returns {import('../../src/engine/proxy.js').Endpoint} */
export function nodeWorkerEndpoint() {
  const w = new Worker(new URL('../../src/engine/node-worker.js', import.meta.url));
  return {
    postMessage: (/** @type {any} */ m, /** @type {any[] | undefined} */ t) => w.postMessage(m, t),
    addEventListener: (/** @type {string} */ type, /** @type {(ev: any) => void} */ fn) => {
      if (type === 'message') w.on('message', (data) => fn({ data }));
      else if (type === 'error') w.on('error', (e) => fn({ message: e.message, error: e }));
    },
    terminate: () => void w.terminate(),
  };
}

/**
 * The two engine implementations the suites run every case against: in this
 * thread, and behind the worker protocol with `workers` Node workers.
 * @param {number} workers
 */
export function engineImpls(workers) {
  const wasm = nodeWasmSource();
  return /** @type {const} */ ([
    ['inthread', () => createEngine({ mode: 'inthread', wasm })],
    ['worker', () => createEngine({ mode: 'worker', workers, wasm, spawn: nodeWorkerEndpoint })],
  ]);
}
