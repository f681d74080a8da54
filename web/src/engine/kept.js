// Copies of the encoded Sources (model_io encode_source, "LSRC") an engine
// loaded, kept on the side that loaded them so that the page can put its
// data into a link ("Copy link with data") or hand it on. Bounded: past
// MAX_KEPT_BYTES nothing more is kept and the list says it is incomplete
// (a link could not hold that much anyway).

/** Encoded bytes kept at most (a link holds ~64 KB compressed). */
export const MAX_KEPT_BYTES = 8 * 1024 * 1024;

/**
 * @typedef {object} EncodedSource
 * @property {string} name
 * @property {Uint8Array} bytes      encode_source's bytes (LSRC, this build's version)
 * @property {string} [readError]    the page's read_error for the file
 */

/**
 * @typedef {object} EncodedSources
 * @property {EncodedSource[]} sources
 * @property {boolean} complete  false when the bound was passed (some sources are missing)
 * @property {number} bytes      encoded bytes of everything loaded, kept or not
 */

export class KeptSources {
  constructor() {
    /** @type {EncodedSource[]} */
    this.sources = [];
    this.keptBytes = 0;
    this.totalBytes = 0;
    this.complete = true;
  }

  /** @param {string} name @param {Uint8Array} bytes @param {string} [readError] */
  add(name, bytes, readError = '') {
    this.totalBytes += bytes.length;
    if (!this.complete || this.keptBytes + bytes.length > MAX_KEPT_BYTES) {
      this.complete = false;
      this.sources = [];
      this.keptBytes = 0;
      return;
    }
    this.keptBytes += bytes.length;
    // A copy: the caller's bytes are transferred to a worker afterwards.
    this.sources.push({ name, bytes: bytes.slice(), ...(readError ? { readError } : {}) });
  }

  /** @returns {EncodedSources} */
  list() {
    return { sources: this.sources.slice(), complete: this.complete, bytes: this.totalBytes };
  }

  clear() {
    this.sources = [];
    this.keptBytes = 0;
    this.totalBytes = 0;
    this.complete = true;
  }
}
