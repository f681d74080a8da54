// Loads the Emscripten module (wasm/bindings.cc, built by
// web/scripts/build-wasm.sh into web/public/wasm/) in a window or a worker.
//
// The glue is an ES module (EXPORT_ES6, MODULARIZE): import(url) gives its
// factory. We fetch the .wasm ourselves and hand it over through
// instantiateWasm, because Emscripten 3.1.6 does not recognise a *module*
// worker (no importScripts) and would then have no way to fetch a fallback.
//
// Every module gets the zlib codec the engine calls (inflate.js,
// wasm/inflate_fflate.cc, wasm/deflate_fflate.cc) as Module.latscopeInflateZlib
// and Module.latscopeDeflateZlib: in page workers, in the in-thread engine
// and under Node alike.
//
// The single-file page (docs/page-loading.md §6) bundles the glue into its
// worker and carries the .wasm bytes: it passes `factory` and `wasmBinary`,
// and nothing is imported or fetched.

import { deflateZlib, inflateZlib, installInflate } from './inflate.js';

/** Where build-wasm.sh puts the glue, relative to the page. */
export const WASM_GLUE = 'wasm/latscope.mjs';
export const WASM_BINARY = 'latscope.wasm';

/**
 * @typedef {object} WasmSource
 * @property {string} url                 URL of the ES-module glue (latscope.mjs); unused with factory
 * @property {ArrayBuffer | Uint8Array} [wasmBinary]  the .wasm bytes, when already at hand (Node, the single-file page)
 * @property {(m: object) => Promise<any>} [factory]  the glue's factory, when bundled (the single-file page)
 * @property {number} [maxMemoryBytes]  a lower ceiling than the module's 4 GiB: growing past it fails
 *   as on a machine with less memory (the page's `?worker_memory=`, docs/page-loading.md §7)
 */

/**
 * The glue's URL for a page, resolved against the document (or the worker's
 * location when there is no document).
 * @returns {string}
 */
export function defaultWasmUrl() {
  const g = /** @type {any} */ (globalThis);
  const base = g.document?.baseURI ?? g.location?.href;
  if (!base) throw new Error('no page URL to locate the WebAssembly module; pass wasm.url');
  return new URL(WASM_GLUE, base).href;
}

/**
 * @param {WasmSource} src
 * @returns {Promise<any>} the Emscripten Module (with .Engine, .HEAPU8)
 */
export async function loadWasmModule(src) {
  const factory = src.factory ?? (await import(/* @vite-ignore */ src.url)).default;
  installInflate();
  const codec = { latscopeInflateZlib: inflateZlib, latscopeDeflateZlib: deflateZlib };
  const max = src.maxMemoryBytes;
  if (src.wasmBinary && !max) return factory({ wasmBinary: src.wasmBinary, ...codec });
  const wasmUrl = src.wasmBinary ? '' : new URL(WASM_BINARY, src.url).href;
  // The factory's promise never settles when instantiateWasm fails, so the
  // fetch error rejects our own promise instead.
  return new Promise((resolve, reject) => {
    factory({
      ...codec,
      /**
       * @param {WebAssembly.Imports} imports
       * @param {(instance: WebAssembly.Instance, module: WebAssembly.Module) => void} done
       */
      instantiateWasm(imports, done) {
        const bytes = src.wasmBinary
          ? Promise.resolve(src.wasmBinary)
          : fetch(wasmUrl).then((r) => {
              if (!r.ok) throw new Error(`cannot load ${wasmUrl}: HTTP ${r.status} (run web/scripts/build-wasm.sh)`);
              return r.arrayBuffer();
            });
        bytes
          .then((b) => WebAssembly.instantiate(/** @type {BufferSource} */ (b), imports))
          .then((/** @type {WebAssembly.WebAssemblyInstantiatedSource} */ res) => {
            // The optimised build minifies export names: the memory is the export that is one.
            const memory = Object.values(res.instance.exports).find((x) => x instanceof WebAssembly.Memory);
            if (max && memory) capMemory(memory, max);
            done(res.instance, res.module);
          })
          .catch(reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

/**
 * Makes a module's memory refuse to grow past max bytes, as the browser
 * refuses past its own limit: grow() throws a RangeError, Emscripten's
 * allocator then fails and the engine aborts (what running out of memory
 * looks like in a worker). The module reaches its memory only through this
 * object, so shadowing its grow() is enough.
 * @param {WebAssembly.Memory} memory @param {number} max
 */
function capMemory(memory, max) {
  const grow = memory.grow.bind(memory);
  Object.defineProperty(memory, 'grow', {
    value: (/** @type {number} */ pages) => {
      if (memory.buffer.byteLength + pages * 65536 > max) throw new RangeError(`WebAssembly memory limited to ${max} bytes`);
      return grow(pages);
    },
  });
}
