// Pure shaping of an engine.query() result for the percentiles view: one
// series per (group, percentile) and per group mean, SLA violations, and the
// quanta flagged with too few samples. Unit-tested without a DOM.
import { toColumns, groupRows, rowOf } from '../engine/columns.js';
import { percentileName } from '../model/percentiles.js';

/**
 * @typedef {{t: number, v: number | null, e: number, lo?: number | null, hi?: number | null}} Point
 *   time ms, value, bin-width error, and the 95% sampling band [lo, hi] (result unit; hi null:
 *   unbounded, too few I/Os above the percentile; lo/hi null: no band known). docs/uncertainty.md
 * @typedef {{kind: 'p'|'mean', gi: number, pi: number, label: string, points: Point[]}} Series
 */

/**
 * The columns of a result (engine/columns.js): the page queries columns;
 * pctiles JSON (the tests, engine.query()) is converted once per result.
 */
export const cols = toColumns;

/**
 * @param {any} r query result
 * @param {boolean} withMean
 * @returns {Series[]}
 */
export function seriesOf(r, withMean) {
  return seriesMeta(r, withMean).map((m) => ({ ...m, points: seriesPoints(r, m) }));
}

/**
 * The series of a result without their points, in drawing order.
 * @param {any} r @param {boolean} withMean
 * @returns {Omit<Series, 'points'>[]}
 */
export function seriesMeta(r, withMean) {
  /** @type {Omit<Series, 'points'>[]} */
  const out = [];
  r.groups.forEach((/** @type {string} */ name, /** @type {number} */ gi) => {
    const prefix = r.groups.length > 1 ? `${name} ` : '';
    r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => {
      out.push({ kind: 'p', gi, pi, label: prefix + percentileName(p) });
    });
    if (withMean) out.push({ kind: 'mean', gi, pi: -1, label: `${prefix}mean` });
  });
  return out;
}

/**
 * Points of one series (built one series at a time, so a big result does
 * not allocate every point at once).
 * @param {any} r @param {Omit<Series, 'points'>} m @returns {Point[]}
 */
export function seriesPoints(r, m) {
  const c = cols(r);
  return Array.from(rowsOfGroup(c, m.gi), (i) => pointOf(c, i, m));
}

/**
 * The value of series m in row i, NaN for none.
 * @param {import('../engine/columns.js').ResultColumns} c @param {number} i @param {{kind: 'p'|'mean', pi: number}} m
 */
export function valueOf(c, i, m) {
  if (m.kind === 'mean') return c.mean[i];
  const v = c.p[i * c.percentiles.length + m.pi];
  return Number.isNaN(v) && windowMaxShown(c, m.pi) && windowRows(c)[c.flag[i]] ? c.max[i] : v;
}

/**
 * Window values (fio log_avg_msec logs, rows flagged avg) have no
 * percentiles, but their max is known exactly: the largest window value, or
 * with log_window_value=both the largest window maximum (docs/formats-fio-
 * lat.md, "log_avg_msec logs"). The "max" line (percentile 100) draws it, so
 * the chart shows what the CSV's max column holds.
 * @param {import('../engine/columns.js').ResultColumns} c @param {number} pi
 */
function windowMaxShown(c, pi) {
  return Number(c.percentiles[pi]) === 100;
}

/** @type {WeakMap<string[], boolean[]>} windowRows per flag_texts array, worked out once */
const windowRowsOf = new WeakMap();

/** Per flag text: whether its rows are window values. @param {import('../engine/columns.js').ResultColumns} c @returns {boolean[]} */
function windowRows(c) {
  let w = windowRowsOf.get(c.flag_texts);
  if (!w) {
    w = c.flag_texts.map((/** @type {string} */ t) => t.split(';').includes('avg'));
    windowRowsOf.set(c.flag_texts, w);
  }
  return w;
}

/**
 * valueOf made for one series: row -> value with one array read, for the
 * millions of points of a drawing (docs/page-speed.md "Plain arithmetic for
 * canvas points").
 * @param {import('../engine/columns.js').ResultColumns} c @param {{kind: 'p'|'mean', pi: number}} m
 * @returns {(i: number) => number}
 */
export function valueReader(c, m) {
  if (m.kind === 'mean') {
    const mean = c.mean;
    return (i) => mean[i];
  }
  const p = c.p;
  const np = c.percentiles.length;
  const pi = m.pi;
  const avg = windowRows(c);
  if (windowMaxShown(c, pi) && avg.some(Boolean)) {
    const { max, flag } = c;
    return (i) => {
      const v = p[i * np + pi];
      return Number.isNaN(v) && avg[flag[i]] ? max[i] : v;
    };
  }
  return (i) => p[i * np + pi];
}

