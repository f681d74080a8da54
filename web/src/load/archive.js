// Archives of a results folder fetched from a URL (#url=): .tar, .tar.gz
// (.tgz) and .zip are unpacked in the page into load items named by their
// path inside the archive, exactly as if the folder had been dropped. A
// plain log or a single .gz stays one item (the workers inflate .gz).
//
//   bytes ─ sniff ─┬─ zip ────────────── fflate unzipSync (entries bounded) ─┐
//                  ├─ gzip ─ gunzip ─┬── tar ─ untar ───────────────────────┤─▶ selectItems (OS/VCS paths listed)
//                  │                 └── not tar: the .gz itself ───────────┤
//                  ├─ tar ─ untar ──────────────────────────────────────────┤
//                  └─ anything else: the file itself ───────────────────────┘
//
// Tar is parsed here (POSIX ustar, GNU long names, pax path records);
// directories, links and devices are skipped. Bounds: unpacked bytes
// (MAX_UNPACKED) and entries (MAX_ENTRIES), so a bomb stops with a sentence.
import { unzipSync, Gunzip } from 'fflate';
import { readChunks, sniffContainer, Container } from './read.js';
import { selectItems } from './files.js';

/** Unpacked bytes of one archive at most. */
export const MAX_UNPACKED = 2 ** 31;
/** Files in one archive at most. */
export const MAX_ENTRIES = 100000;

/** True when the bytes start a tar archive (ustar magic, or a valid v7 header checksum). @param {Uint8Array} b */
export function isTar(b) {
  if (b.length < 512) return false;
  const magic = String.fromCharCode(...b.subarray(257, 262));
  if (magic === 'ustar') return true;
  return checksumOk(b.subarray(0, 512)) && b[0] !== 0;
}

/** @param {Uint8Array} h 512-byte header */
function checksumOk(h) {
  const want = octal(h.subarray(148, 156));
  if (want < 0) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  return sum === want;
}

/** An octal number field (NUL/space terminated); -1 when malformed. @param {Uint8Array} f */
function octal(f) {
  // GNU base-256 for sizes of 8 GiB and more.
  if (f[0] & 0x80) {
    let n = 0;
    for (let i = 1; i < f.length; i++) n = n * 256 + f[i];
    return n;
  }
  const s = text(f).trim();
  if (!s) return 0;
  if (!/^[0-7]+$/.test(s)) return -1;
  return parseInt(s, 8);
}

/** NUL-terminated UTF-8 text. @param {Uint8Array} f */
function text(f) {
  const end = f.indexOf(0);
  return new TextDecoder().decode(end < 0 ? f : f.subarray(0, end));
}

/**
 * The regular files of a tar archive. Throws with a sentence when it is
 * malformed before any file, or over the bounds.
 * @param {Uint8Array} b @param {number} [limit] unpacked bytes at most (MAX_UNPACKED)
 * @returns {{name: string, bytes: Uint8Array}[]}
 */
export function untar(b, limit = MAX_UNPACKED) {
  /** @type {{name: string, bytes: Uint8Array}[]} */
  const out = [];
  let off = 0;
  let longName = '';
  let paxPath = '';
  let total = 0;
  while (off + 512 <= b.length) {
    const h = b.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break; // end of archive
    if (!checksumOk(h)) {
      if (!out.length) throw new Error(`tar header at byte ${off} fails its checksum`);
      break; // trailing garbage: keep what was read
    }
    const size = octal(h.subarray(124, 136));
    if (size < 0) throw new Error(`tar header at byte ${off} has a malformed size`);
    const type = String.fromCharCode(h[156] || 48);
    const dataAt = off + 512;
    const data = b.subarray(dataAt, Math.min(b.length, dataAt + size));
    off = dataAt + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = text(data);
      continue;
    }
    if (type === 'x') {
      paxPath = paxRecord(data, 'path') || paxPath;
      continue;
    }
    if (type === 'g') continue;
    let name = text(h.subarray(0, 100));
    const prefix = text(h.subarray(345, 500));
    if (String.fromCharCode(...h.subarray(257, 262)) === 'ustar' && prefix) name = `${prefix}/${name}`;
    if (longName) name = longName;
    if (paxPath) name = paxPath;
    longName = '';
    paxPath = '';
    if (type !== '0' && type !== '7') continue; // directories, links, devices, fifos
    if (data.length < size) throw new Error(`tar archive truncated inside ${JSON.stringify(name)}`);
    total += size;
    if (total > limit) throw new Error(`tar archive unpacks to over ${limit} bytes: stopped`);
    if (out.length >= MAX_ENTRIES) throw new Error(`tar archive holds over ${MAX_ENTRIES} files: stopped`);
    out.push({ name: cleanPath(name), bytes: data });
  }
  return out;
}

/** A pax extended header's value for a key. @param {Uint8Array} data @param {string} key */
function paxRecord(data, key) {
  const s = new TextDecoder().decode(data);
  for (const line of s.split('\n')) {
    const m = /^\d+ ([^=]+)=(.*)$/.exec(line);
    if (m && m[1] === key) return m[2];
  }
  return '';
}

