// How the page makes its engine. The hosted page (web/dist/index.html) loads
// the glue and the .wasm as files beside it (wasm-module.js): nothing to add.
// The single-file page (web/dist/latscope.html) replaces this module with
// page-engine-single.js (web/vite.single.config.js), which carries both.

/** @returns {Promise<Partial<import('./index.js').CreateOptions>>} */
export async function pageEngineOptions() {
  return {};
}