/** NaN as null. @param {number} v */
const orNull = (v) => (Number.isNaN(v) ? null : v);

/**
 * The point of row i in a series.
 * @param {import('../engine/columns.js').ResultColumns} c @param {number} i @param {{kind: 'p'|'mean', pi: number}} m @returns {Point}
 */
export function pointOf(c, i, m) {
  if (m.kind === 'mean') return { t: c.t_ms[i], v: orNull(c.mean[i]), e: 0, lo: null, hi: null };
  const k = i * c.percentiles.length + m.pi;
  const v = orNull(valueOf(c, i, m));
  // Bands left out of the query (columns.js bands): none known here.
  if (c.bands === false) return { t: c.t_ms[i], v, e: 0, lo: null, hi: null };
  // lo present, hi null: the engine found no I/O above the band (unbounded).
  const lo = v == null ? null : orNull(c.lo[k]);
  return { t: c.t_ms[i], v, e: Number.isNaN(c.err[k]) ? 0 : c.err[k], lo, hi: lo == null ? null : orNull(c.hi[k]) };
}

/**
 * The rows of a series to draw, as row indices: the quanta overlapping
 * [t0, t1), thinned to the lowest and highest value per pixel column (as
 * decimate() thins points) when there are more than pixels; a row without
 * a value stays in as a gap. No object per quantum: hundreds of series x
 * thousands of quanta are read straight from the columns.
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m
 * @param {number} t0 @param {number} t1 @param {(t: number) => number} px time -> pixel @param {number} width
 * @returns {number[]}
 */
export function viewRows(r, m, t0, t1, px, width) {
  const c = cols(r);
  const rows = rowsOfGroup(c, m.gi);
  const [a, b] = rowSpan(c, rows, t0, t1);
  /** @type {number[]} */
  const out = [];
  if (b - a <= width) {
    for (let k = a; k < b; k++) out.push(rows[k]);
    return out;
  }
  const at = valueReader(c, m);
  let col = NaN;
  let lo = -1;
  let hi = -1;
  let vlo = 0;
  let vhi = 0;
  const flush = () => {
    if (lo < 0) return;
    if (lo === hi) out.push(lo);
    else if (lo < hi) out.push(lo, hi);
    else out.push(hi, lo);
    lo = -1;
    hi = -1;
  };
  for (let k = a; k < b; k++) {
    const i = rows[k];
    const v = at(i);
    if (Number.isNaN(v)) {
      flush();
      if (out.length && !Number.isNaN(at(out[out.length - 1]))) out.push(i);
      col = NaN;
      continue;
    }
    const cx = Math.floor(px(c.t_ms[i]));
    if (cx !== col) {
      flush();
      col = cx;
    }
    if (lo < 0 || v < vlo) {
      lo = i;
      vlo = v;
    }
    if (hi < 0 || v > vhi) {
      hi = i;
      vhi = v;
    }
  }
  flush();
  return out;
}

/**
 * Where the quanta overlapping [t0, t1) lie in a group's rows: rows[a..b).
 * @param {import('../engine/columns.js').ResultColumns} c @param {Uint32Array} rows  the group's (rowsOfGroup)
 * @param {number} t0 @param {number} t1
 * @returns {[number, number]}
 */
export function rowSpan(c, rows, t0, t1) {
  const q = c.quantum_ms;
  const t = c.t_ms;
  return [firstIndex(rows.length, (k) => t[rows[k]] + q > t0), lowerBound(c, rows, t1)];
}

/**
 * viewRows as points (the tests compare it with decimate()).
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m
 * @param {number} t0 @param {number} t1 @param {(t: number) => number} px @param {number} width
 * @returns {Point[]}
 */
export function viewPoints(r, m, t0, t1, px, width) {
  const c = cols(r);
  return viewRows(c, m, t0, t1, px, width).map((i) => pointOf(c, i, m));
}

/** First position in a group's rows whose time is >= t. @param {import('../engine/columns.js').ResultColumns} c @param {Uint32Array} rows @param {number} t */
function lowerBound(c, rows, t) {
  return firstIndex(rows.length, (k) => c.t_ms[rows[k]] >= t);
}

/**
 * The point of a series at quantum start t (binary search in the group's
 * rows, which are in time order), or null. Hover reads points this way
 * instead of keeping every series' points.
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m @param {number} t
 * @returns {Point | null}
 */
