import { yieldToEvents } from '../util/yield.js';
// A percentiles query as columns (report.h pctiles_columns): what the
// worker posts for the percentiles view instead of JSON text. With 200 hosts
// the JSON of one regroup was 22.6 MB: writing it in WebAssembly, copying it
// to the main thread and JSON.parse there cost more than the query itself
// (docs/page-speed.md "Speed with many groups"). Typed arrays are
// transferred without a copy and read in place.
//
// The same fields as pctiles_json; NaN stands for its null. `rows` (the
// JSON's row objects) is made on first use for the few readers that want
// rows; the percentiles view, the SLA summary and the groups matrix read
// the columns.


/**
 * @typedef {object} ResultColumns
 * @property {number} quantum_ms
 * @property {boolean} [adaptive]  rows are adaptive quanta (width_ms)
 * @property {boolean} absolute_time
 * @property {string} unit
 * @property {string} layout
 * @property {string[]} percentiles  as given ("99.9")
 * @property {string[]} groups
 * @property {string[]} notes
 * @property {any[]} [issues]
 * @property {any[]} [examples]
 * @property {number} n  rows, ordered by time, then group
 * @property {Float64Array} t_ms
 * @property {Float64Array} width_ms  adaptive quanta only (else empty)
 * @property {Uint32Array} group  index into groups
 * @property {Float64Array} samples
 * @property {Float64Array} min
 * @property {Float64Array} mean
 * @property {Float64Array} max
 * @property {Float64Array} p    [row * percentiles.length + pi]
 * @property {boolean} [bands]  false: the query left the bands out ({bands: false}); err, lo, hi are empty
 * @property {Float64Array} err  bin width of each value
 * @property {Float64Array} lo   95% sampling band (docs/uncertainty.md)
 * @property {Float64Array} hi   NaN with lo set: unbounded above
 * @property {Float64Array} [value_t_ms]  pixel columns' rows (QueryOptions::columns): [row * (percentiles.length + 3) + k], the quantum each percentile, then max, min, mean is from
 * @property {Uint32Array} flag  index into flag_texts (0: none)
 * @property {string[]} flag_texts
 * @property {import('./inthread.js').SlaVerdict[]} [sla]  with the option "sla": core's verdicts on these rows (their rule, pi, max; the counts of this part only when joined)
 * @property {Uint8Array} [sla_marks]  with sla: [row * sla.length + k] 1 where the row breaks verdict k's rule (core sla_field.h SlaFieldJudge::marks)
 * @property {any[]} [rows]  pctiles_json's rows, made on first use
 * @property {number} [engine_ms]  how long the engine took to answer (benchmarks)
 */

const F64 = ['t_ms', 'width_ms', 'samples', 'min', 'mean', 'max', 'p', 'err', 'lo', 'hi', 'value_t_ms'];

/**
 * From the WebAssembly binding's answer: meta and flag texts as JSON text,
 * the rest typed arrays (copies owned by JS).
 * @param {any} raw @returns {ResultColumns}
 */
export function columnsOf(raw) {
  const meta = JSON.parse(raw.meta);
  delete meta.rows;
  const c = { ...meta, n: raw.t_ms.length, flag_texts: JSON.parse(raw.flag_texts), group: raw.group, flag: raw.flag };
  for (const k of F64) c[k] = raw[k];
  if (raw.sla) {
    c.sla = JSON.parse(raw.sla).verdicts;
    c.sla_marks = raw.sla_marks;
  }
  return c;
}

/**
 * One answer from two parts of a query (the options' "part", twin.js): the
 * rows of b after a's (b's quanta follow a's), b's flag texts taken into
 * a's, the notes of both without repeats. Equal to the whole query's
 * columns (web/test/unit/engine-twin.test.js): its flag texts are numbered
 * by first use, as here. a's arrays are grown in place when their buffer
 * can (the worker reserves room for the whole query's rows), so only b's
 * rows are written again. It yields between columns: b's rows of 200 hosts
 * at 1 s are 31 MB written into fresh memory, 177 ms in one task on the
 * benchmark's VM.
 * @param {ResultColumns} a @param {ResultColumns} b @returns {Promise<ResultColumns>}
 */