/** "./a//b/" -> "a/b"; ".." parts are dropped (names only name things, nothing is written). @param {string} p */
export function cleanPath(p) {
  return p
    .split('/')
    .filter((x) => x && x !== '.' && x !== '..')
    .join('/');
}

/**
 * The files of a zip archive (fflate), bounded.
 * @param {Uint8Array} b @param {number} [limit] unpacked bytes at most (MAX_UNPACKED)
 * @returns {{name: string, bytes: Uint8Array}[]}
 */
export function unzipFiles(b, limit = MAX_UNPACKED) {
  let total = 0;
  let n = 0;
  let over = '';
  const files = unzipSync(b, {
    filter: (f) => {
      if (f.name.endsWith('/')) return false;
      total += f.originalSize;
      n++;
      if (total > limit) over = `zip archive unpacks to over ${limit} bytes: stopped`;
      if (n > MAX_ENTRIES) over = `zip archive holds over ${MAX_ENTRIES} files: stopped`;
      return !over;
    },
  });
  if (over) throw new Error(over);
  return Object.entries(files).map(([name, bytes]) => ({ name: cleanPath(name), bytes }));
}

/**
 * Inflates a whole gzip blob (multi-member, checked as for local files),
 * stopping past `limit` bytes: a small .tar.gz of zeros inflated without
 * end before the tar's own bound was looked at.
 * @param {Blob} blob @param {AbortSignal | undefined} signal @param {number} limit
 */
async function gunzipAll(blob, signal, limit) {
  /** @type {Uint8Array[]} */
  const parts = [];
  let n = 0;
  let problem = '';
  for await (const c of readChunks(blob, { signal, onProblem: (m) => (problem = m) })) {
    n += c.length;
    if (n > limit) throw new Error(`tar.gz archive unpacks to over ${limit} bytes: stopped`);
    parts.push(c);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { bytes: out, problem };
}

/**
 * Turns one downloaded file into load items: archives unpacked (names are
 * paths inside them, under `folder` when given), anything else kept whole.
 * @param {string} name the file's name (last part of its URL)
 * @param {Blob} blob
 * @param {{folder?: string, signal?: AbortSignal, limit?: number}} [o]
 *   limit: unpacked bytes at most (the downloads' budget; MAX_UNPACKED when larger or absent)
 * @returns {Promise<import('./files.js').ItemSelection & {archive: string, note: string}>}
 *   archive: 'tar', 'tar.gz', 'zip' or ''; note: a problem with the archive's bytes (what was kept)
 */
export async function expandDownload(name, blob, o = {}) {
  const head = new Uint8Array(await blob.slice(0, 512).arrayBuffer());
  const kind = sniffContainer(head);
  const under = (/** @type {string} */ p) => (o.folder ? `${o.folder}/${p}` : p);
  const limit = o.limit !== undefined && o.limit > 0 ? Math.min(o.limit, MAX_UNPACKED) : MAX_UNPACKED;
  /** @param {{name: string, bytes: Uint8Array}[]} files @param {string} archive @param {string} note */
  const items = (files, archive, note) => {
    const sel = selectItems(files.filter((f) => f.name).map((f) => ({ name: under(f.name), file: new Blob([/** @type {BlobPart} */ (f.bytes)]) })));
    return { ...sel, archive, note };
  };
  try {
    if (kind === Container.ZIP) return items(unzipFiles(new Uint8Array(await blob.arrayBuffer()), limit), 'zip', '');
    if (kind === Container.GZIP) {
      // Only a .tar inside is unpacked here; a gzip'd log goes to the
      // workers as it is (they inflate it while reading).
      const first = new Uint8Array(await firstInflated(blob, o.signal));
      if (isTar(first)) {
        const { bytes, problem } = await gunzipAll(blob, o.signal, limit);
        return items(untar(bytes, limit), 'tar.gz', problem);
      }
    } else if (isTar(head)) {
      return items(untar(new Uint8Array(await blob.arrayBuffer()), limit), 'tar', '');
    }
  } catch (e) {
    if (/** @type {Error} */ (e).name === 'AbortError') throw e;
    throw new Error(`${name}: ${/** @type {Error} */ (e).message}`);
  }
  return { items: [{ name, file: blob }], skipped: [], archive: '', note: '' };
}

/** The first 512 inflated bytes of a gzip blob (or fewer). @param {Blob} blob @param {AbortSignal} [signal] */
async function firstInflated(blob, signal) {
  /** @type {Uint8Array[]} */
  const got = [];
  let n = 0;
  const gz = new Gunzip((c) => {
    got.push(c);
    n += c.length;
  });
  for (let off = 0; off < blob.size && n < 512; off += 16384) {
    if (signal?.aborted) break;
    try {
      gz.push(new Uint8Array(await blob.slice(off, off + 16384).arrayBuffer()), off + 16384 >= blob.size);
    } catch {
      break;
    }
  }
  const out = new Uint8Array(Math.min(512, n));
  let o = 0;
  for (const c of got) {
    if (o >= out.length) break;
    out.set(c.subarray(0, out.length - o), o);
    o += Math.min(c.length, out.length - o);
  }
  return out;
}
