// "Copy link with data": the loaded data, as a result file, compressed into
// the URL fragment (`#v=1&...&d=...`), so that the link opens the same views
// with no server beyond the page itself (docs/embedding.md §3).
//
// What the link carries: a result file (docs/result-format.md, "LSRESULT",
// written by the engine's encode_result at the page's quantum, keeping the
// labels the page groups by), with a display name. Framed and written in
// base64url:
//
//   "LSLK" u8 version=1 u8 kind=2 (result) varint len + UTF-8 name, then the result file's bytes
//
// Not compressed again: the result's header and blocks are zlib streams
// already, and a second deflate made links longer (a 4-log result of
// 24,496 bytes: 24,506 as deflate-raw level 9; docs/embedding.md §3).
//
// (Kind 1, the engine's encoded Sources of earlier builds, is no longer
// written or read: a link of kind 1 says it was made by another version.)
// The result format is versioned and migrated by every later reader, so such
// a link outlives the page's version. A link is at most MAX_LINK_CHARS long;
// beyond that the page offers the result file for download instead.
/** The longest link with data the page makes (browsers and chat tools cope with this much). */
export const MAX_LINK_CHARS = 64 * 1024;

const MAGIC = [0x4c, 0x53, 0x4c, 0x4b]; // "LSLK"
const VERSION = 1;
const KIND_RESULT = 2;
/** A result file starts with "LSRESULT" (docs/result-format.md). */
export const RESULT_MAGIC = 'LSRESULT';

/**
 * @typedef {object} LinkResult
 * @property {string} name       display name (the file table's)
 * @property {Uint8Array} bytes  the result file
 */

/** @param {number[]} out @param {number} n */
function putVarint(out, n) {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/** @param {Uint8Array} b */
export function isResultFile(b) {
  return b.length >= 8 && String.fromCharCode(...b.subarray(0, 8)) === RESULT_MAGIC;
}

/**
 * @param {LinkResult} r
 * @returns {Uint8Array} the framed, uncompressed payload
 */
export function framePayload(r) {
  const name = new TextEncoder().encode(r.name);
  /** @type {number[]} */
  const head = [...MAGIC, VERSION, KIND_RESULT];
  putVarint(head, name.length);
  const out = new Uint8Array(head.length + name.length + r.bytes.length);
  out.set(head, 0);
  out.set(name, head.length);
  out.set(r.bytes, head.length + name.length);
  return out;
}

/**
 * @param {Uint8Array} b framed payload
 * @returns {LinkResult}
 */
export function unframePayload(b) {
  let o = 0;
  const need = (/** @type {number} */ n) => {
    if (o + n > b.length) throw new Error('the link data is truncated');
  };
  need(6);
  if (MAGIC.some((m, i) => b[i] !== m)) throw new Error('the link data is not latscope data');
  o = 4;
  const version = b[o++];
  const kind = b[o++];
  if (version !== VERSION || kind !== KIND_RESULT) throw new Error(`the link data has version ${version}, kind ${kind}: made by another latscope version`);
  let n = 0;
  let mul = 1;
  for (let i = 0; ; i++) {
    if (i === 3) throw new Error('the link data is malformed');
    need(1);
    const x = b[o++];
    n += (x & 0x7f) * mul;
    if (!(x & 0x80)) break;
    mul *= 128;
  }
  need(n);
  let name = '';
  try {
    name = new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(o, o + n));
  } catch {
    throw new Error('the link data names its file in bytes that are not UTF-8');
  }
  o += n;
  // eslint-disable-next-line no-control-regex
  if (!name || name.length > 4096 || /[\u0000-\u001f]/.test(name)) throw new Error('the link data names its file badly');
  const bytes = b.slice(o);
  if (!isResultFile(bytes)) throw new Error('the link data holds no latscope result file');
  return { name, bytes };
}

/** @param {Uint8Array} b */
export function base64url(b) {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** @param {string} s */
export function fromBase64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('the link data is not base64url');
  // One symbol past a group of four holds no byte: a cut link (atob threw
  // its own "Invalid character"; web/test/unit/fuzz-fragment.test.js).
  if (s.length % 4 === 1) throw new Error('the link data is cut (its base64url length is one past a whole group)');
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * The `d=` value for a result file.
 * @param {LinkResult} r
 * @returns {{data: string, bytes: number}} bytes: the framed payload's size
 */
export function encodeLinkData(r) {
  const raw = framePayload(r);
  return { data: base64url(raw), bytes: raw.length };
}

/**
 * The result file of a `d=` value (the engine checks every byte of it when
 * it is opened). Throws with a sentence.
 * @param {string} data
 * @returns {LinkResult}
 */
export function decodeLinkData(data) {
  return unframePayload(fromBase64url(data));
}

