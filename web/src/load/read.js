// Reads a File/Blob as a sequence of byte chunks without ever holding the
// whole file: plain files in slices (Blob.slice + arrayBuffer), gzip through
// fflate's streaming Gunzip (multi-member, checked). Works in windows,
// workers and Node >= 18.
//
//   blob ──slice(o, o+S)──▶ Uint8Array chunk ──▶ engine.append()
//   blob.gz ──slice──▶ Gunzip (+ CRC-32 per member) ──▶ coalesce to ~S
//
// Progress counts bytes of the file as stored (compressed bytes for .gz), so
// bytesDone reaches bytesTotal = blob.size at the end either way.

import { Gunzip } from 'fflate';
import { formatBytesExact } from '../util/format.js';
import { abortError } from '../util/abort.js';

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
 * @property {(message: string) => void} [onProblem]  the file's bytes ended early (truncated or
 *   corrupt gzip): what was read before is used, and this sentence says what and why
 * @property {number} [maxInflatedBytes]  gzip: stop inflating past this many bytes (default defaultMaxInflated)
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
    yield* gunzipChunks(blob, sliceBytes, check, onBytes, opts.onProblem, opts.maxInflatedBytes ?? defaultMaxInflated(blob.size));
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
 * CRC-32 (ISO 3309, the gzip trailer's) lookup table. fflate checks no gzip
 * trailer, so the members are checked here.
 */
const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** Continues a CRC-32 over bytes (start with crc = 0). @param {number} crc @param {Uint8Array} bytes */
export function crc32(crc, bytes) {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** Compressed bytes handed to the inflater at once: bounds what one call can inflate (~66 MB). */
const PUSH_BYTES = 64 * 1024;

/**
 * Default bound on the inflated size of one gzip file: 256 times its stored
 * size, at least 1 GiB. fio logs compress 10-80 times; a gzip bomb ~1000.
 * @param {number} stored
 */
export function defaultMaxInflated(stored) {
  return Math.max(2 ** 30, 256 * stored);
}


/**
 * Inflates gzip with fflate's streaming Gunzip: single- and multi-member
 * (cat a.gz b.gz, pigz, bgzip). Each member's CRC-32 and length are checked.
 * The policy is the CLI's (zlib gzread): what inflated before a problem is
 * used, and the problem is reported through onProblem with what was kept;
 * when nothing inflated at all, FileFormatError.
 *
 *   blob ─slice(≤1 MiB)─▶ 64 KiB pieces ─▶ Gunzip ─ondata─▶ CRC ─▶ coalesce to ~sliceBytes ─▶ yield
 *                                          └ onmember(offset): check the previous member's trailer
 *
 * @param {Blob} blob
 * @param {number} sliceBytes
 * @param {() => void} check
 * @param {((n: number) => void) | undefined} onBytes
 * @param {((message: string) => void) | undefined} onProblem
 * @param {number} maxInflated
 * @returns {AsyncGenerator<Uint8Array>}
 */
async function* gunzipChunks(blob, sliceBytes, check, onBytes, onProblem, maxInflated) {
  const size = blob.size;
  /** @type {Uint8Array[]} */
  let pieces = [];
  let pending = 0;
  let inflated = 0; // bytes inflated in all
  let memberBytes = 0; // of the current member
  let crc = 0;
  let members = 1;
  let pushed = 0; // compressed bytes handed to the inflater
  /** Recently pushed input, to read a member's 8-byte trailer. @type {{at: number, bytes: Uint8Array}[]} */
  let recent = [];
  /** @type {string} */
  let problem = '';

  /** Input bytes [from, to) if still held, else null. @param {number} from @param {number} to */
  const inputAt = (from, to) => {
    const out = new Uint8Array(to - from);
    let got = 0;
    for (const r of recent) {
      const a = Math.max(from, r.at);
      const b = Math.min(to, r.at + r.bytes.length);
      if (a < b) {
        out.set(r.bytes.subarray(a - r.at, b - r.at), a - from);
        got += b - a;
      }
    }
    return got === to - from ? out : null;
  };
  /** True when the 8 bytes at `at` are the trailer of the member just inflated. @param {number} at */
  const trailerMatches = (at) => {
    const t = at >= 0 ? inputAt(at, at + 8) : null;
    if (!t) return at >= 0; // no longer held (a huge header between): not checkable
    const v = new DataView(t.buffer);
    return v.getUint32(0, true) === crc && v.getUint32(4, true) === memberBytes % 2 ** 32;
  };
  const kept = () => `the ${formatBytesExact(inflated)} read are used`;

  const gz = new Gunzip((chunk) => {
    inflated += chunk.length;
    memberBytes += chunk.length;
    crc = crc32(crc, chunk);
    pieces.push(chunk);
    pending += chunk.length;
  });
  gz.onmember = (offset) => {
    if (!problem && !trailerMatches(offset - 8)) {
      problem = `gzip member ${members} fails its CRC-32/length check (corrupt data)`;
    }
    members++;
    memberBytes = 0;
    crc = 0;
  };
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

  const readBytes = Math.min(sliceBytes, 1 << 20);
  const pushBytes = Math.min(readBytes, PUSH_BYTES);
  for (let off = 0; off < size; off += readBytes) {
    check();
    const end = Math.min(size, off + readBytes);
    const slice = new Uint8Array(await blob.slice(off, end).arrayBuffer());
    check();
    for (let p = 0; p < slice.length; p += pushBytes) {
      const piece = slice.subarray(p, Math.min(slice.length, p + pushBytes));
      recent.push({ at: pushed, bytes: piece });
      if (recent.length > 3) recent = recent.slice(-3);
      pushed += piece.length;
      const last = pushed >= size;
      try {
        gz.push(piece, last);
      } catch (e) {
        const m = /** @type {Error} */ (e).message;
        problem ||=
          m === 'unexpected EOF'
            ? `gzip stream truncated (member ${members} ends before its end marker)`
            : m === 'invalid gzip data' && inflated > 0
              ? 'gzip data is followed by bytes that are not gzip (ignored)'
              : `gzip data is corrupt (${m})`;
        break;
      }
      if (last && !problem && !trailerMatches(size - 8)) {
        problem = `gzip stream truncated or corrupt: member ${members} fails its CRC-32/length check`;
      }
      if (inflated > maxInflated) {
        problem = `gzip inflates to over ${formatBytesExact(maxInflated)}, ${Math.round(maxInflated / Math.max(1, size))} times its size (a gzip bomb?): inflation stopped`;
        break;
      }
      if (problem) break;
      if (pending >= sliceBytes) {
        onBytes?.(pushed);
        yield take();
        check();
      }
    }
    if (problem) break;
  }
  if (problem && inflated === 0) throw new FileFormatError(`${problem}; nothing could be read`);
  if (pending > 0) yield take();
  onBytes?.(size);
  if (problem) onProblem?.(`${problem}; ${kept()}`);
}
