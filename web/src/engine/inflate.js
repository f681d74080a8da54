// The zlib (RFC 1950) codec the WebAssembly engine calls synchronously:
// inflate for HdrHistogram payloads and result files (wasm/inflate_fflate.cc,
// core's inflate.h), deflate for writing a result file ("Copy link with
// data": wasm/deflate_fflate.cc, result.h's deflate_zlib). loadWasmModule
// hands them to the Emscripten module as Module.latscopeInflateZlib and
// Module.latscopeDeflateZlib, in every thread that runs the engine (page
// workers, the in-thread engine, Node tests); installInflate() also puts
// them on globalThis for glue loaded some other way.
//
// The bytes passed in are a copy made by the C++ side, never a heap view.

import { Unzlib, inflateSync, zlibSync } from 'fflate';

/**
 * Inflates exactly one zlib stream. Throws with a sentence when the stream
 * is invalid or truncated, or when the output would exceed maxOut bytes (a
 * bound against inflation bombs: inflation stops there).
 * @param {Uint8Array} bytes
 * @param {number} [maxOut]
 * @returns {Uint8Array}
 */
export function inflateZlib(bytes, maxOut = Infinity) {
  return inflateSmall(bytes, maxOut) ?? inflateStreaming(bytes, maxOut);
}

// A payload of a few hundred bytes (an .hlog interval) cost fflate's own
// zlib paths 70-650 us, nearly all of it making output buffers; inflated
// into one kept buffer it takes 13-15 us (docs/page-loading.md §3).
const SMALL_IN = 16384;
const scratch = new Uint8Array(1 << 16);

/**
 * The fast path: a plain zlib header, input under SMALL_IN (so even a
 * stream that overflows the scratch costs little), output that fits the
 * scratch and maxOut, and a matching Adler-32. Anything else returns null
 * and the streaming path decides, with its messages.
 * @param {Uint8Array} bytes @param {number} maxOut
 * @returns {Uint8Array | null}
 */
function inflateSmall(bytes, maxOut) {
  const n = bytes.length;
  if (n < 7 || n > SMALL_IN) return null;
  const cmf = bytes[0];
  const flg = bytes[1];
  // RFC 1950: deflate, window <= 32 KiB, header check, no preset dictionary.
  if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 || flg & 32) return null;
  let out;
  try {
    out = inflateSync(bytes.subarray(2, n - 4), { out: scratch });
  } catch {
    return null;
  }
  // A full scratch may have dropped the rest: let the streaming path say.
  if (out.length >= scratch.length || out.length > maxOut) return null;
  const want = ((bytes[n - 4] << 24) | (bytes[n - 3] << 16) | (bytes[n - 2] << 8) | bytes[n - 1]) >>> 0;
  return adler32(out) === want ? out.slice() : null;
}

/** @param {Uint8Array} bytes @param {number} maxOut @returns {Uint8Array} */
function inflateStreaming(bytes, maxOut) {
  /** @type {Uint8Array[]} */
  const parts = [];
  let total = 0;
  let ended = false;
  const z = new Unzlib((chunk, final) => {
    total += chunk.length;
    if (total > maxOut) throw new Error(`inflated size over ${maxOut} bytes`);
    parts.push(chunk);
    if (final) ended = true;
  });
  try {
    z.push(bytes, true);
  } catch (e) {
    const m = /** @type {Error} */ (e).message;
    if (/^inflated size over/.test(m)) throw e;
    throw new Error(`not a valid zlib stream (${m})`);
  }
  if (!ended) throw new Error('not a valid zlib stream (truncated)');
  let out = parts[0] ?? new Uint8Array(0);
  if (parts.length > 1) {
    out = new Uint8Array(total);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
  }
  // fflate does not check the Adler-32 trailer; zlib (the native build) does.
  const n = bytes.length;
  const want = n >= 4 ? ((bytes[n - 4] << 24) | (bytes[n - 3] << 16) | (bytes[n - 2] << 8) | bytes[n - 1]) >>> 0 : -1;
  if (adler32(out) !== want) throw new Error('not a valid zlib stream (incorrect data check)');
  return out;
}

/** Adler-32 (RFC 1950) of bytes. @param {Uint8Array} b */
export function adler32(b) {
  let a = 1;
  let s = 0;
  for (let i = 0; i < b.length; ) {
    // 5552 bytes keep both sums below 2^53 before the modulo (zlib's NMAX).
    const end = Math.min(b.length, i + 5552);
    for (; i < end; i++) s += a += b[i];
    a %= 65521;
    s %= 65521;
  }
  return ((s << 16) | a) >>> 0;
}

/**
 * One zlib stream of bytes (level 6, zlib's default, as the native writer
 * core/src/codec/deflate_zlib.cc uses).
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
export function deflateZlib(bytes) {
  return zlibSync(bytes, { level: 6 });
}

/** Puts inflateZlib / deflateZlib where wasm/*_fflate.cc look for them as a fallback. */
export function installInflate() {
  /** @type {any} */ (globalThis).latscopeInflateZlib ??= inflateZlib;
  /** @type {any} */ (globalThis).latscopeDeflateZlib ??= deflateZlib;
}