export async function joinColumns(a, b) {
  const notes = [...a.notes, ...b.notes.filter((t) => !a.notes.includes(t))];
  if (!b.n) return { ...a, notes };
  if (!a.n) return { ...b, notes };
  const texts = [...a.flag_texts];
  const remap = Uint32Array.from(b.flag_texts, (t) => {
    const i = texts.indexOf(t);
    return i >= 0 ? i : texts.push(t) - 1;
  });
  /** @type {any} */
  const out = { ...a, notes, flag_texts: texts, n: a.n + b.n };
  if (a.engine_ms != null && b.engine_ms != null) out.engine_ms = Math.max(a.engine_ms, b.engine_ms);
  for (const k of [...F64, 'group', 'flag']) {
    /** @type {Float64Array | Uint32Array} */
    const x = /** @type {any} */ (a)[k];
    /** @type {Float64Array | Uint32Array} */
    const y = /** @type {any} */ (b)[k];
    if (!y?.length || !x) continue;  // value_t_ms: pixel columns' answers only
    const z = grown(x, x.length + y.length);
    if (k !== 'flag' || remap.every((v, i) => v === i)) z.set(y, x.length);
    else for (let i = 0; i < y.length; i++) z[x.length + i] = remap[y[i]];
    out[k] = z;
    await yieldToEvents();
  }
  // The marks are per row, as the columns: b's after a's.
  if (a.sla_marks && b.sla_marks) {
    const z = new Uint8Array(a.sla_marks.length + b.sla_marks.length);
    z.set(a.sla_marks);
    z.set(b.sla_marks, a.sla_marks.length);
    out.sla_marks = z;
  }
  return out;
}

/**
 * x's values in an array of `len`: x's own buffer resized when it is
 * resizable with room (transferred resizable buffers stay so), else a copy.
 * @template {Float64Array | Uint32Array} T @param {T} x @param {number} len @returns {T}
 */
function grown(x, len) {
  const buf = /** @type {any} */ (x.buffer);
  const bytes = len * x.BYTES_PER_ELEMENT;
  if (buf.resizable && x.byteOffset === 0 && buf.maxByteLength >= bytes) {
    buf.resize(bytes);
    return /** @type {T} */ (new /** @type {any} */ (x.constructor)(buf, 0, len));
  }
  const z = /** @type {T} */ (new /** @type {any} */ (x.constructor)(len));
  z.set(x);
  return z;
}

/**
 * From pctiles JSON (engine.query(), the tests): the same columns.
 * @param {any} r @returns {ResultColumns}
 */
export function columnsFromJson(r) {
  const n = r.rows.length;
  const P = r.percentiles?.length ?? 0;
  const gi = new Map((r.groups ?? []).map((/** @type {string} */ g, /** @type {number} */ i) => [g, i]));
  const texts = [''];
  const textIndex = new Map([['', 0]]);
  const c = /** @type {ResultColumns} */ ({ percentiles: [], groups: [], ...r, n, group: new Uint32Array(n), flag: new Uint32Array(n), flag_texts: texts });
  delete c.rows;
  for (const k of ['t_ms', 'samples', 'min', 'mean', 'max']) /** @type {any} */ (c)[k] = new Float64Array(n);
  c.width_ms = new Float64Array(r.adaptive ? n : 0);
  const bands = r.bands !== false;
  for (const k of ['p', 'err', 'lo', 'hi']) /** @type {any} */ (c)[k] = new Float64Array(k === 'p' || bands ? n * P : 0).fill(NaN);
  const num = (/** @type {any} */ v) => (v == null ? NaN : v);
  r.rows.forEach((/** @type {any} */ row, /** @type {number} */ i) => {
    c.t_ms[i] = row.t_ms;
    if (r.adaptive) c.width_ms[i] = row.width_ms;
    c.group[i] = typeof row.group === 'number' ? row.group : (gi.get(row.group) ?? 0);
    c.samples[i] = row.samples ?? 0;
    c.min[i] = num(row.min);
    c.mean[i] = num(row.mean);
    c.max[i] = num(row.max);
    for (let j = 0; j < P; j++) {
      c.p[i * P + j] = num(row.p?.[j]);
      if (!bands) continue;
      c.err[i * P + j] = num(row.err?.[j]);
      c.lo[i * P + j] = num(row.lo?.[j]);
      c.hi[i * P + j] = num(row.hi?.[j]);
    }
    const f = row.flags || '';
    if (!textIndex.has(f)) {
      textIndex.set(f, texts.length);
      texts.push(f);
    }
    c.flag[i] = /** @type {number} */ (textIndex.get(f));
  });
  return c;
}

