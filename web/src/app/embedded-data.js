// The result a page carries inside itself (docs/page-loading.md §6): the
// contract with `latscope report`, which writes the page with its data.
// index.html (and so latscope.html) holds exactly
//
//   <script type="application/json" id="latscope-data">null</script>
//
// and a report replaces `null` with
//
//   {"version":1,"name":"<display name>","result":"<base64 of a .lsr file>","view":{...},"trust":[...]}
//
// (`<` written as \u003c, so the text cannot close the element). The page
// loads that result at start-up as if the file had been opened and applies
// the view state. "trust" (optional) is the trust summary of the files the
// report was made from (core folder.h TrustRow): the page shows them as the
// report's inputs (file-table.js renderReportInputs), since the result
// alone no longer says which logs counted its I/Os and how far to trust them. A data block never runs (type="application/json"); its
// text is untrusted all the same: parsed with JSON.parse, every field
// checked, the view validated like a URL fragment (url-state.js), the result's
// bytes checked by the engine.
import { parseViewState } from './url-state.js';
import { checkFiles } from './embed.js';
import { isResultFile } from './link.js';

/** The element's id. */
export const DATA_ID = 'latscope-data';
/** The report's static layer (docs/ci-reports.md, "The static layer"). */
export const STATIC_ID = 'latscope-static';

/**
 * Removes the report's static layer: the verdict and charts `latscope
 * report` wrote as plain HTML and SVG for viewers that run no script. Where
 * this runs, the interactive page shows the same and more; the layer's ids
 * (its heat map's gradient) would otherwise share the page with the views'.
 * @param {Document} doc
 * @returns {boolean} true when there was a layer
 */
export function removeStaticLayer(doc) {
  const el = doc.getElementById(STATIC_ID);
  if (!el) return false;
  el.remove();
  return true;
}
/** The embedded data's format version this page reads. */
export const DATA_VERSION = 1;

/**
 * @typedef {object} EmbeddedData
 * @property {{name: string, bytes: Uint8Array} | null} result  null when error is set
 * @property {Partial<import('./state.js').State>} view   validated view state
 * @property {string[]} notes   what was ignored (fields, view values, trust rows and fields)
 * @property {string} error     a sentence when the data cannot be used ('' otherwise)
 * @property {import('../engine/inthread.js').TrustRow[] | null} trust  the report's inputs; null: the data names none
 * @property {number} trustDropped  rows of "trust" that could not be read (dropped, each with a note)
 */

/**
 * Reads the page's embedded data.
 * @param {Document} doc
 * @returns {EmbeddedData | null} null when the page embeds nothing (no element, or `null`)
 */
export function readEmbeddedData(doc) {
  const el = doc.getElementById(DATA_ID);
  if (!el) return null;
  return parseEmbeddedData(el.textContent ?? '');
}

/**
 * @param {string} text the element's text
 * @returns {EmbeddedData | null}
 */
export function parseEmbeddedData(text) {
  const t = text.trim();
  if (t === 'null' || t === '') return null;
  /** @type {string[]} */
  const notes = [];
  const fail = (/** @type {string} */ error) => ({ result: null, view: {}, notes, error, trust: null, trustDropped: 0 });
  let d;
  try {
    d = JSON.parse(t);
  } catch (e) {
    return fail(`it is not JSON (${/** @type {Error} */ (e).message})`);
  }
  if (!d || typeof d !== 'object' || Array.isArray(d)) return fail('it is not a JSON object');
  if (d.version !== DATA_VERSION) {
    return fail(typeof d.version === 'number' && d.version > DATA_VERSION
      ? `it has version ${d.version}; this page reads version ${DATA_VERSION} (a newer latscope wrote it)`
      : `"version" must be ${DATA_VERSION}`);
  }
  for (const k of Object.keys(d)) if (!['version', 'name', 'result', 'view', 'trust'].includes(k)) notes.push(`unknown field ${JSON.stringify(k.slice(0, 40))} ignored`);
  const { error } = checkFiles([{ name: d.name, data: '' }]);
  if (error) return fail('"name" must be a non-empty string without control characters (at most 4096)');
  if (typeof d.result !== 'string' || !d.result) return fail('"result" must be the base64 of a result file');
  const bytes = fromBase64(d.result);
  if (!bytes) return fail('"result" is not base64');
  if (!isResultFile(bytes)) return fail('"result" is not a latscope result file (it does not start with LSRESULT)');
  const view = parseViewState(d.view);
  notes.push(...view.notes.map((n) => `view: ${n}`));
  const trust = d.trust === undefined ? { rows: null, dropped: 0, notes: [] } : parseTrust(d.trust);
  notes.push(...trust.notes);
  return { result: { name: d.name, bytes }, view: view.state, notes, error: '', trust: trust.rows, trustDropped: trust.dropped };
}

/** At most this many trust rows are read: a report of a cluster's day names thousands of logs, not millions. */
export const MAX_TRUST_ROWS = 10000;
/** At most this many warnings (or notes) per row: the core writes a handful. */
export const MAX_TRUST_LIST = 50;
/** At most this many characters per text field (file names as embed.js allows them). */
export const MAX_TRUST_TEXT = 4096;
/** At most this many notes about the trust rows: hostile data must not fill the console. */
const MAX_TRUST_NOTES = 20;

