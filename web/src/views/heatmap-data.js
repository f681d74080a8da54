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
 * CSV of the heat map cells in [from, to) (all quanta when omitted):
 * time_ms,lat_lo_<unit>,lat_hi_<unit>,count — one line per non-empty cell
 * (time_ms,bs_lo,bs_hi,count in bytes for rows by block size or offset).
 * @param {any} hm @param {string} unit ns|us|ms @param {[number, number] | null} [range]
 */
export function heatmapCsv(hm, unit, range = null) {
  // Rows by block size or offset are bytes, as `latscope heatmap --y bs|offset` writes them.
  const bytes = hm.y === 'bs' || hm.y === 'offset';
  const k = bytes ? 1 : unit === 'ns' ? 1 : unit === 'ms' ? 1e6 : 1e3;
  const lines = [bytes ? `time_ms,${hm.y}_lo,${hm.y}_hi,count` : `time_ms,lat_lo_${unit},lat_hi_${unit},count`];
  for (let q = 0; q < hm.quanta; q++) {
    const t = hm.t0_ms + q * hm.quantum_ms;
    if (range && (t + hm.quantum_ms <= range[0] || t >= range[1])) continue;
    for (let r = 0; r < hm.rows; r++) {
      const c = hm.counts[q * hm.rows + r];
      if (c > 0) lines.push(`${num(t)},${num(hm.edges_ns[r] / k)},${num(hm.edges_ns[r + 1] / k)},${num(c)}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** %.10g-like text without trailing zeros. @param {number} v */
export function num(v) {
  return String(Number(v.toPrecision(10)));
}
