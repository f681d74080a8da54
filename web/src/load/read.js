// Reads a File/Blob as a sequence of byte chunks without ever holding the
// whole file: plain files in slices (Blob.slice + arrayBuffer), gzip through
// DecompressionStream. Works in windows, workers and Node >= 18.
//
//   blob ──slice(o, o+S)──▶ Uint8Array chunk ──▶ engine.append()
//   blob.gz ──stream()──▶ count bytes ──▶ DecompressionStream('gzip') ──▶ coalesce to ~S
//
// Progress counts bytes of the file as stored (compressed bytes for .gz), so
// bytesDone reaches bytesTotal = blob.size at the end either way.

import { abortError } from '../engine/protocol.js';

export const DEFAULT_SLICE_BYTES = 16 * 1024 * 1024;

/** Detected container of a file, from its first bytes. */
export const Container = Object.freeze({
  PLAIN: 'plain',
  GZIP: 'gzip',
  XZ: 'xz',
  ZSTD: 'zstd',
  BZIP2: 'bzip2',
  ZIP: 'zip',
});

/**
 * @param {Uint8Array} head first bytes of a file (at least 6 when it has them)
 * @returns {string} a Container value
 */
export function sniffContainer(head) {
  const b = (/** @type {number} */ i) => (i < head.length ? head[i] : -1);
  if (b(0) === 0x1f && b(1) === 0x8b) return Container.GZIP;
  if (b(0) === 0xfd && b(1) === 0x37 && b(2) === 0x7a && b(3) === 0x58 && b(4) === 0x5a) {
    return Container.XZ;
  }
  if (b(0) === 0x28 && b(1) === 0xb5 && b(2) === 0x2f && b(3) === 0xfd) return Container.ZSTD;
  if (b(0) === 0x42 && b(1) === 0x5a && b(2) === 0x68) return Container.BZIP2;
  if (b(0) === 0x50 && b(1) === 0x4b && b(2) === 0x03 && b(3) === 0x04) return Container.ZIP;
  return Container.PLAIN;
}

/** A problem with the file's bytes found before the engine saw them. */
export class FileFormatError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'FileFormatError';
  }
}

/**
 * @typedef {object} ReadOptions
 * @property {number} [sliceBytes]   chunk size, default 16 MiB
 * @property {AbortSignal} [signal]  aborts between chunks with an AbortError
 * @property {(bytesDone: number) => void} [onBytes]  stored bytes consumed so far
 */

/**
 * Yields the file's (decompressed) content as Uint8Array chunks; each chunk
 * owns its buffer, so it may be transferred.
 * @param {Blob} blob
 * @param {ReadOptions} [opts]
 * @returns {AsyncGenerator<Uint8Array>}
 */
export async function* readChunks(blob, opts = {}) {
  const sliceBytes = Math.max(1, opts.sliceBytes ?? DEFAULT_SLICE_BYTES);
  const { signal, onBytes } = opts;
  const check = () => {
    if (signal?.aborted) throw abortError();
  };
  check();
  const head = new Uint8Array(await blob.slice(0, 6).arrayBuffer());
  const container = sniffContainer(head);
  if (container === Container.GZIP) {
    yield* gunzipChunks(blob, sliceBytes, check, onBytes);
    return;
  }
  if (container !== Container.PLAIN) {
    throw new FileFormatError(
      `${container}-compressed file: only gzip (.gz) is decompressed here; ` +
        `decompress it first (e.g. ${container === 'zip' ? 'unzip' : container === 'bzip2' ? 'bunzip2' : container === 'zstd' ? 'zstd -d' : 'unxz'})`,
    );
  }
  for (let off = 0; off < blob.size; off += sliceBytes) {
    check();
    const end = Math.min(blob.size, off + sliceBytes);
    const chunk = new Uint8Array(await blob.slice(off, end).arrayBuffer());
    check();
    onBytes?.(end);
    yield chunk;
  }
}

/**
 * @param {Blob} blob
 * @param {number} sliceBytes
 * @param {() => void} check
 * @param {((n: number) => void) | undefined} onBytes
 * @returns {AsyncGenerator<Uint8Array>}
 */
async function* gunzipChunks(blob, sliceBytes, check, onBytes) {
  let stored = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      stored += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const reader = blob
    .stream()
    .pipeThrough(counter)
    .pipeThrough(/** @type {any} */ (new DecompressionStream('gzip')))
    .getReader();
  // DecompressionStream emits small pieces (tens of KiB); gather them into
  // chunks of about sliceBytes so the engine is called a few times per file.
  /** @type {Uint8Array[]} */
  let pieces = [];
  let pending = 0;
  const take = () => {
    const out = new Uint8Array(pending);
    let o = 0;
    for (const p of pieces) {
      out.set(p, o);
      o += p.length;
    }
    pieces = [];
    pending = 0;
    return out;
  };
  let done = false;
  try {
    for (;;) {
      check();
      let step;
      try {
        step = await reader.read();
      } catch (e) {
        throw new FileFormatError(`gzip data is corrupt or truncated (${/** @type {Error} */ (e).message})`);
      }
      if (step.done) break;
      pieces.push(step.value);
      pending += step.value.length;
      if (pending >= sliceBytes) {
        onBytes?.(stored);
        yield take();
      }
    }
    done = true;
    if (pending > 0) yield take();
    onBytes?.(stored);
  } finally {
    // Stops the decompression when the consumer gives up early (abort, error).
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