export function pointAt(r, m, t) {
  const c = cols(r);
  const rows = rowsOfGroup(c, m.gi);
  const k = lowerBound(c, rows, t);
  return k < rows.length && c.t_ms[rows[k]] === t ? pointOf(c, rows[k], m) : null;
}

/**
 * The tooltip's sampling band: " · 95% 80.1 … 130", or " · 95% 80.1 … ∞ (too
 * few I/Os above)" when nothing bounds it from above; '' when none is known.
 * @param {{lo?: number | null, hi?: number | null}} pt @param {(v: number) => string} fmt
 */
export function bandText(pt, fmt) {
  if (pt.lo == null) return '';
  if (pt.hi == null) return ` · 95% ${fmt(pt.lo)} … ∞ (too few I/Os above)`;
  return ` · 95% ${fmt(pt.lo)} … ${fmt(pt.hi)}`;
}

/** @type {WeakMap<object, Map<string, number>>} columns -> group index by name */
const groupIndices = new WeakMap();

/**
 * The index of a group (by name) in another answer's groups, -1 if absent:
 * an answer of bands over part of the time need not hold every group.
 * @param {any} r @param {string} name @returns {number}
 */
export function groupIn(r, name) {
  let m = groupIndices.get(r);
  if (!m) {
    m = new Map(r.groups.map((/** @type {string} */ g, /** @type {number} */ i) => [g, i]));
    groupIndices.set(r, m);
  }
  return m.get(name) ?? -1;
}

/** @type {WeakMap<object, Uint32Array[]>} columns -> row indices per group */
const byGroup = new WeakMap();

/**
 * The row indices of one group, in time order. Indexed once per result:
 * with hundreds of groups, a scan of every row per series would cost
 * series x rows (docs/page-speed.md "Speed with many groups").
 * @param {any} r @param {number} gi @returns {Uint32Array}
 */
export function rowsOfGroup(r, gi) {
  const c = cols(r);
  let idx = byGroup.get(c);
  if (!idx) {
    idx = groupRows(c);
    byGroup.set(c, idx);
  }
  return idx[gi] || new Uint32Array(0);
}

/** Rows name their group by label (JSON) or index; accept both. @param {any} r @param {string|number} g */
export function groupIndex(r, g) {
  if (typeof g === 'number') return g;
  const i = r.groups.indexOf(g);
  return i < 0 ? 0 : i;
}

/**
 * Quanta where some percentile value exceeds the lowest SLA threshold.
 * @param {any} r @param {number[]} sla thresholds in the result's unit
 * @returns {{t: number, points: {t: number, v: number}[]}[]}
 */
export function slaViolations(r, sla) {
  if (!sla.length) return [];
  const c = cols(r);
  const limit = Math.min(...sla);
  const P = c.percentiles.length;
  /** @type {Map<number, {t: number, v: number}[]>} */
  const m = new Map();
  for (let i = 0; i < c.n; i++) {
    for (let j = 0; j < P; j++) {
      const v = c.p[i * P + j];
      if (v > limit) {
        const t = c.t_ms[i];
        if (!m.has(t)) m.set(t, []);
        m.get(t)?.push({ t, v });
      }
    }
  }
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([t, points]) => ({ t, points }));
}

/** Whether a flag text holds a token passing `test`. @param {any} c @param {(tok: string) => boolean} test @returns {boolean[]} per flag text */
function textsWith(c, test) {
  return c.flag_texts.map((/** @type {string} */ t) => t.split(';').some(test));
}

/**
 * Whether any quantum is finer than a log's interval (flag "finer",
 * docs/quanta.md): its counts are an even share of a longer window.
 * @param {any} r @returns {boolean}
 */
export function anyFiner(r) {
  if (!r) return false;
  const c = cols(r);
  const finer = textsWith(c, (f) => f === 'finer');
  // No flag text says so (most answers): no row can.
  if (!finer.some(Boolean)) return false;
  for (let i = 0; i < c.n; i++) if (finer[c.flag[i]]) return true;
  return false;
}

/**
 * Quanta whose flags say some percentile lacks samples ("few:p99.9|p99.99").
 * @param {any} r @returns {{t: number, which: string}[]}
 */
export function fewFlagged(r) {
  const c = cols(r);
  let out = fewOf.get(c);
  if (!out) fewOf.set(c, (out = fewQuanta(c)));
  return out;
}

