// Pure shaping of an engine.query() result for the percentiles view: one
// series per (group, percentile) and per group mean, SLA violations, and the
// quanta flagged with too few samples. Unit-tested without a DOM.
import { percentileName } from '../app/options.js';

/**
 * @typedef {{t: number, v: number | null, e: number}} Point  time ms, value and bin-width error (result unit)
 * @typedef {{kind: 'p'|'mean', gi: number, pi: number, label: string, points: Point[]}} Series
 */

/**
 * @param {any} r query result
 * @param {boolean} withMean
 * @returns {Series[]}
 */
export function seriesOf(r, withMean) {
  /** @type {Series[]} */
  const out = [];
  const byGroup = r.groups.map(() => /** @type {any[]} */ ([]));
  for (const row of r.rows) byGroup[groupIndex(r, row.group)].push(row);
  r.groups.forEach((/** @type {string} */ name, /** @type {number} */ gi) => {
    const rows = byGroup[gi];
    const prefix = r.groups.length > 1 ? `${name} ` : '';
    r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => {
      out.push({
        kind: 'p',
        gi,
        pi,
        label: prefix + percentileName(p),
        points: rows.map((/** @type {any} */ row) => ({ t: row.t_ms, v: row.p[pi] ?? null, e: row.err?.[pi] ?? 0 })),
      });
    });
    if (withMean) {
      out.push({ kind: 'mean', gi, pi: -1, label: `${prefix}mean`, points: rows.map((/** @type {any} */ row) => ({ t: row.t_ms, v: row.mean ?? null, e: 0 })) });
    }
  });
  return out;
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
    if (row.t_ms > hi) hi = row.t_ms;
  }
  return [lo, hi + r.quantum_ms];
}
