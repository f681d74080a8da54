// Engine options of each view, derived from the page state. Pure, so the
// mapping (and the CLI-default guarantee) is unit-tested.
import { engineOptions } from './options.js';
import { tailPercentiles, anchoredTailPercentiles } from '../views/scales.js';
import { formatQuantum } from '../util/format.js';

/**
 * Surface levels: 50 ... 99.99 about 0.1 apart on the tail axis (ten per
 * nine), holding p75, p90, p95, p99, p99.5, p99.9, p99.95 exactly so the
 * slider stops on them.
 */
export const SURFACE_LEVELS = anchoredTailPercentiles(50, 99.99, 0.1);

/** Spectrum levels: 0 ... 99.999 on the 1/(1-p) axis, then the max. */
export const SPECTRUM_LEVELS = [...tailPercentiles(0, 99.999, 81), '100'];

/**
 * The percentiles view's query: with adaptive quanta on, `latscope pctiles
 * --adaptive ACC` (the other views keep fixed quanta).
 * @param {import('./state.js').State} s
 */
export function pctilesOptions(s) {
  const o = engineOptions(s);
  if (s.adaptive > 0) o.adaptive_accuracy = s.adaptive;
  return withSla(s, o);
}

/** Points the percentiles chart draws of a line per pixel column: a query of up to this many quanta a column is drawn whole. */
export const COLUMN_POINTS = 2;

/**
 * What the percentiles chart asks on top of its query when the visible range
 * holds more quanta than the chart can draw, two a pixel column (the lowest
 * and highest, pctiles-data.js viewRows; docs/page-views.md, "Worst quantum
 * per column"): the range and one column per pixel, so core
 * keeps each column's worst quantum per group and percentile (M4-style, the
 * tops only) and a spike one quantum long is still drawn. No bands: a column
 * is too narrow to draw them. Null when every quantum fits (or adaptive
 * quanta, which have no grid).
 * @param {import('./state.js').State} s @param {[number, number] | null} extent the run's time
 * @param {number} widthPx the chart's pixel columns
 * @returns {{from_ms: number, to_ms: number, columns: number, bands: false} | null}
 */
export function columnsAsk(s, extent, widthPx) {
  const range = s.range ?? extent;
  const w = Math.floor(widthPx);
  if (s.adaptive > 0 || !range || !(w >= 1) || !(range[1] > range[0])) return null;
  if ((range[1] - range[0]) / s.quantum_ms <= COLUMN_POINTS * w) return null;
  return { from_ms: range[0], to_ms: range[1], columns: w, bands: false };
}

/**
 * The SLA field's rules (core's spelling) judged on the same rows: the
 * answer carries core's marks of the quanta that break them
 * (docs/page-views.md, "SLA").
 * @param {import('./state.js').State} s @param {Record<string, any>} o
 */
function withSla(s, o) {
  if (s.sla.length) o.sla = s.sla.join(';');
  return o;
}

/**
 * Engine options without the coordinated-omission correction: the heat map
 * and the surface show what was recorded.
 * @param {import('./state.js').State} s
 */
function recorded(s) {
  const o = engineOptions(s);
  delete o.co_interval_ms;
  return o;
}

/**
 * The state the heat map asks with: a focused group's other logs left out
 * and its direction chosen on top of the page's selection, for the heat map
 * alone (model/state.js Focus).
 * @param {import('./state.js').State} s
 * @returns {import('./state.js').State}
 */
export function focused(s) {
  const f = s.focus;
  if (!f) return s;
  return { ...s, exclude_sources: [...new Set([...s.exclude_sources, ...f.exclude_sources])], directions: f.directions };
}

/** The cluster's percentiles (recorded), for lines over the heat map (of the focused group, if any). @param {import('./state.js').State} s */
export function clusterOptions(s) {
  // No error bands: the heat map draws the lines alone (QueryOptions::bands).
  return { ...recorded(focused(s)), group_by: 'all', bands: false };
}

/** Whether the percentiles query can serve as the heat map's lines (one recorded cluster group, no focus). @param {import('./state.js').State} s */
export function pctilesAreCluster(s) {
  return s.group_by === 'all' && !(s.co_interval_ms > 0) && !(s.adaptive > 0) && !s.focus;
}

/**
 * The labels a result made for a link keeps: those the page groups by, plus
 * dir (the direction selection keeps working) and kind (lat, clat and slat
 * never add up, docs/result-format.md). The others are added together.
 * @param {import('./state.js').State} s
 * @returns {string[]}
 */
