// Pure helpers of the percentile surface and spectrum: the level x quantum
// grid from a query result, and picking the nearest level. No DOM.
import { groupIndex } from './pctiles-data.js';
import { tailCoord } from './scales.js';

/**
 * Level-major grid of one group's percentile values: values[level][quantum]
 * (null for empty quanta), with the positive value range for the colours.
 * @param {any} r query result (rows of one or more groups)
 * @param {number} [group] group index, default the first
 * few[level][quantum] is true where the engine flags the quantum as holding
 * too few I/Os for that level's percentile (row flag "few:p…",
 * N·(1 − p/100) < 1, docs/ci-reports.md): the value there is the quantum's
 * slowest I/O (or near it), not a percentile of many.
 * @returns {{t0: number, quanta: number, values: (number | null)[][], few: boolean[][], lo: number, hi: number}}
 */
export function surfaceGrid(r, group = 0) {
  const rows = r.rows.filter((/** @type {any} */ row) => groupIndex(r, row.group) === group);
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const row of rows) {
    t0 = Math.min(t0, row.t_ms);
    t1 = Math.max(t1, row.t_ms);
  }
  const quanta = rows.length ? Math.round((t1 - t0) / r.quantum_ms) + 1 : 0;
  const values = r.percentiles.map(() => new Array(quanta).fill(null));
  const few = r.percentiles.map(() => new Array(quanta).fill(false));
  const levelOf = new Map(r.percentiles.map((/** @type {string} */ p, /** @type {number} */ l) => [Number(p), l]));
  let lo = Infinity;
  let hi = 0;
  for (const row of rows) {
    const q = Math.round((row.t_ms - t0) / r.quantum_ms);
    for (const l of fewLevels(row.flags, levelOf)) few[l][q] = true;
    row.p.forEach((/** @type {number|null} */ v, /** @type {number} */ l) => {
      values[l][q] = v;
      if (v != null && v > 0) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    });
  }
  if (!(hi > 0)) {
    lo = 1;
    hi = 10;
  } else if (hi / lo < 1.01) {
    lo /= 1.1;
    hi *= 1.1;
  }
  return { t0, quanta, values, few, lo, hi };
}

/**
 * Levels named by a row's "few:p99.9|p99.99" flag, matched by value.
 * @param {string | undefined} flags @param {Map<number, number>} levelOf percentile -> level
 * @returns {number[]}
 */
export function fewLevels(flags, levelOf) {
  const out = [];
  for (const tok of String(flags || '').split(';')) {
    if (!tok.startsWith('few:')) continue;
    for (const p of tok.slice(4).split('|')) {
      const l = levelOf.get(Number(p.replace(/^p/, '')));
      if (l != null) out.push(l);
    }
  }
  return out;
}

/**
 * The value range of a grid's quanta in [q0, q1) (all levels), for a colour
 * scale fitted to what is shown; null when none is positive.
 * @param {{values: (number | null)[][]}} grid @param {number} q0 @param {number} q1
 * @returns {[number, number] | null}
 */
export function gridRange(grid, q0, q1) {
  let lo = Infinity;
  let hi = 0;
  for (const row of grid.values) {
    for (let q = Math.max(0, q0); q < Math.min(row.length, q1); q++) {
      const v = row[q];
      if (v != null && v > 0) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  if (!(hi > 0)) return null;
  return hi / lo < 1.01 ? [lo / 1.1, hi * 1.1] : [lo, hi];
}

/** Index of the entry of xs nearest to v. @param {number[]} xs @param {number} v */
export function nearestLevel(xs, v) {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i] - v) < Math.abs(xs[best] - v)) best = i;
  return best;
}

/**
 * Spectrum curves of a query over one time range: per group the points
 * {p, u, v} (u the tail coordinate; p = 100 is left out: shown as the max).
 * Rows of several quanta (when the range spans more than one) are not
 * merged here: the engine must be asked with one quantum covering the range.
 * samples is the chosen row's I/O count (0: no row with I/Os in the range).
 * @param {any} r @returns {{group: string, points: {p: number, u: number, v: number}[], max: number | null, samples: number}[]}
 */
export function spectrumCurves(r) {
  return r.groups.map((/** @type {string} */ name, /** @type {number} */ gi) => {
    const row = r.rows.find((/** @type {any} */ x) => groupIndex(r, x.group) === gi && x.samples > 0);
    /** @type {{p: number, u: number, v: number}[]} */
    const points = [];
    /** @type {number | null} */
    let max = null;
    if (row) {
      r.percentiles.forEach((/** @type {string} */ ps, /** @type {number} */ i) => {
        const p = Number(ps);
        const v = row.p[i];
        if (v == null) return;
        if (p >= 100) max = v;
        else points.push({ p, u: tailCoord(p), v });
      });
    }
    return { group: name, points, max, samples: row ? row.samples : 0 };
  });
}
