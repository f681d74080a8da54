import { formatNumber } from '../util/format.js';
// Pure helpers over an engine.heatmap() result: the cell under a point and
// the CSV of the shown cells. Unit-tested without a DOM.

/**
 * @param {{t0_ms:number, quantum_ms:number, quanta:number, rows:number, edges_ns:number[], counts:ArrayLike<number>}} hm
 * @param {number} t ms @param {number} ns latency
 * @returns {{q:number, r:number, t0:number, t1:number, lo:number, hi:number, count:number, share:number, iops:number} | null}
 */
export function cellAt(hm, t, ns) {
  const q = Math.floor((t - hm.t0_ms) / hm.quantum_ms);
  if (q < 0 || q >= hm.quanta) return null;
  let r = -1;
  for (let i = 0; i < hm.rows; i++) {
    if (ns >= hm.edges_ns[i] && ns < hm.edges_ns[i + 1]) {
      r = i;
      break;
    }
  }
  if (r < 0) return null;
  let col = 0;
  for (let i = 0; i < hm.rows; i++) col += hm.counts[q * hm.rows + i];
  const count = hm.counts[q * hm.rows + r];
  return {
    q,
    r,
    t0: hm.t0_ms + q * hm.quantum_ms,
    t1: hm.t0_ms + (q + 1) * hm.quantum_ms,
    lo: hm.edges_ns[r],
    hi: hm.edges_ns[r + 1],
    count,
    share: col > 0 ? count / col : 0,
    iops: count / (hm.quantum_ms / 1000),
  };
}

/**
 * The latency span of the rows holding I/Os in the quanta overlapping a time
 * range: [lower edge of the lowest, upper edge of the highest]; null when
 * that is every row (nothing to fit) or no cell in range has I/Os. The page
 * asks the engine again with these bounds, so a zoomed heat map spends its
 * rows on the latencies of the zoomed time, not of the whole run.
 * @param {{t0_ms:number, quantum_ms:number, quanta:number, rows:number, edges_ns:number[], counts:ArrayLike<number>}} hm
 * @param {[number, number]} range ms
 * @returns {[number, number] | null}
 */
export function visibleRowSpan(hm, range) {
  let r0 = Infinity;
  let r1 = -1;
  for (let q = 0; q < hm.quanta; q++) {
    const t = hm.t0_ms + q * hm.quantum_ms;
    if (t + hm.quantum_ms <= range[0] || t >= range[1]) continue;
    for (let r = 0; r < hm.rows; r++) {
      if (hm.counts[q * hm.rows + r] > 0) {
        if (r < r0) r0 = r;
        if (r > r1) r1 = r;
      }
    }
  }
  if (r1 < 0 || (r0 === 0 && r1 === hm.rows - 1)) return null;
  return [hm.edges_ns[r0], hm.edges_ns[r1 + 1]];
}

/**
 * The row panel beside the heat map: each row's average IOPS over a time
 * range, and the average of all rows (the range's IOPS). A quantum partly
 * in the range counts its share of the overlap, as the engine spreads a
 * window over the quanta it covers (docs/quanta.md); the range is cut to
 * the quanta the heat map has, so time without data does not dilute it.
 * @param {{t0_ms:number, quantum_ms:number, quanta:number, rows:number, counts:ArrayLike<number>}} hm
 * @param {[number, number]} range ms
 * @returns {{rates: Float64Array, total: number, seconds: number}} rates[r] I/Os per s of row r; total their sum
 */
export function rowRates(hm, range) {
  const rates = new Float64Array(hm.rows);
  const a = Math.max(range[0], hm.t0_ms);
  const b = Math.min(range[1], hm.t0_ms + hm.quanta * hm.quantum_ms);
  if (!(b > a)) return { rates, total: 0, seconds: 0 };
  for (let q = 0; q < hm.quanta; q++) {
    const t = hm.t0_ms + q * hm.quantum_ms;
    const share = (Math.min(t + hm.quantum_ms, b) - Math.max(t, a)) / hm.quantum_ms;
    if (!(share > 0)) continue;
    for (let r = 0; r < hm.rows; r++) rates[r] += hm.counts[q * hm.rows + r] * share;
  }
  const seconds = (b - a) / 1000;
  let total = 0;
  for (let r = 0; r < hm.rows; r++) {
    rates[r] /= seconds;
    total += rates[r];
  }
  return { rates, total, seconds };
}

/**
 * Tooltip lines of a heat-map cell. An empty cell says "no I/O" rather than
 * "count 0.0"; counts are the page's numbers (formatNumber: overlap
 * weighting leaves fractions, docs/quanta.md).
 * @param {{count: number, share: number, iops: number}} cell @param {string} rowText @param {string} timeText
 * @returns {string[]}
 */
export function cellTipLines(cell, rowText, timeText) {
  if (!(cell.count > 0)) return [timeText, rowText, 'no I/O'];
  return [timeText, rowText, `${formatNumber(cell.count)} I/Os (${formatNumber(100 * cell.share)}% of the column)`, `${formatNumber(cell.iops)} IOPS in this cell`];
}