export function resultLabels(s) {
  const keep = s.group_by === 'all' ? [] : s.group_by.split(',');
  for (const l of ['dir', 'kind']) if (!keep.includes(l)) keep.push(l);
  return keep;
}

/**
 * Engine options of the result a link carries: the whole run at the page's
 * quantum, with its selection (directions, kinds, exclusions, offsets: they
 * are in the result, so the link's view leaves them out, see linkState), and
 * the kept labels as group_by (`latscope reduce --keep`); a plan of
 * linkPlans sets another quantum and fewer labels.
 * @param {import('./state.js').State} s
 * @param {{quantum_ms: number, labels: string[]} | null} [plan]
 */
export function resultOptions(s, plan = null) {
  const o = engineOptions(s);
  delete o.percentiles;
  delete o.method;
  delete o.unit;
  delete o.co_interval_ms;
  return plan ? { ...o, quantum_ms: plan.quantum_ms, group_by: plan.labels } : { ...o, group_by: resultLabels(s) };
}

/** The fewest quanta over the run a link may coarsen to (linkPlans). */
export const MIN_LINK_QUANTA = 30;

/**
 * What a link with data may carry, fullest first (docs/embedding.md §3,
 * "Limits"): the result at the page's quantum with every label it keeps;
 * then without `dir` when the view does not group by it (the chosen
 * directions added together); then at each coarser quantum of the selector
 * that is a multiple of the page's (whole quanta: the counts stay exact).
 * Each plan names what it leaves out, for the sentence the page says. A
 * quantum leaving fewer than MIN_LINK_QUANTA over the data's span is not
 * offered: such a link would no longer show the run over time.
 * @param {import('./state.js').State} s @param {readonly number[]} quanta the selector's quanta, ascending
 * @param {number} spanMs the data's time span
 * @returns {{quantum_ms: number, labels: string[], dropped: string[]}[]}
 */
export function linkPlans(s, quanta, spanMs) {
  const full = resultLabels(s);
  const grouped = s.group_by === 'all' ? [] : s.group_by.split(',');
  const lean = grouped.includes('dir') ? full : full.filter((l) => l !== 'dir');
  const noDir = lean.length < full.length ? ['the directions apart (those chosen added together)'] : [];
  const plans = [{ quantum_ms: s.quantum_ms, labels: full, dropped: /** @type {string[]} */ ([]) }];
  if (noDir.length) plans.push({ quantum_ms: s.quantum_ms, labels: lean, dropped: noDir });
  for (const q of quanta) {
    if (q > s.quantum_ms && q % s.quantum_ms === 0 && spanMs / q >= MIN_LINK_QUANTA) plans.push({ quantum_ms: q, labels: lean, dropped: [...noDir, `the ${formatQuantum(s.quantum_ms)} quanta (${formatQuantum(q)} instead)`] });
  }
  return plans;
}

/**
 * The view state a link with a result carries: the page's, without what is
 * already applied inside the result (excluded files and hosts, offsets).
 * @param {import('./state.js').State} s
 * @returns {import('./state.js').State}
 */
export function linkState(s) {
  return { ...s, exclude_sources: [], exclude_hosts: [], offsets: {} };
}

/** @param {import('./state.js').State} s */
export function surfaceOptions(s) {
  // No error bands: the surface shows values (few-sample cells come from
  // the flags), and 41 percentiles' bands per quantum cost more than the
  // values (QueryOptions::bands; its CSV has no bound columns either way).
  return { ...recorded(s), group_by: 'all', percentiles: SURFACE_LEVELS.slice(), bands: false };
}

/**
 * Heat map options. Rows are log-spaced between min_ns and max_ns (0 = the
 * data's own range).
 * @param {import('./state.js').State} s @param {number} rows @param {[number, number] | null} yNs
 */
export function heatmapOptions(s, rows, yNs) {
  const o = recorded(focused(s));
  delete o.percentiles;
  delete o.method;
  delete o.group_by;
  delete o.unit;
  // Rows by block size or offset (per-I/O logs): bytes, no latency bounds.
  if (s.heatY === 'bs' || s.heatY === 'offset') return { ...o, rows, y: s.heatY };
  return { ...o, rows, min_ns: yNs ? yNs[0] : 0, max_ns: yNs ? yNs[1] : 0 };
}