/** @type {WeakMap<object, {t: number, which: string}[]>} columns -> fewFlagged's answer (every redraw asks) */
const fewOf = new WeakMap();

/** fewFlagged, worked out. @param {import('../engine/columns.js').ResultColumns} c */
function fewQuanta(c) {
  // Per flag text (a handful per result), the percentiles it names.
  const few = c.flag_texts.map((/** @type {string} */ t) => t.split(';').filter((f) => f.startsWith('few:')).flatMap((f) => f.slice(4).split('|')));
  // Per quantum, which flag texts occur (hundreds of groups share a few):
  // the names are collected once per quantum, not once per row.
  /** @type {Map<number, Set<number>>} */
  const m = new Map();
  if (!few.some((names) => names.length)) return [];
  // Rows of one quantum come together (time, then group): one look-up per
  // run of equal times, not per row (720,000 rows per host at 1 s).
  // A run of rows with the same flag text adds it once.
  const has = Uint8Array.from(few, (names) => (names.length ? 1 : 0));
  const flag = c.flag;
  const tm = c.t_ms;
  let lastT = NaN;
  let lastF = -1;
  /** @type {Set<number> | undefined} */
  let s;
  for (let i = 0; i < c.n; i++) {
    const f = flag[i];
    if (!has[f]) continue;
    const t = tm[i];
    if (t !== lastT) {
      s = m.get(t);
      if (!s) m.set(t, (s = new Set()));
      lastT = t;
      lastF = -1;
    }
    if (f !== lastF) /** @type {Set<number>} */ (s).add(f);
    lastF = f;
  }
  return [...m.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, fs]) => ({ t, which: [...new Set([...fs].flatMap((f) => few[f]))].join(', ') }));
}

/**
 * The smallest value above 0 and the largest of the percentiles (and the
 * means) of the rows in the time range [t0, t1]: the percentiles view's y
 * range. A loop of its own: inside the view's draw, with the bounds in a
 * closure, it took 20-45 ms for 200 hosts at 10 s (docs/page-speed.md
 * "Slices and the legend").
 * @param {any} r  columns @param {[number, number]} dom  [t0, t1] ms
 * @param {boolean} withMean
 * @returns {[number, number]} [Infinity, 0] when nothing is above 0
 */
