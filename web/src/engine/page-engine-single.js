// The single-file page's engine (docs/page-loading.md §6): the .wasm bytes
// are in the page (a base64 data: URL that Vite inlines) and go to each
// worker with its init request; the workers (spawn-single.js) hold their own
// bundled copy of the glue. Nothing is fetched: the page works opened from
// file://. Swapped in for page-engine.js by web/vite.single.config.js.
import wasmDataUrl from 'latscope-wasm-binary?url&inline';

/**
 * The bytes of a base64 data: URL (decoded here: fetch() of a data: URL
 * would need connect-src data:, which the page's policy does not grant).
 * @param {string} url
 * @returns {Uint8Array}
 */
export function dataUrlBytes(url) {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || !url.slice(0, comma).endsWith(';base64')) throw new Error('the page does not carry its engine (expected a base64 data: URL)');
  const bin = atob(url.slice(comma + 1));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** @returns {Promise<Partial<import('./index.js').CreateOptions>>} */
export async function pageEngineOptions() {
  return {
    wasm: { url: '' },
    wasmBinary: /** @type {ArrayBuffer} */ (dataUrlBytes(wasmDataUrl).buffer),
  };
}
