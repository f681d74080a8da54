// A query result as columns: group x quantum x percentile in typed arrays,
// built where the query ran (the worker). A per-group query over hours at
// 1 s holds hundreds of thousands of rows; as JSON parsed on the main thread
// or as cloned row objects it blocks the page for seconds, as three typed
// arrays it is transferred for free (docs/page-views.md "Speed with many groups").
import { columnsFromJson } from './columns.js';

/**
 * @typedef {object} ResultMatrix
 * @property {string[]} groups       engine group keys, in the result's order
 * @property {string[]} percentiles  as the result names them
 * @property {number} quantum_ms
 * @property {string} unit
 * @property {boolean} absolute_time
 * @property {string[]} notes
 * @property {Float64Array} times    quantum starts (ms), ascending, every quantum any group has
 * @property {Float64Array} values   [group][time][percentile], NaN: no value
 * @property {Float64Array} samples  [group][time]
 */

/**
 * @param {import('./columns.js').ResultColumns | any} r the query as columns
 *   (columns.js), or as pctiles JSON (report.h pctiles_json)
 * @returns {ResultMatrix}
 */
export function matrixOf(r) {
  const c = r.t_ms instanceof Float64Array ? /** @type {import('./columns.js').ResultColumns} */ (r) : columnsFromJson(r);
  const times = Float64Array.from(new Set(c.t_ms)).sort();
  const tIndex = new Map();
  times.forEach((t, i) => tIndex.set(t, i));
  const T = times.length;
  const P = c.percentiles.length;
  const values = new Float64Array(c.groups.length * T * P).fill(NaN);
  const samples = new Float64Array(c.groups.length * T);
  for (let i = 0; i < c.n; i++) {
    const k = c.group[i] * T + tIndex.get(c.t_ms[i]);
    samples[k] = c.samples[i];
    values.set(c.p.subarray(i * P, i * P + P), k * P);
  }
  return { groups: c.groups.slice(), percentiles: c.percentiles.slice(), quantum_ms: c.quantum_ms, unit: c.unit, absolute_time: !!c.absolute_time, notes: c.notes || [], times, values, samples };
}