/** NaN as null, the JSON's way. @param {number} v */
const orNull = (v) => (Number.isNaN(v) ? null : v);

/**
 * pctiles_json's row objects (group named by label).
 * @param {ResultColumns} c @returns {any[]}
 */
export function rowsOf(c) {
  return Array.from({ length: c.n }, (_, i) => rowOf(c, i));
}

/**
 * Row i as pctiles_json writes it (width_ms with adaptive quanta only).
 * @param {ResultColumns} c @param {number} i @returns {any}
 */
export function rowOf(c, i) {
  const P = c.percentiles.length;
  const at = (/** @type {Float64Array} */ a) => Array.from(a.subarray(i * P, i * P + P), orNull);
  /** @type {any} */
  const row = { t_ms: c.t_ms[i] };
  if (c.adaptive) row.width_ms = c.width_ms[i];
  return Object.assign(row, {
    group: c.groups[c.group[i]],
    samples: c.samples[i],
    min: orNull(c.min[i]),
    mean: orNull(c.mean[i]),
    max: orNull(c.max[i]),
    p: at(c.p),
    // As pctiles_json: no err, lo, hi when the query left the bands out.
    ...(c.bands === false ? {} : { err: at(c.err), lo: at(c.lo), hi: at(c.hi) }),
    flags: c.flag_texts[c.flag[i]],
  });
}

/**
 * The columns with `rows` made on first read (not enumerable: the object
 * still posts as its typed arrays).
 * @param {ResultColumns} c @returns {ResultColumns}
 */
export function withRows(c) {
  /** @type {any[] | null} */
  let rows = null;
  Object.defineProperty(c, 'rows', {
    get: () => (rows ??= rowsOf(c)),
    enumerable: false,
    configurable: true,
  });
  return c;
}

/**
 * Row indices of each group, in time order: one counting pass, so reading a
 * group never scans every row (docs/page-speed.md "Speed with many groups").
 * @param {ResultColumns} c @returns {Uint32Array[]}
 */
export function groupRows(c) {
  // The column in a local: read through `c` in the loop, it cost 45 ms for
  // 720,000 rows in Chromium.
  const group = c.group;
  const n = c.n;
  const counts = new Uint32Array(c.groups.length);
  for (let i = 0; i < n; i++) counts[group[i]]++;
  const out = Array.from(counts, (k) => new Uint32Array(k));
  const fill = new Uint32Array(c.groups.length);
  for (let i = 0; i < n; i++) {
    const g = group[i];
    out[g][fill[g]++] = i;
  }
  return out;
}

/** The flag tokens of row i ("few:p99.9", "finer"). @param {ResultColumns} c @param {number} i @returns {string[]} */
export function flagsOf(c, i) {
  const t = c.flag_texts[c.flag[i]];
  return t ? t.split(';') : [];
}

/** @type {WeakMap<object, ResultColumns>} */
const converted = new WeakMap();

/**
 * Columns of any query result: itself when it is columns, else its pctiles
 * JSON converted once (remembered per result object).
 * @param {any} r @returns {ResultColumns}
 */
export function toColumns(r) {
  if (r.t_ms instanceof Float64Array) return r;
  let c = converted.get(r);
  if (!c) {
    c = columnsFromJson(r);
    converted.set(r, c);
  }
  return c;
}