/** The fields of a row (core trust_json) by type. */
const TRUST_TEXT = ['file', 'what', 'fio_version', 'unit', 'account', 'kind', 'used_instead', 'repairs'];
const TRUST_NUMBERS = ['ios', 'fio_ios'];
const TRUST_FLAGS = ['compared', 'doubtful', 'ok'];
const TRUST_LISTS = ['warnings', 'notes'];

/**
 * The embedded "trust" array, each row checked field by field: the text is
 * untrusted, and only reaches the page as textContent, but it must also
 * not be able to make the page build an unbounded table or drown a real
 * warning in noise. A row without a usable file name is dropped; a field of
 * the wrong type is dropped (its empty value, as the core writes for "none");
 * unknown fields are dropped; each with a note.
 * @param {unknown} raw
 * @returns {{rows: import('../engine/inthread.js').TrustRow[] | null, dropped: number, notes: string[]}}
 */
export function parseTrust(raw) {
  /** @type {string[]} */
  const notes = [];
  let more = 0;
  const note = (/** @type {string} */ n) => {
    if (notes.length < MAX_TRUST_NOTES) notes.push(n);
    else more++;
  };
  if (!Array.isArray(raw)) return { rows: null, dropped: 0, notes: ['"trust" is not an array: ignored'] };
  /** @type {import('../engine/inthread.js').TrustRow[]} */
  const rows = [];
  let dropped = 0;
  if (raw.length > MAX_TRUST_ROWS) {
    dropped += raw.length - MAX_TRUST_ROWS;
    note(`"trust" holds ${raw.length} rows: the first ${MAX_TRUST_ROWS} are read`);
  }
  for (let i = 0; i < Math.min(raw.length, MAX_TRUST_ROWS); i++) {
    const r = raw[i];
    const at = `trust[${i}]`;
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      dropped++;
      note(`${at} is not an object: dropped`);
      continue;
    }
    const f = r.file;
    // eslint-disable-next-line no-control-regex
    if (typeof f !== 'string' || !f || f.length > MAX_TRUST_TEXT || /[\u0000-\u001f\u007f]/.test(f)) {
      dropped++;
      note(`${at}.file must be a file name (1 ... ${MAX_TRUST_TEXT} characters, no control characters): the row is dropped`);
      continue;
    }
    /** @type {import('../engine/inthread.js').TrustRow} */
    const row = { file: f, what: '', fio_version: '', unit: '', account: '', used_instead: '', ios: 0, fio_ios: 0, compared: false, repairs: '', warnings: [], notes: [], doubtful: false, ok: true };
    const bad = (/** @type {string} */ k, /** @type {string} */ why) => note(`${at}.${k} ${why}: dropped`);
    for (const k of Object.keys(r)) {
      const v = r[k];
      if (k === 'file') continue;
      if (TRUST_TEXT.includes(k)) {
        if (typeof v !== 'string' || v.length > MAX_TRUST_TEXT) bad(k, `must be a string of at most ${MAX_TRUST_TEXT} characters`);
        else /** @type {any} */ (row)[k] = plain(v);
      } else if (TRUST_NUMBERS.includes(k)) {
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) bad(k, 'must be a count (a number, 0 or more)');
        else /** @type {any} */ (row)[k] = v;
      } else if (TRUST_FLAGS.includes(k)) {
        if (typeof v !== 'boolean') bad(k, 'must be true or false');
        else /** @type {any} */ (row)[k] = v;
      } else if (TRUST_LISTS.includes(k)) {
        if (!Array.isArray(v)) {
          bad(k, 'must be an array of strings');
          continue;
        }
        if (v.length > MAX_TRUST_LIST) note(`${at}.${k} holds ${v.length} sentences: the first ${MAX_TRUST_LIST} are read`);
        const ok = v.slice(0, MAX_TRUST_LIST).filter((s) => typeof s === 'string' && s.length <= MAX_TRUST_TEXT);
        if (ok.length < Math.min(v.length, MAX_TRUST_LIST)) note(`${at}.${k}: ${Math.min(v.length, MAX_TRUST_LIST) - ok.length} entries that are no string of at most ${MAX_TRUST_TEXT} characters dropped`);
        /** @type {any} */ (row)[k] = ok.map(plain);
      } else note(`${at}: unknown field ${JSON.stringify(k.slice(0, 40))} ignored`);
    }
    rows.push(row);
  }
  if (more) notes.push(`... and ${more} more notes about "trust"`);
  return { rows, dropped, notes };
}

/** A sentence or label as one line of text: control characters (newlines, escapes) as spaces. @param {string} s */
function plain(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/**
 * Standard base64 (RFC 4648 §4, padding optional; whitespace allowed
 * between lines) -> bytes, or null when it is not base64.
 * @param {string} s
 * @returns {Uint8Array | null}
 */
export function fromBase64(s) {
  const c = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(c) || c.length % 4 === 1) return null;
  let bin;
  try {
    bin = atob(c.replace(/=+$/, '') + '='.repeat((4 - (c.replace(/=+$/, '').length % 4)) % 4));
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