export function valueRange(r, dom, withMean) {
  const c = cols(r);
  const nP = c.percentiles.length;
  const t = c.t_ms;
  const p = c.p;
  const [t0, t1] = dom;
  // Window values' max, drawn as their "max" line (valueOf).
  const avg = windowRows(c);
  const wm = c.percentiles.some((_, k) => windowMaxShown(c, k)) && avg.some(Boolean) ? avg : null;
  let lo = Infinity;
  let hi = 0;
  /** @param {number} v */
  const see = (v) => {
    if (v > 0 && v < lo) lo = v;
    if (v > hi) hi = v;
  };
  if (c.adaptive) {
    for (let i = 0; i < c.n; i++) {
      if (!(t[i] + c.width_ms[i] > t0 && t[i] < t1)) continue;
      for (let j = i * nP; j < i * nP + nP; j++) see(p[j]);
      if (withMean) see(c.mean[i]);
      if (wm && wm[c.flag[i]]) see(c.max[i]);
    }
    return [lo, hi];
  }
  // Fixed quanta: rows come in time order, so the rows overlapping the range
  // are one run [i0, i1) and their values one run of p; the loop tests no
  // time (720,000 rows per host at 1 s: 53 ms in Chromium with a test per row).
  const q = c.quantum_ms;
  const i0 = firstIndex(c.n, (i) => t[i] + q > t0);
  const i1 = firstIndex(c.n, (i) => t[i] >= t1);
  for (let j = i0 * nP; j < i1 * nP; j++) {
    const v = p[j];
    if (v > 0 && v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (withMean) for (let i = i0; i < i1; i++) see(c.mean[i]);
  if (wm) for (let i = i0; i < i1; i++) if (wm[c.flag[i]]) see(c.max[i]);
  return [lo, hi];
}

/**
 * IOPS per quantum summed over groups, near the visible range. Rows come
 * ordered by time, then group: one pass, summing runs of equal t_ms. `keep`
 * leaves rows out (the corrected half of a coordinated-omission pair counts
 * I/Os nobody issued).
 * @param {import('../engine/columns.js').ResultColumns} r @param {[number, number]} dom @param {((gi: number) => boolean) | null} [keep] which groups count
 * @returns {{t: number, v: number, e: number}[]}
 */
export function aggregateIops(r, dom, keep = null) {
  /** @type {{t: number, v: number, e: number}[]} */
  const out = [];
  const k = 1000 / r.quantum_ms;
  const a = dom[0] - 2 * r.quantum_ms;
  const b = dom[1] + r.quantum_ms;
  // Columns in locals and one sum per run of equal times: read through `r`
  // per row, 720,000 rows (per host at 1 s) took 67 ms in Chromium.
  const { t_ms: tm, samples, group, n } = r;
  let i = firstIndex(n, (j) => tm[j] >= a);
  while (i < n && tm[i] <= b) {
    const t = tm[i];
    let v = 0;
    let any = false;
    for (; i < n && tm[i] === t; i++) {
      if (keep && !keep(group[i])) continue;
      v += samples[i] * k;
      any = true;
    }
    if (any) out.push({ t, v, e: 0 });
  }
  return out;
}

/**
 * The first index in [0, n) where `pred` holds, n when none; `pred` must be
 * false then true along the indices (a test on ascending row times).
 * @param {number} n @param {(i: number) => boolean} pred
 */
export function firstIndex(n, pred) {
  let a = 0;
  let b = n;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (pred(m)) b = m;
    else a = m + 1;
  }
  return a;
}

/** @type {WeakMap<object, [number, number]>} columns -> their time extent */
const extents = new WeakMap();

/**
 * Sets the time extent of an answer that does not hold every quantum (each
 * pixel column's worst, QueryOptions::columns): the run's, as the full
 * answer it stands for had it, not its kept rows' first and last.
 * @param {any} r @param {[number, number]} extent
 */
export function keepTimeExtent(r, extent) {
  extents.set(cols(r), [extent[0], extent[1]]);
}

/**
 * Time extent of a result: first quantum start to last quantum end. Worked
 * out once per answer: the page asks it several times per answer (views,
 * exports, captions), a scan of 720,000 rows each per host at 1 s.
 * @param {any} r @returns {[number, number] | null}
 */
export function timeExtent(r) {
  if (!r) return null;
  const c = cols(r);
  if (!c.n) return null;
  let e = extents.get(c);
  if (!e) {
    const t = c.t_ms;
    if (!c.adaptive) {
      // Fixed quanta: rows come in time order (columns.js), first to last.
      e = [t[0], t[c.n - 1] + c.quantum_ms];
    } else {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < c.n; i++) {
        if (t[i] < lo) lo = t[i];
        if (t[i] + c.width_ms[i] > hi) hi = t[i] + c.width_ms[i];
      }
      e = [lo, hi];
    }
    extents.set(c, e);
  }
  return [e[0], e[1]];
}

/**
 * Row i's length in ms: its own with adaptive quanta (pctiles_json's
 * width_ms, docs/uncertainty.md), else the result's quantum.
 * @param {any} r @param {number} i
 */
export function rowWidth(r, i) {
  const c = cols(r);
  return c.adaptive ? c.width_ms[i] : c.quantum_ms;
}

/**
 * Adaptive quanta: a series as steps, each row a level from its start to
 * its end (two points); a gap between rows (no window there) breaks the
 * line with a point whose value is null. Only rows overlapping [t0, t1).
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m @param {number} t0 @param {number} t1
 * @returns {Point[]}
 */
export function stepPoints(r, m, t0, t1) {
  const c = cols(r);
  /** @type {Point[]} */
  const out = [];
  let end = NaN;
  for (const i of rowsOfGroup(c, m.gi)) {
    const w = c.width_ms[i];
    const t = c.t_ms[i];
    if (t + w <= t0 || t >= t1) continue;
    const p = pointOf(c, i, m);
    if (out.length && Math.abs(t - end) > 1e-6 * Math.max(1, w)) out.push({ ...p, t: end, v: null });
    out.push(p, { ...p, t: t + w });
    end = t + w;
  }
  return out;
}

/**
 * Adaptive quanta: the row of group gi whose span [t_ms, t_ms + width_ms)
 * holds t, as pctiles_json writes it, or null (hover).
 * @param {any} r @param {number} gi @param {number} t
 */
export function rowAt(r, gi, t) {
  const c = cols(r);
  const rows = rowsOfGroup(c, gi);
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.t_ms[rows[mid]] <= t) lo = mid + 1;
    else hi = mid;
  }
  const i = rows[lo - 1];
  return i !== undefined && t < c.t_ms[i] + c.width_ms[i] ? rowOf(c, i) : null;
}

