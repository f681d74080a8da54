// The single-file page's engine worker: worker-single.js, which Vite bundles
// (with the Emscripten glue) into this page and starts from a blob: URL
// (`?worker&inline`), so nothing is fetched. Replaces spawn.js in
// web/vite.single.config.js.
import SingleWorker from './worker-single.js?worker&inline';

/** @returns {import('./proxy.js').Endpoint} */
export function spawnWebWorker() {
  return /** @type {any} */ (new SingleWorker());
}
