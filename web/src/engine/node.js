// Node-only helpers (unit tests, benchmarks, worker_threads): where the built
// module is and how to load it outside a browser. Never imported by the page.
//
// Emscripten 3.1.6 + Node 20: the ES-module glue's Node branch reads the
// CommonJS globals __dirname and require, which ES modules do not have. We
// define them before importing the glue and hand it the .wasm bytes, so it
// never needs to locate or fetch anything itself.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { WASM_BINARY, WASM_GLUE } from './wasm-module.js';

/** web/public/ of this checkout (or $LATSCOPE_WASM_DIR/..). */
const publicDir = fileURLToPath(new URL('../../public/', import.meta.url));

/**
 * The glue's file URL and the .wasm bytes.
 * @returns {import('./wasm-module.js').WasmSource}
 */
export function nodeWasmSource() {
  const glue = process.env.LATSCOPE_WASM_GLUE ?? path.join(publicDir, WASM_GLUE);
  const bin = path.join(path.dirname(glue), WASM_BINARY);
  if (!fs.existsSync(glue) || !fs.existsSync(bin)) {
    throw new Error(`${glue} not built: run web/scripts/build-wasm.sh`);
  }
  const g = /** @type {any} */ (globalThis);
  g.__dirname ??= path.dirname(glue);
  g.require ??= createRequire(pathToFileURL(glue));
  return { url: pathToFileURL(glue).href, wasmBinary: fs.readFileSync(bin) };
}
