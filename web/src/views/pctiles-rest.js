// Many groups in the percentiles view (docs/page-views.md "Many groups"):
// past MANY_GROUPS groups the view draws the worst few as lines and the
// others as one grey band per shown percentile, lowest to highest over
// those groups in each quantum (what the Groups view's top-N mode does for
// one percentile). Pure: no DOM, so vitest covers it.
import { naturalCompare } from '../util/natural-order.js';

/** More groups than this: the worst `topN` are drawn, the rest as a band. */
export const MANY_GROUPS = 8;

/**
 * The percentile the groups are ranked by: the highest shown below 100
 * (max is one I/O), else the highest.
 * @param {string[]} percentiles @returns {number} its index
 */
export function rankPercentile(percentiles) {
  let best = -1;
  let top = -1;
  percentiles.forEach((p, i) => {
    const v = Number(p);
    if (top < 0 || v > Number(percentiles[top])) top = i;
    if (v < 100 && (best < 0 || v > Number(percentiles[best]))) best = i;
  });
  return best >= 0 ? best : top;
}

/**
 * The `n` worst groups: by their highest quantum of the rank percentile
 * (percentiles are never averaged, so "worst" is the worst moment), ties
 * by name. Groups without a value come last.
 * @param {import('../engine/columns.js').ResultColumns} r @param {number} n
 * @returns {Set<number>} group indices
 */
export function worstGroups(r, n) {
  const nP = r.percentiles.length;
  const pi = rankPercentile(r.percentiles);
  const worst = new Float64Array(r.groups.length).fill(-Infinity);
  for (let i = 0; i < r.n; i++) {
    const v = r.p[i * nP + pi];
    const g = r.group[i];
    if (v > worst[g]) worst[g] = v;
  }
  const order = r.groups.map((_, i) => i).sort((a, b) => worst[b] - worst[a] || naturalCompare(r.groups[a], r.groups[b]));
  return new Set(order.slice(0, Math.max(0, n)));
}

/**
 * Whether the answer has more groups than the view draws by default: then
 * the note and its switch show, and with allLines off the worst groups and
 * a band are drawn (restShown).
 * @param {import('../engine/columns.js').ResultColumns} r @param {{topN: number}} s
 */
export function manyGroups(r, s) {
  return !r.adaptive && r.groups.length > MANY_GROUPS && s.topN < r.groups.length;
}

/**
 * Whether the view draws the worst groups and a band for the rest.
 * @param {import('../engine/columns.js').ResultColumns} r @param {{allLines?: boolean, topN: number}} s
 */
export function restShown(r, s) {
  return !s.allLines && manyGroups(r, s);
}

/**
 * Per shown percentile, the band of the groups not in `keep`: for each
 * quantum starting in [t0, t1) that one of them has a value in, the lowest
 * and highest of their values.
 * @param {import('../engine/columns.js').ResultColumns} r @param {Set<number>} keep
 * @param {number} t0 @param {number} t1
 * @returns {{t: number, lo: number, hi: number}[][]} [pi] in time order
 */
export function restBands(r, keep, t0, t1) {
  const nP = r.percentiles.length;
  /** @type {{t: number, lo: number, hi: number}[][]} */
  const out = r.percentiles.map(() => []);
  /** @type {Map<number, number>[]} quantum start -> index in out[pi] */
  const at = r.percentiles.map(() => new Map());
  for (let i = 0; i < r.n; i++) {
    const t = r.t_ms[i];
    if (t < t0 || t >= t1 || keep.has(r.group[i])) continue;
    for (let pi = 0; pi < nP; pi++) {
      const v = r.p[i * nP + pi];
      if (!Number.isFinite(v)) continue;
      const k = at[pi].get(t);
      if (k === undefined) {
        at[pi].set(t, out[pi].length);
        out[pi].push({ t, lo: v, hi: v });
      } else {
        const b = out[pi][k];
        if (v < b.lo) b.lo = v;
        if (v > b.hi) b.hi = v;
      }
    }
  }
  // Rows come ordered by time, so each band already is.
  return out;
}
