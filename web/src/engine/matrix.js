// A query result as columns: group x quantum x percentile in typed arrays,
// built where the query ran (the worker). A per-group query over hours at
// 1 s holds hundreds of thousands of rows; as JSON parsed on the main thread
// or as cloned row objects it blocks the page for seconds, as three typed
// arrays it is transferred for free (docs/page-views.md "Speed with many groups").

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
 * @param {any} r engine query result (report.h pctiles_json)
 * @returns {ResultMatrix}
 */
export function matrixOf(r) {
  const groups = /** @type {string[]} */ (r.groups.slice());
  const gIndex = new Map(groups.map((g, i) => [g, i]));
  const ts = new Set();
  for (const row of r.rows) ts.add(row.t_ms);
  const times = Float64Array.from(ts).sort();
  const tIndex = new Map();
  times.forEach((t, i) => tIndex.set(t, i));
  const T = times.length;
  const P = r.percentiles.length;
  const values = new Float64Array(groups.length * T * P).fill(NaN);
  const samples = new Float64Array(groups.length * T);
  for (const row of r.rows) {
    const gi = typeof row.group === 'number' ? row.group : gIndex.get(row.group);
    if (gi === undefined) continue;
    const k = gi * T + tIndex.get(row.t_ms);
    samples[k] = row.samples || 0;
    for (let pi = 0; pi < P; pi++) {
      const v = row.p[pi];
      if (v != null) values[k * P + pi] = v;
    }
  }
  return { groups, percentiles: r.percentiles.slice(), quantum_ms: r.quantum_ms, unit: r.unit, absolute_time: !!r.absolute_time, notes: r.notes || [], times, values, samples };
}
