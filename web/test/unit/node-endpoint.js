// A worker_threads Worker dressed as a Web Worker for WorkerProxy: how the
// unit tests run the worker engine (worker-engine.js) under Node.
import { Worker } from 'node:worker_threads';

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