/**
 * The distribution of one time range [a, b): every source's clock is
 * shifted by -a (on top of the user's offsets) so that a single quantum of
 * length b - a starting at 0 covers exactly the range. The engine aligns
 * quanta on multiples of the quantum, so from/to alone could only select
 * whole quanta of the current size.
 * @param {import('./state.js').State} s
 * @param {[number, number]} range ms
 * @param {{name: string, host: string}[]} sources
 */
export function spectrumOptions(s, range, sources) {
  const o = engineOptions(s);
  const [a, b] = range;
  /** @type {Record<string, number>} */
  const offsets = {};
  for (const src of sources) {
    const user = s.offsets[src.name] ?? (src.host ? s.offsets[src.host] : undefined) ?? 0;
    offsets[src.name] = Number(user) - a;
  }
  // No error bands: the spectrum draws values (QueryOptions::bands).
  return { ...o, percentiles: SPECTRUM_LEVELS.slice(), offsets, quantum_ms: b - a, from_ms: 0, to_ms: b - a, bands: false };
}

/**
 * Snaps a brushed range outward to whole quanta, within the data extent.
 * @param {[number, number]} r @param {number} q quantum ms @param {[number, number] | null} extent
 * @returns {[number, number]}
 */
export function snapRange(r, q, extent) {
  let a = Math.floor(Math.min(r[0], r[1]) / q) * q;
  let b = Math.ceil(Math.max(r[0], r[1]) / q) * q;
  if (b <= a) b = a + q;
  if (extent) {
    a = Math.max(a, extent[0]);
    b = Math.min(b, extent[1]);
    if (b <= a) b = Math.min(extent[1], a + q);
  }
  return [a, b];
}

/**
 * Keyboard zoom: factor < 1 zooms in around the middle, > 1 out; pan moves
 * by a fraction of the width. Returns null when the result covers it all.
 * @param {[number, number] | null} range @param {[number, number]} extent
 * @param {{zoom?: number, pan?: number}} op @param {number} minSpan ms
 * @returns {[number, number] | null}
 */
export function zoomRange(range, extent, op, minSpan) {
  const [a, b] = range || extent;
  let span = b - a;
  let mid = (a + b) / 2;
  if (op.zoom) span = Math.max(minSpan, span * op.zoom);
  if (op.pan) mid += op.pan * (b - a);
  const full = extent[1] - extent[0];
  if (span >= full) return null;
  let lo = mid - span / 2;
  lo = Math.max(extent[0], Math.min(extent[1] - span, lo));
  return [lo, lo + span];
}

/**
 * The label the groups view groups by: the sidebar's "Lines per", or hosts
 * when that is the cluster (one group has nothing to compare).
 * @param {import('./state.js').State} s
 */
export function groupsBy(s) {
  return s.group_by === 'all' ? 'host' : s.group_by;
}

/**
 * The groups view's matrix: the one percentile per group and quantum, on
 * recorded data (as the heat map), whole run (zooming only redraws).
 * @param {import('./state.js').State} s
 */
export function groupsOptions(s) {
  return withSla(s, { ...recorded(s), group_by: groupsBy(s), percentiles: [s.groupsP] });
}

/**
 * The density view's grid (docs/page-views.md, "Host density"): the heat
 * map's fixed latency rows, each cell counting the groups of the groups
 * view (same label, percentile and method) whose percentile lies in it,
 * on recorded data; whole run (zooming only redraws).
 * @param {import('./state.js').State} s @param {number} rows
 */
export function densityOptions(s, rows) {
  const o = recorded(s);
  const method = o.method;
  for (const k of ['percentiles', 'method', 'group_by', 'bands']) delete o[k]; // unit stays: the listed values come in it
  return { ...o, rows, density_by: groupsBy(s), density_percentile: Number(s.groupsP), ...(method ? { density_method: method } : {}) };
}

/**
 * Each group's percentile over a time range (the run, or the zoom) in one
 * quantum, the way the spectrum asks for one range: the ranking of the
 * top-N lines and of the small multiples.
 * @param {import('./state.js').State} s @param {[number, number]} range @param {{name: string, host: string}[]} sources
 */
export function groupsRunOptions(s, range, sources) {
  /** @type {Record<string, any>} */
  const o = { ...spectrumOptions(s, range, sources) };
  delete o.co_interval_ms;
  return { ...o, group_by: groupsBy(s), percentiles: [s.groupsP] };
}
