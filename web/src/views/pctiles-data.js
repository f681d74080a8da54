// Pure shaping of an engine.query() result for the percentiles view: one
// series per (group, percentile) and per group mean, SLA violations, and the
// quanta flagged with too few samples. Unit-tested without a DOM.
import { percentileName } from '../app/options.js';

/**
 * @typedef {{t: number, v: number | null, e: number, lo?: number | null, hi?: number | null}} Point
 *   time ms, value, bin-width error, and the 95% sampling band [lo, hi] (result unit; hi null:
 *   unbounded, too few I/Os above the percentile; lo/hi null: no band known). docs/uncertainty.md
 * @typedef {{kind: 'p'|'mean', gi: number, pi: number, label: string, points: Point[]}} Series
 */

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
  const rows = r.groups.length === 1 ? r.rows : rowsOfGroup(r, m.gi);
  return rows.map((/** @type {any} */ row) => rowPoint(row, m));
}

/** The point of one row in a series. @param {any} row @param {{kind: 'p'|'mean', pi: number}} m @returns {Point} */
function rowPoint(row, m) {
  if (m.kind === 'mean') return { t: row.t_ms, v: row.mean ?? null, e: 0, lo: null, hi: null };
  const v = row.p[m.pi] ?? null;
  // lo present, hi null: the engine found no I/O above the band (unbounded).
  const lo = v == null ? null : (row.lo?.[m.pi] ?? null);
  return { t: row.t_ms, v, e: row.err?.[m.pi] ?? 0, lo, hi: lo == null ? null : (row.hi?.[m.pi] ?? null) };
}

/**
 * The points of a series to draw: the quanta overlapping [t0, t1), thinned
 * as decimate() thins them, read from the rows without making a point of
 * every quantum first (hundreds of series x thousands of quanta would
 * allocate millions of objects per redraw).
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m
 * @param {number} t0 @param {number} t1 @param {(t: number) => number} px time -> pixel @param {number} width
 * @returns {Point[]}
 */
export function viewPoints(r, m, t0, t1, px, width) {
  const rows = r.groups.length === 1 ? r.rows : rowsOfGroup(r, m.gi);
  const q = r.quantum_ms;
  const val = m.kind === 'mean' ? (/** @type {any} */ row) => row.mean ?? null : (/** @type {any} */ row) => row.p[m.pi] ?? null;
  let a = 0;
  while (a < rows.length && rows[a].t_ms + q <= t0) a++;
  let b = a;
  while (b < rows.length && rows[b].t_ms < t1) b++;
  if (b - a <= width) {
    const out = [];
    for (let i = a; i < b; i++) out.push(rowPoint(rows[i], m));
    return out;
  }
  /** @type {Point[]} */
  const out = [];
  let col = NaN;
  let lo = -1;
  let hi = -1;
  const flush = () => {
    if (lo < 0) return;
    if (lo === hi) out.push(rowPoint(rows[lo], m));
    else if (lo < hi) out.push(rowPoint(rows[lo], m), rowPoint(rows[hi], m));
    else out.push(rowPoint(rows[hi], m), rowPoint(rows[lo], m));
    lo = -1;
    hi = -1;
  };
  for (let i = a; i < b; i++) {
    const v = val(rows[i]);
    if (v == null) {
      flush();
      if (out.length && out[out.length - 1].v != null) out.push(rowPoint(rows[i], m));
      col = NaN;
      continue;
    }
    const c = Math.floor(px(rows[i].t_ms));
    if (c !== col) {
      flush();
      col = c;
    }
    if (lo < 0 || v < val(rows[lo])) lo = i;
    if (hi < 0 || v > val(rows[hi])) hi = i;
  }
  flush();
  return out;
}

/**
 * The point of a series at quantum start t (binary search in the group's
 * rows, which are in time order), or null. Hover reads points this way
 * instead of keeping every series' points.
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m @param {number} t
 * @returns {Point | null}
 */
export function pointAt(r, m, t) {
  const rows = r.groups.length === 1 ? r.rows : rowsOfGroup(r, m.gi);
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].t_ms < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < rows.length && rows[lo].t_ms === t ? rowPoint(rows[lo], m) : null;
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

/** @type {WeakMap<object, any[][]>} result -> its rows per group index */
const byGroup = new WeakMap();

/**
 * The rows of one group, in time order. Indexed once per result: with
 * hundreds of groups, a scan of every row per series would cost
 * series x rows (docs/page-views.md "Speed with many groups").
 * @param {any} r @param {number} gi @returns {any[]}
 */
