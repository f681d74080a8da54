// How the page starts an engine worker (worker-engine.js). The hosted page
// loads worker.js as a file beside it; the single-file page replaces this
// module with spawn-single.js (web/vite.single.config.js).

/** @returns {import('./proxy.js').Endpoint} */
export function spawnWebWorker() {
  // This exact form lets Vite find and bundle the worker.
  return /** @type {any} */ (new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
}