/**
 * Adaptive quanta: one point per row of stepPoints' steps, at the row's
 * middle (an open band's mark belongs to the row, not to its two ends,
 * where it stood on the step's vertical edges).
 * @param {Point[]} pts stepPoints' answer @returns {Point[]}
 */
export function stepMids(pts) {
  /** @type {Point[]} */
  const out = [];
  for (let k = 0; k + 1 < pts.length; ) {
    if (pts[k].v == null) {
      k++;
      continue;
    }
    out.push({ ...pts[k], t: (pts[k].t + pts[k + 1].t) / 2 });
    k += 2;
  }
  return out;
}

/**
 * Adaptive quanta: IOPS over time summed over groups whose rows have
 * different boundaries. Each row is a constant rate (samples / width) over
 * its span; the sum is a step function, returned as two points per step.
 * @param {any} r @param {((gi: number) => boolean) | null} [keep] which groups count
 * @returns {{t: number, v: number, e: number}[]}
 */
export function adaptiveIops(r, keep = null) {
  const c = cols(r);
  /** @type {Map<number, number>} */
  const delta = new Map();
  for (let i = 0; i < c.n; i++) {
    const w = c.width_ms[i];
    if (!(w > 0) || (keep && !keep(c.group[i]))) continue;
    const t = c.t_ms[i];
    const rate = (c.samples[i] * 1000) / w;
    delta.set(t, (delta.get(t) ?? 0) + rate);
    delta.set(t + w, (delta.get(t + w) ?? 0) - rate);
  }
  const ts = [...delta.keys()].sort((a, b) => a - b);
  const out = [];
  let v = 0;
  for (let i = 0; i + 1 < ts.length; i++) {
    v += /** @type {number} */ (delta.get(ts[i]));
    // Rounding leaves a residue where all rows ended: 0 there.
    const level = Math.abs(v) < 1e-9 ? 0 : v;
    out.push({ t: ts[i], v: level, e: 0 }, { t: ts[i + 1], v: level, e: 0 });
  }
  return out;
}

/**
 * Adaptive quanta: the spans [start, end) of rows flagged with too few
 * samples for some percentile (the orange marks).
 * @param {any} r @returns {[number, number][]}
 */
export function fewSpans(r) {
  const c = cols(r);
  const few = textsWith(c, (f) => f.startsWith('few:'));
  /** @type {[number, number][]} */
  const out = [];
  for (let i = 0; i < c.n; i++) if (few[c.flag[i]]) out.push([c.t_ms[i], c.t_ms[i] + c.width_ms[i]]);
  return out;
}

/**
 * Merges consecutive quanta into runs [t0, t1), so a long stretch of flagged
 * quanta is one rectangle instead of thousands of DOM nodes.
 * @param {number[]} ts sorted quantum starts @param {number} q quantum ms
 * @returns {[number, number][]}
 */
export function runsOf(ts, q) {
  /** @type {[number, number][]} */
  const out = [];
  for (const t of ts) {
    const last = out[out.length - 1];
    if (last && Math.abs(last[1] - t) < q * 1e-6) last[1] = t + q;
    else out.push([t, t + q]);
  }
  return out;
}

/**
 * Thins a series for drawing when it has more points than pixels: per
 * pixel column it keeps the lowest and the highest point (in time order),
 * so spikes and gaps survive. Empty quanta (v null)
 * are kept as gap markers.
 * @param {Point[]} pts sorted by t @param {(t: number) => number} px time -> pixel
 * @param {number} width pixels
 * @returns {Point[]}
 */
export function decimate(pts, px, width) {
  if (pts.length <= width) return pts;
  /** @type {Point[]} */
  const out = [];
  let col = NaN;
  /** @type {Point[]} */
  let bucket = [];
  const flush = () => {
    if (!bucket.length) return;
    let lo = bucket[0];
    let hi = bucket[0];
    for (const p of bucket) {
      if (/** @type {number} */ (p.v) < /** @type {number} */ (lo.v)) lo = p;
      if (/** @type {number} */ (p.v) > /** @type {number} */ (hi.v)) hi = p;
    }
    if (lo === hi) out.push(lo);
    else if (lo.t < hi.t) out.push(lo, hi);
    else out.push(hi, lo);
    bucket = [];
  };
  for (const p of pts) {
    if (p.v == null) {
      flush();
      if (out.length && out[out.length - 1].v != null) out.push(p);
      continue;
    }
    const c = Math.floor(px(p.t));
    if (c !== col) {
      flush();
      col = c;
    }
    bucket.push(p);
  }
  flush();
  return out;
}
