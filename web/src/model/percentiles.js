// How the page names percentiles: the CLI's column labels (p99.9) and the
// display names (max for 100), shared by the controls, the views and the
// exports (docs/page-views.md).

/** Column label the CLI uses for a percentile: "p99.9". @param {string} p */
export function percentileLabel(p) {
  return `p${p}`;
}

/** Display name: 100 -> "max", 50 -> "p50". @param {string} p */
export function percentileName(p) {
  return Number(p) === 100 ? 'max' : `p${p}`;
}
