// Pure rules of the percentiles view's bands (docs/page-views.md "Open
// bands", docs/page-speed.md "Bands when drawn"): when they are drawn,
// where a sampling band without an upper end stops, and the marks of its
// open end. No DOM here, so vitest covers it.

/** Bands are drawn when each visible quantum has at least this many pixels. */
export const BAND_PX = 3;

/**
 * Percentile lines above which no bands are drawn: three groups of the
 * five default percentiles. Beyond, the translucent bands of many lines
 * pile up into one grey wash that hides the lines (docs/page-speed.md
 * "Bands when drawn"); hiding lines in the legend brings them back.
 */
export const BAND_MAX_LINES = 15;

/**
 * Whether the percentiles view draws its bands, and the note it writes
 * when the band option is on but they are not drawn.
 * @param {boolean} on the "error band" option
 * @param {number} quanta visible quanta @param {number} width plot pixels
 * @param {number} lines percentile lines drawn (not hidden)
 * @returns {{shown: boolean, note: string}}
 */
export function bandsDrawn(on, quanta, width, lines) {
  if (!on) return { shown: false, note: '' };
  if (lines > BAND_MAX_LINES) return { shown: false, note: `error bands off above ${BAND_MAX_LINES} lines (${lines} drawn)` };
  if (quanta > width / BAND_PX) return { shown: false, note: `error bands appear when zoomed in (≥ ${BAND_PX} px per quantum)` };
  return { shown: true, note: '' };
}

/** Length in pixels of the open-end mark above a value whose band has no upper end. */
export const OPEN_END_PX = 10;

/**
 * Where a sampling band's filled area ends above: its upper end, or the
 * value itself when nothing bounds it (hi null or NaN: too few I/Os above
 * the percentile, docs/uncertainty.md). Filling an unbounded band to the top
 * of the plot drew "anywhere up to the axis' end" as if it were a measured
 * spread; the open part is marked by openEndPath instead.
 * @param {number} v value @param {number | null | undefined} hi @returns {number}
 */
export function bandTop(v, hi) {
  return hi != null && hi === hi ? hi : v;
}

/**
 * The open-end marks of a band: one short stroke straight up from the value
 * at each point whose band has no upper end, as one SVG path (also a
 * canvas Path2D). Neighbouring quanta (at least 3 px apart when bands are
 * drawn) make a fringe along the line: "no upper end", never an area.
 * @template T
 * @param {T[]} pts points or row indices @param {(p: T) => boolean} open whether p's band is unbounded above
 * @param {(p: T) => number} px x in pixels @param {(p: T) => number} py the value's y in pixels
 * @param {number} [len] pixels
 * @returns {string} '' when no point is open
 */
export function openEndPath(pts, open, px, py, len = OPEN_END_PX) {
  let d = '';
  for (const p of pts) {
    if (!open(p)) continue;
    const x = px(p);
    const y = py(p);
    if (Number.isFinite(x) && Number.isFinite(y)) d += `M${x.toFixed(1)},${y.toFixed(1)}v${-len}`;
  }
  return d;
}
