// "Copy link with data": the loaded data, reduced and compressed into the
// URL fragment (`#v=1&...&d=...`), so that the link opens the same views
// with no server beyond the page itself.
//
// What the link carries (until core's mergeable result file lands, issue 6
// §1): the engine's encoded Sources (model_io encode_source, "LSRC": each
// file's parsed histogram windows as varint-coded (bin, count) pairs, its
// name, labels and issues; no log text), exactly what the page's workers
// hand to the primary engine. They are framed, compressed with deflate-raw
// (fflate) and written in base64url:
//
//   "LSLK" u8 version=1 u8 kind=1 (LSRC sources) varint count
//   per source: varint len + UTF-8 name, varint len + UTF-8 read_error, varint len + LSRC bytes
//
// The LSRC encoding is versioned and a build rejects other versions (they
// are not migrated): a link with data opens in the same latscope version,
// and a newer page says the link was made by another version. A link is at
// most MAX_LINK_CHARS long; beyond that the page says so and offers the
// alternatives (host the files and share a #url= link; send the files).
import { deflateSync, inflateSync } from 'fflate';

/** The longest link with data the page makes (browsers and chat tools cope with this much). */
export const MAX_LINK_CHARS = 64 * 1024;
/** Inflated payload bound when reading a link (a link is untrusted). */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

const MAGIC = [0x4c, 0x53, 0x4c, 0x4b]; // "LSLK"
const VERSION = 1;
const KIND_LSRC = 1;

/** @param {number[]} out @param {number} n */
function putVarint(out, n) {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/**
 * @param {import('../engine/kept.js').EncodedSource[]} sources
 * @returns {Uint8Array} the framed, uncompressed payload
 */
export function framePayload(sources) {
  const enc = new TextEncoder();
  /** @type {number[]} */
  const head = [...MAGIC, VERSION, KIND_LSRC];
  putVarint(head, sources.length);
  /** @type {Uint8Array[]} */
  const parts = [Uint8Array.from(head)];
  for (const s of sources) {
    for (const field of [enc.encode(s.name), enc.encode(s.readError ?? ''), s.bytes]) {
      /** @type {number[]} */
      const len = [];
      putVarint(len, field.length);
      parts.push(Uint8Array.from(len), field);
    }
  }
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * @param {Uint8Array} b framed payload
 * @returns {import('../engine/kept.js').EncodedSource[]}
 */
export function unframePayload(b) {
  let o = 0;
  const need = (/** @type {number} */ n) => {
    if (o + n > b.length) throw new Error('the link data is truncated');
  };
  const varint = () => {
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      need(1);
      const x = b[o++];
      n += (x & 0x7f) * mul;
      if (!(x & 0x80)) return n;
      mul *= 128;
    }
    throw new Error('the link data is malformed');
  };
  need(6);
  if (MAGIC.some((m, i) => b[i] !== m)) throw new Error('the link data is not latscope data');
  o = 4;
  const version = b[o++];
  const kind = b[o++];
  if (version !== VERSION || kind !== KIND_LSRC) throw new Error(`the link data has version ${version}, kind ${kind}: made by another latscope version`);
  const count = varint();
  if (count > 100000) throw new Error('the link data is malformed');
  const dec = new TextDecoder('utf-8', { fatal: true });
  /** @type {import('../engine/kept.js').EncodedSource[]} */
  const out = [];
  for (let i = 0; i < count; i++) {
    /** @type {Uint8Array[]} */
    const f = [];
    for (let k = 0; k < 3; k++) {
      const n = varint();
      need(n);
      f.push(b.subarray(o, o + n));
      o += n;
    }
    const name = dec.decode(f[0]);
    if (!name || name.length > 4096) throw new Error('the link data names a file badly');
    const readError = dec.decode(f[1]).slice(0, 2000);
    out.push({ name, bytes: f[2].slice(), ...(readError ? { readError } : {}) });
  }
  return out;
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
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * The `d=` value for the loaded data.
 * @param {import('../engine/kept.js').EncodedSource[]} sources
 * @returns {{data: string, rawBytes: number, compressedBytes: number}}
 */
export function encodeLinkData(sources) {
  const raw = framePayload(sources);
  const z = deflateSync(raw, { level: 9, mem: 8 });
  return { data: base64url(z), rawBytes: raw.length, compressedBytes: z.length };
}

/**
 * The encoded Sources of a `d=` value. Throws with a sentence.
 * @param {string} data
 * @returns {import('../engine/kept.js').EncodedSource[]}
 */
export function decodeLinkData(data) {
  const z = fromBase64url(data);
  let raw;
  try {
    // The output bound: a link of 64 KB cannot legitimately inflate past it.
    raw = inflateSync(z, { out: undefined });
  } catch (e) {
    throw new Error(`the link data is corrupt (${/** @type {Error} */ (e).message})`);
  }
  if (raw.length > MAX_PAYLOAD_BYTES) throw new Error('the link data inflates too far');
  return unframePayload(raw);
}

/** 65536 -> "64.0 KB" @param {number} n */
export function kb(n) {
  return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`;
}
