// The result a page carries inside itself (docs/page-loading.md §6): the
// contract with `latscope report`, which writes the page with its data.
// index.html (and so latscope.html) holds exactly
//
//   <script type="application/json" id="latscope-data">null</script>
//
// and a report replaces `null` with
//
//   {"version":1,"name":"<display name>","result":"<base64 of a .lsr file>","view":{...}}
//
// (`<` written as \u003c, so the text cannot close the element). The page
// loads that result at start-up as if the file had been opened and applies
// the view state. A data block never runs (type="application/json"); its
// text is untrusted all the same: parsed with JSON.parse, every field
// checked, the view validated like a URL fragment (url-state.js), the result's
// bytes checked by the engine.
import { parseViewState } from './url-state.js';
import { checkFiles } from './embed.js';
import { isResultFile } from './link.js';

/** The element's id. */
export const DATA_ID = 'latscope-data';
/** The embedded data's format version this page reads. */
export const DATA_VERSION = 1;

/**
 * @typedef {object} EmbeddedData
 * @property {{name: string, bytes: Uint8Array} | null} result  null when error is set
 * @property {Partial<import('./state.js').State>} view   validated view state
 * @property {string[]} notes   what was ignored (fields, view values)
 * @property {string} error     a sentence when the data cannot be used ('' otherwise)
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
  const fail = (/** @type {string} */ error) => ({ result: null, view: {}, notes, error });
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
  for (const k of Object.keys(d)) if (!['version', 'name', 'result', 'view'].includes(k)) notes.push(`unknown field ${JSON.stringify(k.slice(0, 40))} ignored`);
  const { error } = checkFiles([{ name: d.name, data: '' }]);
  if (error) return fail('"name" must be a non-empty string without control characters (at most 4096)');
  if (typeof d.result !== 'string' || !d.result) return fail('"result" must be the base64 of a result file');
  const bytes = fromBase64(d.result);
  if (!bytes) return fail('"result" is not base64');
  if (!isResultFile(bytes)) return fail('"result" is not a latscope result file (it does not start with LSRESULT)');
  const view = parseViewState(d.view);
  notes.push(...view.notes.map((n) => `view: ${n}`));
  return { result: { name: d.name, bytes }, view: view.state, notes, error: '' };
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
