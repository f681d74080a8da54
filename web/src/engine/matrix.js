// A query's values as a matrix: group x quantum x percentile in typed
// arrays, built by the engine where the query ran (the worker; report.h
// ValueMatrixBuilder). A per-group query over hours at 1 s holds hundreds of
// thousands of rows; as JSON parsed on the main thread or as cloned row
// objects it blocks the page for seconds, as three typed arrays it is
// transferred for free (docs/page-speed.md "Speed with many groups"). Only
// the values are made: the groups view shows nothing else.

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
 * @property {import('./inthread.js').SlaVerdict[]} [sla]  with the option "sla": core's verdicts on these rows (rule, pi, max)
 * @property {Uint8Array} [sla_marks]  with sla: [(group * times + time) * sla.length + k] 1 where the cell breaks verdict k's rule (core ValueMatrix::marks)
 * @property {number} [engine_ms]  how long the engine took to answer (benchmarks; the longer part's when joined)
 */

/**
 * From the WebAssembly binding's queryMatrix answer: its meta (pctiles JSON
 * without rows) and the three arrays (copies owned by JS).
 * @param {{meta: string, times: Float64Array, values: Float64Array, samples: Float64Array, sla?: string, sla_marks?: Uint8Array}} raw
 * @returns {ResultMatrix}
 */
export function matrixOf(raw) {
  const m = JSON.parse(raw.meta);
  return {
    groups: m.groups,
    percentiles: m.percentiles,
    quantum_ms: m.quantum_ms,
    unit: m.unit,
    absolute_time: !!m.absolute_time,
    notes: m.notes || [],
    times: raw.times,
    values: raw.values,
    samples: raw.samples,
    ...(raw.sla ? { sla: JSON.parse(raw.sla).verdicts, sla_marks: raw.sla_marks } : {}),
  };
}

/**
 * One matrix from two parts of a query (the options' "part", twin.js): b's
 * times follow a's, so each group's run of times is a's then b's. The notes
 * of both without repeats.
 * @param {ResultMatrix} a @param {ResultMatrix} b @returns {ResultMatrix}
 */
export function joinMatrix(a, b) {
  const notes = [...a.notes, ...b.notes.filter((t) => !a.notes.includes(t))];
  if (!b.times.length) return { ...a, notes };
  if (!a.times.length) return { ...b, notes };
  const G = a.groups.length;
  const P = a.percentiles.length;
  const ta = a.times.length;
  const tb = b.times.length;
  const T = ta + tb;
  const times = new Float64Array(T);
  times.set(a.times);
  times.set(b.times, ta);
  const values = new Float64Array(G * T * P);
  const samples = new Float64Array(G * T);
  for (let g = 0; g < G; g++) {
    values.set(a.values.subarray(g * ta * P, (g + 1) * ta * P), g * T * P);
    values.set(b.values.subarray(g * tb * P, (g + 1) * tb * P), (g * T + ta) * P);
    samples.set(a.samples.subarray(g * ta, (g + 1) * ta), g * T);
    samples.set(b.samples.subarray(g * tb, (g + 1) * tb), g * T + ta);
  }
  /** @type {ResultMatrix} */
  const out = { ...a, notes, times, values, samples };
  // The marks are per cell, as the values (one per verdict where values have one per percentile).
  const V = a.sla?.length ?? 0;
  if (V && a.sla_marks && b.sla_marks) {
    const marks = new Uint8Array(G * T * V);
    for (let g = 0; g < G; g++) {
      marks.set(a.sla_marks.subarray(g * ta * V, (g + 1) * ta * V), g * T * V);
      marks.set(b.sla_marks.subarray(g * tb * V, (g + 1) * tb * V), (g * T + ta) * V);
    }
    out.sla_marks = marks;
  }
  if (a.engine_ms != null && b.engine_ms != null) out.engine_ms = Math.max(a.engine_ms, b.engine_ms);
  return out;
}
