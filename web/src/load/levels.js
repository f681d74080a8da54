// Results with several resolutions (result version 3, docs/result-format.md
// "Several resolutions"; or the histograms of a version 4 file), read by byte ranges: a cluster day is opened at a
// coarse level and only the blocks of the visible time range are read at a
// finer one, from a local file (Blob.slice) or a URL (HTTP range requests).
//
// The engine never sees version 3 here: each level is a complete version-2
// result inside the file, so what the page hands the engine is that level's
// bytes, or its head + the blocks of a time range + a rewritten index, which
// is again a valid version-2 result (its decoder checks the index against
// the blocks, so a wrong slice is an error, never wrong numbers). Only the
// three fixed-width records needed for that are read here: the container's
// tail and directory and a level's block index. A level of several hosts is
// a version-5 file (docs/result-format.md, "Blocks by host (version 5)"):
// each time block is cut into one block per host, the index entries and
// block prefixes carry the chunk; a slice keeps them as they are, and
// when the engine needs only some hosts it takes only their chunks' blocks
// (hostChunks, chunksFor: the header's series and chunk table say which
// host each chunk holds).
import { unzlibSync } from 'fflate';

const MULTI_END = 'LSMULTI\0';
// Version 4 (docs/result-format.md, "Per-host percentile matrix (version
// 4)"): "LSRESULT" 4, a version 2 or 3 file, the matrix, then
// "LSPARTS\0" u64 histograms' offset, u64 length, u64 matrix's offset,
// u64 length, u64 own offset, "LSWITHMX".
const PARTS_MAGIC = 'LSPARTS\0';
const PARTS_END = 'LSWITHMX';
const PARTS_TAIL = 56;
const LEVELS_MAGIC = 'LSLEVELS';
// A directory with levels summed over hosts beside the levels as kept: a
// u32 kind after each entry (0 as kept, 1 summed over hosts;
// docs/result-format.md, "Levels summed over hosts").
const LEVELS_KIND_MAGIC = 'LSLEVEL2';
const KIND_ENTRY = 28;
const RESULT_END = 'LSRESEND';
const INDEX_MAGIC = 'LSIX';
const LEVEL_ENTRY = 24; // f64 quantum_ms, u64 offset, u64 length
const INDEX_ENTRY = 32; // i64 first, i64 last, u64 offset, u32 zlen, u32 cells
const HOST_ENTRY = 36; // version 5: and u32 chunk (the block: u32 zlen, u32 chunk, zlib)
const HOST_BLOCKS_VERSION = 5;
const MAX_LEVELS = 64;
// A level's index and header are fetched before anything checks them
// against their own contents; a lying trailer must not make the page fetch
// gigabytes. 2^21 blocks is 2^30 quanta at 600 a block; a header of 64 MiB
// holds millions of label sets.
const MAX_BLOCKS = 2 ** 21;
const MAX_HEAD_BYTES = 64 * 2 ** 20;

/**
 * Random access to a file's bytes.
 * @typedef {object} ByteSource
 * @property {string} name
 * @property {number} size
 * @property {(start: number, end: number) => Promise<Uint8Array>} read  bytes [start, end)
 * @property {number} fetched  bytes read so far (range requests made)
 */

/**
 * @typedef {object} Level
 * @property {number} quantum_ms
 * @property {number} offset  of the level's version-2 bytes in the file
 * @property {number} length
 * @property {boolean} [summed]  the histograms summed over hosts (no host label), beside the levels as kept
 */

/**
 * @typedef {object} Block
 * @property {number} first  first quantum index
 * @property {number} last   last quantum index holding a cell
 * @property {number} offset in the level
 * @property {number} zlen
 * @property {number} cells
 * @property {number} chunk  the host's chunk (version 5; else 0)
 */

/**
 * A level's head (magic, version, header) and block index.
 * @typedef {object} LevelIndex
 * @property {Level} level
 * @property {Uint8Array} head
 * @property {Block[]} blocks  ascending time, then chunk
 * @property {number} pre  bytes before a block's zlib stream (4; version 5: 8)
 * @property {(string | null)[]} [chunkHost]  version 5: each chunk's host (null: its series have no host label)
 */