export function rowsOfGroup(r, gi) {
  let idx = byGroup.get(r);
  if (!idx) {
    const names = new Map(r.groups.map((/** @type {string} */ g, /** @type {number} */ i) => [g, i]));
    /** @type {any[][]} */
    const made = r.groups.map(() => []);
    for (const row of r.rows) made[typeof row.group === 'number' ? row.group : (names.get(row.group) ?? 0)].push(row);
    byGroup.set(r, made);
    idx = made;
  }
  return idx[gi] || [];
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
  const limit = Math.min(...sla);
  /** @type {Map<number, {t: number, v: number}[]>} */
  const m = new Map();
  for (const row of r.rows) {
    for (const v of row.p) {
      if (v != null && v > limit) {
        if (!m.has(row.t_ms)) m.set(row.t_ms, []);
        m.get(row.t_ms)?.push({ t: row.t_ms, v });
      }
    }
  }
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([t, points]) => ({ t, points }));
}

/**
 * Whether any quantum is finer than a log's interval (flag "finer",
 * docs/quanta.md): its counts are an even share of a longer window.
 * @param {any} r @returns {boolean}
 */
export function anyFiner(r) {
  return (r?.rows || []).some((/** @type {any} */ row) => String(row.flags || '').split(';').includes('finer'));
}

/**
 * Quanta whose flags say some percentile lacks samples ("few:p99.9|p99.99").
 * @param {any} r @returns {{t: number, which: string}[]}
 */
export function fewFlagged(r) {
  /** @type {Map<number, Set<string>>} */
  const m = new Map();
  for (const row of r.rows) {
    for (const tok of String(row.flags || '').split(';')) {
      if (!tok.startsWith('few:')) continue;
      if (!m.has(row.t_ms)) m.set(row.t_ms, new Set());
      for (const p of tok.slice(4).split('|')) m.get(row.t_ms)?.add(p);
    }
  }
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([t, s]) => ({ t, which: [...s].join(', ') }));
}

/**
 * Time extent of a result: first quantum start to last quantum end.
 * @param {any} r @returns {[number, number] | null}
 */
export function timeExtent(r) {
  if (!r || !r.rows.length) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const row of r.rows) {
    if (row.t_ms < lo) lo = row.t_ms;
    if (row.t_ms + rowWidth(r, row) > hi) hi = row.t_ms + rowWidth(r, row);
  }
  return [lo, hi];
}

/**
 * A row's length in ms: its own with adaptive quanta (pctiles_json's
 * width_ms, docs/uncertainty.md), else the result's quantum.
 * @param {any} r @param {any} row
 */
export function rowWidth(r, row) {
  return r.adaptive ? row.width_ms : r.quantum_ms;
}

/**
 * Adaptive quanta: a series as steps, each row a level from its start to
 * its end (two points); a gap between rows (no window there) breaks the
 * line with a point whose value is null. Only rows overlapping [t0, t1).
 * @param {any} r @param {{kind: 'p'|'mean', gi: number, pi: number}} m @param {number} t0 @param {number} t1
 * @returns {Point[]}
 */
export function stepPoints(r, m, t0, t1) {
  const rows = r.groups.length === 1 ? r.rows : rowsOfGroup(r, m.gi);
  /** @type {Point[]} */
  const out = [];
  let end = NaN;
  for (const row of rows) {
    const w = row.width_ms;
    if (row.t_ms + w <= t0 || row.t_ms >= t1) continue;
    const p = rowPoint(row, m);
    if (out.length && Math.abs(row.t_ms - end) > 1e-6 * Math.max(1, w)) out.push({ ...p, t: end, v: null });
    out.push(p, { ...p, t: row.t_ms + w });
    end = row.t_ms + w;
  }
  return out;
}

/**
 * Adaptive quanta: the row of group gi whose span [t_ms, t_ms + width_ms)
 * holds t, or null (hover).
 * @param {any} r @param {number} gi @param {number} t
 */
export function rowAt(r, gi, t) {
  const rows = r.groups.length === 1 ? r.rows : rowsOfGroup(r, gi);
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].t_ms <= t) lo = mid + 1;
    else hi = mid;
  }
  const row = rows[lo - 1];
  return row && t < row.t_ms + row.width_ms ? row : null;
}

/**
 * Adaptive quanta: IOPS over time summed over groups whose rows have
 * different boundaries. Each row is a constant rate (samples / width) over
 * its span; the sum is a step function, returned as two points per step.
 * @param {any} r @param {((row: any) => boolean) | null} [keep]
 * @returns {{t: number, v: number, e: number}[]}
 */
export function adaptiveIops(r, keep = null) {
  /** @type {Map<number, number>} */
  const delta = new Map();
  for (const row of r.rows) {
    if (!(row.width_ms > 0) || (keep && !keep(row))) continue;
    const rate = ((row.samples || 0) * 1000) / row.width_ms;
    delta.set(row.t_ms, (delta.get(row.t_ms) ?? 0) + rate);
    delta.set(row.t_ms + row.width_ms, (delta.get(row.t_ms + row.width_ms) ?? 0) - rate);
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
  /** @type {[number, number][]} */
  const out = [];
  for (const row of r.rows) if (String(row.flags || '').split(';').some((f) => f.startsWith('few:'))) out.push([row.t_ms, row.t_ms + row.width_ms]);
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