/** @param {Blob} blob @param {string} name @returns {ByteSource} */
export function blobSource(blob, name) {
  const src = {
    name,
    size: blob.size,
    fetched: 0,
    /** @param {number} a @param {number} b */
    async read(a, b) {
      src.fetched += b - a;
      return new Uint8Array(await blob.slice(a, b).arrayBuffer());
    },
  };
  return src;
}

/**
 * A URL read by HTTP range requests, or null when the server does not
 * answer them (status 200: the caller fetches the file whole). The size
 * comes from HEAD's Content-Length, which CORS lets a page read (unlike
 * Content-Range). A cross-origin server must allow the Range header
 * (docs/page-loading.md §8). `signal` cancels the opening requests only.
 * @param {string} url @param {string} name @param {{signal?: AbortSignal, fetchFn?: typeof fetch}} [o]
 * @returns {Promise<ByteSource | null>}
 */
export async function urlSource(url, name, o = {}) {
  const f = o.fetchFn ?? fetch;
  const head = await f(url, { method: 'HEAD', signal: o.signal });
  const size = Number(head.headers.get('content-length'));
  if (!head.ok || !(size > 0)) return null;
  const src = {
    name,
    size,
    fetched: 0,
    /** @param {number} a @param {number} b */
    async read(a, b) {
      if (b <= a) return new Uint8Array(0);
      // No signal here: the source outlives the load that opened it (each
      // zoom reads from it), and one range is small.
      const r = await f(url, { headers: { Range: `bytes=${a}-${b - 1}` } });
      if (r.status !== 206) {
        await r.body?.cancel();
        throw new Error(`${url}: the server answered a range request with status ${r.status}, not 206 (partial content)`);
      }
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (bytes.length !== b - a) throw new Error(`${url}: asked for bytes ${a}-${b - 1}, got ${bytes.length} bytes`);
      src.fetched += bytes.length;
      return bytes;
    },
  };
  // One probe: a server that ignores Range sends the whole file with 200.
  const probe = await f(url, { headers: { Range: 'bytes=0-0' }, signal: o.signal });
  await probe.body?.cancel();
  return probe.status === 206 ? src : null;
}

/** @param {Uint8Array} b @param {number} at @param {string} text */
function hasText(b, at, text) {
  if (at < 0 || at + text.length > b.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** A u64 that must be an exact JS number. @param {DataView} v @param {number} at @param {string} what */
function u64(v, at, what) {
  const n = v.getBigUint64(at, true);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${what}: ${n} is out of range`);
  return Number(n);
}

/** @param {DataView} v @param {number} at */
function i64(v, at) {
  return Number(v.getBigInt64(at, true));
}

/**
 * The levels of a version-3 result, or null when the file is no such
 * result (then it is loaded like any other file). Errors name the file.
 * @param {ByteSource} src
 * @returns {Promise<Level[] | null>}
 */
export async function readLevels(src) {
  if (src.size < 16 + 12) return null;
  const tail = await src.read(src.size - 16, src.size);
  if (hasText(tail, 8, PARTS_END)) return readMatrixFileLevels(src);
  if (!hasText(tail, 8, MULTI_END)) return null;
  const bad = (/** @type {string} */ why) => new Error(`${src.name}: levels directory: ${why}`);
  const at = u64(new DataView(tail.buffer, tail.byteOffset), 0, `${src.name}: levels directory offset`);
  const dirLen = src.size - 16 - at;
  if (!(at >= 12 && dirLen >= 12)) throw bad(`offset ${at} is outside the file (${src.size} bytes)`);
  if (dirLen > 12 + 2 * MAX_LEVELS * KIND_ENTRY) throw bad(`${dirLen} bytes is more than ${MAX_LEVELS} levels`);
  const d = await src.read(at, at + dirLen);
  const kinds = hasText(d, 0, LEVELS_KIND_MAGIC);
  if (!kinds && !hasText(d, 0, LEVELS_MAGIC)) throw bad('no LSLEVELS mark where the tail points');
  const width = kinds ? KIND_ENTRY : LEVEL_ENTRY;
  const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const n = v.getUint32(8, true);
  if (n < 1 || 12 + n * width !== dirLen) throw bad(`${n} levels do not fill its ${dirLen} bytes`);
  /** @type {Level[]} */
  const levels = [];
  for (let i = 0; i < n; i++) {
    const p = 12 + i * width;
    const kind = kinds ? v.getUint32(p + 24, true) : 0;
    const lv = { quantum_ms: v.getFloat64(p, true), offset: u64(v, p + 8, 'level offset'), length: u64(v, p + 16, 'level length'), summed: kind === 1 };
    if (kind > 1) throw bad(`level ${i}: kind ${kind}`);
    if (!(lv.quantum_ms > 0) || !Number.isFinite(lv.quantum_ms)) throw bad(`level ${i}: quantum ${lv.quantum_ms} ms`);
    if (lv.offset < 12 || lv.length < 16 || lv.offset + lv.length > at) throw bad(`level ${i} (${lv.quantum_ms} ms) lies outside the file`);
    const prev = levels[i - 1];
    // The levels as kept first, ascending; then the sums, ascending (as read_result_levels checks).
    if (i === 0 && lv.summed) throw bad('level 0 is summed over hosts, but no level as kept comes before it');
    if (prev && prev.summed && !lv.summed) throw bad(`level ${i}: a level as kept after the levels summed over hosts`);
    if (prev && prev.summed === lv.summed && !(lv.quantum_ms > prev.quantum_ms)) throw bad(`level ${i}: quanta not ascending`);
    levels.push(lv);
  }
  return levels;
}

/**
 * The levels of the histograms inside a version 4 file (a version 3 file
 * after its 12-byte head), offsets from the file's start; null when the
 * histograms are a single level (the file is then loaded whole, as the
 * engine reads version 4). The parts must tile the file, as
 * read_result_parts checks natively.
 * @param {ByteSource} src
 * @returns {Promise<Level[] | null>}
 */
async function readMatrixFileLevels(src) {
  const bad = (/** @type {string} */ why) => new Error(`${src.name}: parts: ${why}`);
  if (src.size < 12 + PARTS_TAIL) throw bad(`truncated (${src.size} bytes)`);
  const t = await src.read(src.size - PARTS_TAIL, src.size);
  if (!hasText(t, 0, PARTS_MAGIC)) throw bad('truncated or no LSPARTS directory at the end');
  const v = new DataView(t.buffer, t.byteOffset, t.byteLength);
  const histAt = u64(v, 8, `${src.name}: histograms' offset`);
  const histLen = u64(v, 16, `${src.name}: histograms' length`);
  if (histAt !== 12 || histLen < 16 + 12 || histAt + histLen > src.size - PARTS_TAIL)
    throw bad(`the histograms (byte ${histAt}, ${histLen} bytes) lie outside the file (${src.size} bytes)`);
  /** @type {ByteSource} */
  const inner = {
    name: src.name,
    size: histLen,
    read: (a, b) => src.read(histAt + a, histAt + b),
    get fetched() { return src.fetched; },
  };
  const levels = await readLevels(inner);
  return levels && levels.map((l) => ({ ...l, offset: l.offset + histAt }));
}

/**
 * A level's head and block index: two or three range reads (the level's
 * tail, its index, its head), however large the level.
 * @param {ByteSource} src @param {Level} level @returns {Promise<LevelIndex>}
 */
export async function readLevelIndex(src, level) {
  const bad = (/** @type {string} */ why) => new Error(`${src.name}: level ${level.quantum_ms} ms: ${why}`);
  const base = level.offset;
  const tail = await src.read(base + level.length - 16, base + level.length);
  if (!hasText(tail, 8, RESULT_END)) throw bad('no end mark');
  const ixAt = u64(new DataView(tail.buffer, tail.byteOffset), 0, 'index offset');
  const ixLen = level.length - 16 - ixAt;
  if (!(ixAt >= 16 && ixLen >= 8)) throw bad(`index offset ${ixAt} is outside the level`);
  if (ixLen > 8 + MAX_BLOCKS * HOST_ENTRY) throw bad(`an index of ${ixLen} bytes is more than ${MAX_BLOCKS} blocks; not read`);
  const ix = await src.read(base + ixAt, base + ixAt + ixLen);
  if (!hasText(ix, 0, INDEX_MAGIC)) throw bad('no index where its trailer points');
  const v = new DataView(ix.buffer, ix.byteOffset, ix.byteLength);
  const n = v.getUint32(4, true);
  // The entry width says the version (checked against the head below).
  const width = 8 + n * HOST_ENTRY === ixLen && n > 0 ? HOST_ENTRY : INDEX_ENTRY;
  if (8 + n * width !== ixLen) throw bad(`${n} blocks do not fill its ${ixLen}-byte index`);
  const pre = width === HOST_ENTRY ? 8 : 4;
  /** @type {Block[]} */
  const blocks = [];
  for (let i = 0; i < n; i++) {
    const p = 8 + i * width;
    const b = { first: i64(v, p), last: i64(v, p + 8), offset: u64(v, p + 16, 'block offset'), zlen: v.getUint32(p + 24, true), cells: v.getUint32(p + 28, true), chunk: pre === 8 ? v.getUint32(p + 32, true) : 0 };
    const prev = blocks[i - 1];
    if (b.offset + pre + b.zlen > ixAt || (prev ? b.offset !== prev.offset + pre + prev.zlen : b.offset < 16)) throw bad(`block ${i} is not where the index says`);
    blocks.push(b);
  }
  // The head runs up to the first block (or the index when there is none).
  const headLen = blocks.length ? blocks[0].offset : ixAt;
  if (headLen > MAX_HEAD_BYTES) throw bad(`a header of ${headLen} bytes is over ${MAX_HEAD_BYTES}; not read`);
  const head = await src.read(base, base + headLen);
  if (!hasText(head, 0, 'LSRESULT') || head.length < 12) throw bad('no result of one level at its offset');
  const hostBlocks = new DataView(head.buffer, head.byteOffset).getUint32(8, true) === HOST_BLOCKS_VERSION;
  if (n > 0 && hostBlocks !== (pre === 8)) throw bad(`its index entries are not those of its version`);
  if (!hostBlocks) return { level, head, blocks, pre: 4 };
  const chunkHost = hostChunks(head, bad);
  blocks.forEach((b, i) => {
    if (b.chunk >= chunkHost.length) throw bad(`block ${i}: chunk ${b.chunk} not in the table`);
  });
  return { level, head, blocks, pre: 8, chunkHost };
}

/**
 * Each chunk's host, from a version 5 head's header (docs/result-format.md,
 * "Byte layout" and "Blocks by host (version 5)"): the series' labels and
 * the chunk table, read past the layouts. Only these tables are read; the
 * engine decodes and checks the whole header again when the slice is loaded.
 * @param {Uint8Array} head "LSRESULT" u32 version, u32 header_zlen, zlib(header), ...
 * @param {(why: string) => Error} bad
 * @returns {(string | null)[]}
 */
export function hostChunks(head, bad) {
  const hv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length < 16) throw bad('truncated header');
  const zlen = hv.getUint32(12, true);
  if (16 + zlen > head.length) throw bad(`a header of ${zlen} bytes runs past its blocks`);
  let h;
  try {
    h = unzlibSync(head.subarray(16, 16 + zlen));
  } catch (e) {
    throw bad(`header: ${/** @type {Error} */ (e).message}`);
  }
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  let p = 0;
  const need = (/** @type {number} */ k) => {
    if (p + k > h.length) throw bad('header: truncated');
  };
  const u32 = () => (need(4), (p += 4), v.getUint32(p - 4, true));
  const text = new TextDecoder();
  const str = () => {
    const k = u32();
    need(k);
    p += k;
    return text.decode(h.subarray(p - k, p));
  };
  p = 4 + 8 + 4 + 4; // flags, quantum_ms, frac_bits, quanta_per_block
  const nlayouts = u32();
  for (let i = 0; i < nlayouts; i++) {
    need(1);
    const kind = h[p++];
    str();
    need(5);
    p += 5; // coarseness, last_saturates
    if (kind >= 2) {
      const nbins = u32();
      need(24 * nbins);
      p += 24 * nbins;
    }
  }
  const nseries = u32();
  /** @type {(string | null)[]} */
  const seriesHost = [];
  for (let i = 0; i < nseries; i++) {
    const nlabels = u32();
    let host = null;
    for (let j = 0; j < nlabels; j++) {
      const name = str();
      const value = str();
      if (name === 'host') host = value;
    }
    need(4 + 32);
    p += 4 + 32; // layout index, spans
    seriesHost.push(host);
  }
  const nchunks = u32();
  /** @type {(string | null)[]} */
  const chunkHost = [];
  for (let i = 0; i < nseries; i++) {
    const c = u32();
    if (c > chunkHost.length || c >= nchunks) throw bad(`series ${i}: chunk ${c} out of order or not in the table`);
    if (c === chunkHost.length) chunkHost.push(seriesHost[i]);
    // A chunk is one host's series (or those with none): else it is no host's alone.
    else if (chunkHost[c] !== seriesHost[i]) chunkHost[c] = null;
  }
  if (chunkHost.length !== nchunks) throw bad(`${nchunks} chunks in the table, ${chunkHost.length} used`);
  return chunkHost;
}

/**
 * The chunks of a level the engine needs when `excludeHosts` are left out:
 * every chunk but those of an excluded host; null for all (a level not cut
 * by host, or none left out). A chunk whose series have no host label (or
 * not one host's) is always needed.
 * @param {LevelIndex} ix @param {string[]} excludeHosts
 * @returns {Set<number> | null}
 */
export function chunksFor(ix, excludeHosts) {
  if (!ix.chunkHost || !excludeHosts.length) return null;
  const out = new Set(excludeHosts);
  const keep = new Set();
  ix.chunkHost.forEach((h, c) => {
    if (h === null || !out.has(h)) keep.add(c);
  });
  return keep.size === ix.chunkHost.length ? null : keep;
}

/** Whether block `i` is one of `chunks` (null: all). @param {LevelIndex} ix @param {number} i @param {Set<number> | null | undefined} chunks */
const taken = (ix, i, chunks) => !chunks || chunks.has(ix.blocks[i].chunk);

/**
 * The end of the time blocks a..b: the last quantum holding a cell, over
 * their chunks (in version 5 the last block of a time block is its last host's, not
 * necessarily the latest). @param {LevelIndex} ix @param {number} a @param {number} b
 */
export function lastOf(ix, a, b) {
  let last = ix.blocks[b].last;
  for (let i = b; i >= a && ix.blocks[i].first === ix.blocks[b].first; i--) last = Math.max(last, ix.blocks[i].last);
  return last;
}

/**
 * The blocks of `ix` holding quanta that overlap [fromMs, toMs): a slice's
 * first and last block index (inclusive), or null when none does.
 * @param {LevelIndex} ix @param {number} fromMs @param {number} toMs
 */
export function blocksIn(ix, fromMs, toMs) {
  const q = ix.level.quantum_ms;
  let a = -1;
  let b = -1;
  ix.blocks.forEach((bl, i) => {
    if ((bl.last + 1) * q > fromMs && bl.first * q < toMs) {
      if (a < 0) a = i;
      b = i;
    }
  });
  // Whole time blocks (version 5: one block per host): a host whose cells
  // in the first time block all lie before fromMs is still in the slice,
  // which claims that time block's start.
  while (a > 0 && ix.blocks[a - 1].first === ix.blocks[a].first) a--;
  return a < 0 ? null : { a, b };
}

/**
 * The cells of blocks a..b (inclusive), of `chunks` only when given.
 * @param {LevelIndex} ix @param {number} a @param {number} b @param {Set<number> | null} [chunks]
 */
export function cellsOf(ix, a, b, chunks) {
  let n = 0;
  for (let i = a; i <= b; i++) if (taken(ix, i, chunks)) n += ix.blocks[i].cells;
  return n;
}

/**
 * Whether a query quantum is a whole multiple of a level's: then each of the
 * level's cells falls whole into one query quantum and the answer is exact
 * (docs/result-format.md).
 * @param {number} q @param {number} of
 */
export function isMultiple(q, of) {
  const k = q / of;
  return k >= 1 && Math.abs(k - Math.round(k)) < 1e-9;
}

/**
 * The stored bytes of blocks a..b (inclusive), of `chunks` only when given:
 * what reading them fetches.
 * @param {LevelIndex} ix @param {number} a @param {number} b @param {Set<number> | null} [chunks]
 */
export function bytesOf(ix, a, b, chunks) {
  if (!chunks) return ix.blocks[b].offset + (ix.pre ?? 4) + ix.blocks[b].zlen - ix.blocks[a].offset;
  let n = 0;
  for (let i = a; i <= b; i++) if (taken(ix, i, chunks)) n += (ix.pre ?? 4) + ix.blocks[i].zlen;
  return n;
}

/**
 * A result holding blocks a..b of a level (of `chunks` only, when given: a
 * version 5 level read for some hosts): its head, the blocks as stored (one
 * range read for each run of adjacent blocks taken), a new index pointing
 * at them, the trailer. The head keeps every series; those whose blocks
 * were left out have no cells in the slice.
 * @param {ByteSource} src @param {LevelIndex} ix @param {number} a @param {number} b @param {Set<number> | null} [chunks]
 * @returns {Promise<Uint8Array>}
 */
export async function sliceLevel(src, ix, a, b, chunks) {
  const pre = ix.pre ?? 4;
  /** @type {number[]} */
  const pick = [];
  for (let i = a; i <= b; i++) if (taken(ix, i, chunks)) pick.push(i);
  /** @type {[number, number][]} runs of adjacent blocks, first and last */
  const runs = [];
  for (const i of pick) {
    const r = runs[runs.length - 1];
    if (r && r[1] === i - 1) r[1] = i;
    else runs.push([i, i]);
  }
  const end = (/** @type {number} */ i) => ix.blocks[i].offset + pre + ix.blocks[i].zlen;
  const parts = await Promise.all(runs.map(([f, l]) => src.read(ix.level.offset + ix.blocks[f].offset, ix.level.offset + end(l))));
  const bodyLen = parts.reduce((n, p) => n + p.length, 0);
  const n = pick.length;
  const width = pre === 8 ? HOST_ENTRY : INDEX_ENTRY;
  const out = new Uint8Array(ix.head.length + bodyLen + 8 + n * width + 16);
  out.set(ix.head, 0);
  let at = ix.head.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  const v = new DataView(out.buffer);
  const ixAt = at;
  for (let i = 0; i < 4; i++) out[ixAt + i] = INDEX_MAGIC.charCodeAt(i);
  v.setUint32(ixAt + 4, n, true);
  let offset = ix.head.length;
  pick.forEach((k, i) => {
    const bl = ix.blocks[k];
    const p = ixAt + 8 + i * width;
    v.setBigInt64(p, BigInt(bl.first), true);
    v.setBigInt64(p + 8, BigInt(bl.last), true);
    v.setBigUint64(p + 16, BigInt(offset), true);
    v.setUint32(p + 24, bl.zlen, true);
    v.setUint32(p + 28, bl.cells, true);
    if (width === HOST_ENTRY) v.setUint32(p + 32, bl.chunk, true);
    offset += pre + bl.zlen;
  });
  const tail = ixAt + 8 + n * width;
  v.setBigUint64(tail, BigInt(ixAt), true);
  for (let i = 0; i < 8; i++) out[tail + 8 + i] = RESULT_END.charCodeAt(i);
  return out;
}

/**
 * Which level to show and which of its blocks: the finest level whose
 * quanta in the visible range are at most `maxQuanta` (about two per pixel
 * column: more detail than the screen has pixels buys nothing) and whose
 * cells there are at most `maxCells` (the page's memory budget). A chosen
 * quantum takes the coarsest level that divides it (a query at a multiple
 * of a level's quantum is exact, docs/result-format.md), or the finest when
 * none does. The whole level is taken when it fits and is at most 4 times
 * the slice (panning then reads nothing more); else the visible range and
 * half its width on each side (a zoom into a day reads minutes, not the day).
 * Both the cells and the stored bytes must fit: the index is untrusted, and a
 * block whose length lies would otherwise be fetched whole before the
 * engine's decoder could refuse it. With `excludeHosts`, a level cut by
 * host counts and takes only the other hosts' blocks (`chunks`, chunksFor):
 * a drill into one host reads that host's.
 * With `offsets` (ms), a coarser level serves only when every offset is a
 * whole number of its quanta: its cells then move whole, and nest in the
 * query's quanta as the finest level's do. An offset that splits a level's
 * cells spreads each over two quanta, which the finest level's cells do not
 * do alike; the CLI reads the finest level under any offset
 * (docs/result-format.md, "Several resolutions"), and so does the page then.
 * @param {LevelIndex[]} levels ascending quantum
 * @param {{from: number, to: number, maxQuanta: number, maxCells: number, maxBytes?: number, quantum_ms?: number | null, excludeHosts?: string[], offsets?: number[]}} o
 * @returns {{li: number, a: number, b: number, whole: boolean, why: string, chunks: Set<number> | null} | null}
 */
export function chooseLevel(levels, o) {
  const span = Math.max(1, o.to - o.from);
  const shifts = (o.offsets ?? []).filter((ms) => ms);
  /** @param {number} li */
  const serves = (li) => li === 0 || shifts.every((ms) => isMultiple(Math.abs(ms), levels[li].level.quantum_ms));
  /** @param {number} li */
  const plan = (li) => {
    const ix = levels[li];
    if (!ix.blocks.length) return null;
    const last = ix.blocks.length - 1;
    const chunks = chunksFor(ix, o.excludeHosts ?? []);
    const fits = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ cells) => cells <= o.maxCells && bytesOf(ix, a, b, chunks) <= (o.maxBytes ?? Infinity);
    const all = cellsOf(ix, 0, last, chunks);
    const r = blocksIn(ix, o.from - span / 2, o.to + span / 2);
    const cells = r ? cellsOf(ix, r.a, r.b, chunks) : 0;
    if (fits(0, last, all) && (!r || all <= 4 * cells)) return { li, a: 0, b: last, whole: true, cells: all, chunks };
    return r && fits(r.a, r.b, cells) ? { li, ...r, whole: false, cells, chunks } : null;
  };
  let coarsest = levels.length - 1;
  while (!serves(coarsest)) --coarsest;
  const offsetWhy = coarsest < levels.length - 1 ? ' (coarser levels: the offsets split their cells)' : '';
  if (o.quantum_ms) {
    let want = 0;
    for (let i = 0; i <= coarsest; i++) if (serves(i) && isMultiple(o.quantum_ms, levels[i].level.quantum_ms)) want = i;
    for (let i = want; i <= coarsest; i++) {
      if (!serves(i)) continue;
      const p = plan(i);
      if (p) return { ...p, why: i === want ? `the chosen quantum${offsetWhy}` : `${levels[want].level.quantum_ms} ms would pass the memory budget here` };
    }
  } else {
    for (let i = 0; i <= coarsest; i++) {
      if (!serves(i) || (span / levels[i].level.quantum_ms > o.maxQuanta && i < coarsest)) continue;
      const p = plan(i);
      if (p) return { ...p, why: i === 0 ? `the finest level${offsetWhy}` : 'finer quanta than pixels, or past the memory budget' };
    }
  }
  const p = plan(coarsest);
  if (p) return { ...p, why: `the coarsest level${offsetWhy}` };
  // Past the budget even so: the coarsest level, whose numbers the offsets
  // make differ from the CLI's in the last digits (said in the why).
  const last = levels.length - 1;
  const q = last > coarsest ? plan(last) : null;
  return q ? { ...q, why: 'the coarsest level, past the memory budget at a level the offsets move whole' } : null;
}
