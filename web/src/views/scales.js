// Pure scale helpers shared by the views: the tail-expanding percentile axis
//, latency colour scales for dense canvas cells and
// the outlier clip of the heat map's y range. No DOM here, so vitest covers it.
import * as d3 from 'd3';
import * as chromatic from 'd3-scale-chromatic';
import { formatPercentile } from '../util/format.js';

/** Largest percentile we place on a tail axis; p = 100 (max) maps here. */
export const TAIL_MAX_P = 99.9999;

/**
 * Tail coordinate of a percentile: -log10(1 - p/100). 50 -> 0.301,
 * 90 -> 1, 99 -> 2, 99.9 -> 3. Equals log10 of HdrHistogram's 1/(1-p) axis.
 * @param {number} p percentile in [0, 100]
 * @returns {number}
 */
export function tailCoord(p) {
  const q = Math.min(p, TAIL_MAX_P) / 100;
  return 0 - Math.log10(1 - q); // 0 - x: +0 at p = 0, not -0
}

/** Inverse of tailCoord. @param {number} u @returns {number} percentile */
export function tailInverse(u) {
  return 100 * (1 - Math.pow(10, -u));
}

/**
 * A d3-like linear scale over the tail coordinate: scale(p) -> pixels.
 * @param {[number, number]} pDomain percentiles at the two ends, e.g. [50, 99.99]
 * @param {[number, number]} range pixels
 */
export function tailScale(pDomain, range) {
  const lin = d3.scaleLinear().domain(pDomain.map(tailCoord)).range(range);
  /** @param {number} p */
  const s = (p) => lin(tailCoord(p));
  s.invert = (/** @type {number} */ px) => tailInverse(lin.invert(px));
  s.domain = () => pDomain.slice();
  s.range = () => range.slice();
  s.ticks = () => tailTicks(pDomain[0], pDomain[1]);
  s.copy = () => tailScale(pDomain, range);
  return s;
}

/**
 * Nines ticks between lo and hi: 0, 50, 90, 99, 99.9, ... (and 75 when
 * the span is short), the percentiles people read off a latency tail.
 * @param {number} lo @param {number} hi @returns {number[]}
 */
export function tailTicks(lo, hi) {
  const out = [];
  for (const p of [0, 50, 75]) if (p >= lo && p <= hi) out.push(p);
  for (let n = 1; n <= 6; n++) {
    const p = 100 * (1 - Math.pow(10, -n));
    const r = Number(p.toFixed(n));
    if (r >= lo - 1e-9 && r <= hi + 1e-9) out.push(r);
  }
  return out;
}

/**
 * Percentile list spaced evenly on the tail axis, as strings the engine
 * accepts ("50", "99.9", ...). Used by the surface and the spectrum.
 * @param {number} lo @param {number} hi @param {number} n number of levels
 * @returns {string[]}
 */
export function tailPercentiles(lo, hi, n) {
  const u0 = tailCoord(lo);
  const u1 = tailCoord(hi);
  const seen = new Set();
  const out = [];
  for (let i = 0; i < n; i++) {
    const u = u0 + ((u1 - u0) * i) / Math.max(1, n - 1);
    const p = i === 0 ? lo : i === n - 1 ? hi : tailInverse(u);
    const s = formatPercentile(p);
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}

/** Percentiles people quote; tail level lists hold each exactly. */
export const STANDARD_PERCENTILES = [50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999];

/**
 * Levels from lo to hi spaced about `step` apart on the tail axis, holding
 * every standard percentile in [lo, hi] exactly ("99", "99.9", not
 * "99.0142"): each gap between two standard percentiles is cut into equal
 * parts on the tail axis. A slider over these levels can stop on p99.
 * @param {number} lo @param {number} hi @param {number} step tail-axis units (0.1: ten per nine)
 * @returns {string[]}
 */
export function anchoredTailPercentiles(lo, hi, step) {
  const anchors = [lo, ...STANDARD_PERCENTILES.filter((p) => p > lo && p < hi), hi];
  /** @type {string[]} */
  const out = [formatPercentile(lo)];
  for (let i = 1; i < anchors.length; i++) {
    const u0 = tailCoord(anchors[i - 1]);
    const u1 = tailCoord(anchors[i]);
    const n = Math.max(1, Math.round((u1 - u0) / step));
    for (let k = 1; k < n; k++) out.push(formatPercentile(tailInverse(u0 + ((u1 - u0) * k) / n)));
    out.push(formatPercentile(anchors[i]));
  }
  return out;
}

/**
 * Palettes offered for dense cells; viridis/cividis are colour-blind safe.
 * @type {Record<string, (t: number) => string>} name -> colour interpolator
 */
export const PALETTES = {
  viridis: chromatic.interpolateViridis,
  cividis: chromatic.interpolateCividis,
  magma: chromatic.interpolateMagma,
  inferno: chromatic.interpolateInferno,
  turbo: chromatic.interpolateTurbo,
  ylorrd: chromatic.interpolateYlOrRd,
  blues: chromatic.interpolateBlues,
};

/**
 * 256-entry RGBA lookup table of a palette, for writing ImageData quickly.
 * @param {string} name key of PALETTES
 * @param {boolean} [reverse]
 * @returns {Uint8ClampedArray} 256*4 bytes
 */
export function paletteLut(name, reverse = false) {
  const f = PALETTES[name] || PALETTES.viridis;
  const lut = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    const c = d3.rgb(f(reverse ? 1 - i / 255 : i / 255));
    lut.set([c.r, c.g, c.b, 255], i * 4);
  }
  return lut;
}

/**
 * Maps cell counts to [0, 1] for the colour palette.
 *  linear: count / max (Gregg's default shading; washes out rare cells)
 *  log:    log1p(count) / log1p(max)
 *  false:  rank of the count among the distinct non-zero counts (histogram
 *          equalisation): any non-zero cell is clearly visible, at the price
 *          that shades no longer compare counts.
 * Zero cells map to -1 (drawn as background).
 * @param {'linear'|'log'|'false'} mode
 * @param {ArrayLike<number>} counts
 * @returns {(c: number) => number}
 */
export function countNormalizer(mode, counts) {
  let max = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > max) max = counts[i];
  if (max <= 0) return () => -1;
  if (mode === 'linear') return (c) => (c > 0 ? Math.max(c / max, 1 / 255) : -1);
  if (mode === 'log') {
    // The scale starts at half an I/O: overlap weighting leaves fractional
    // counts (a window's sliver in the next quantum, the partial last
    // quantum) that would otherwise stretch the scale down and paint those
    // cells as brightly as real traffic. They keep the lowest shade.
    const lo = Math.log(Math.min(0.5, max / 2));
    const span = Math.log(max) - lo;
    return (c) => (c > 0 ? Math.max((Math.log(c) - lo) / span, 1 / 255) : -1);
  }
  const distinct = Array.from(new Set(Array.from(counts).filter((c) => c > 0))).sort((a, b) => a - b);
  const n = distinct.length;
  return (c) => {
    if (!(c > 0)) return -1;
    const i = d3.bisectLeft(distinct, c);
    return n === 1 ? 1 : 0.05 + (0.95 * i) / (n - 1);
  };
}

/**
 * Latency below which all but `clip` of the samples lie, from heat-map
 * counts: the upper y limit when "clip top 0.1% outliers" is on. Returns the
 * upper edge of the row holding that rank, so no visible cell is cut.
 * @param {{counts: ArrayLike<number>, rows: number, quanta: number, edges_ns: number[], above?: number}} hm
 * @param {number} clip fraction, e.g. 0.001
 * @returns {number} ns
 */
export function clipTopNs(hm, clip) {
  const perRow = new Float64Array(hm.rows);
  let total = hm.above || 0;
  for (let q = 0; q < hm.quanta; q++) {
    for (let r = 0; r < hm.rows; r++) perRow[r] += hm.counts[q * hm.rows + r];
  }
  for (let r = 0; r < hm.rows; r++) total += perRow[r];
  if (total <= 0) return hm.edges_ns[hm.rows];
  const keep = total * (1 - clip);
  let cum = 0;
  for (let r = 0; r < hm.rows; r++) {
    cum += perRow[r];
    if (cum >= keep) return hm.edges_ns[r + 1];
  }
  return hm.edges_ns[hm.rows];
}

/**
 * Ticks of a log axis in a display unit: powers of ten, with 2 and 5 (or 3)
 * between them when the axis has room. The densest set whose neighbouring
 * labels stay at least minGap pixels apart wins; when even powers of ten
 * crowd, every second (third, ...) one is kept. Values are in the axis'
 * unit, so they are round in that unit (µs ticks 100, 200, 500 rather than
 * the same places in ns).
 * @param {number} lo @param {number} hi domain, > 0
 * @param {number} px axis length in pixels
 * @param {number} [minGap] pixels between neighbouring labels
 * @returns {number[]}
 */
export function logTicks(lo, hi, px, minGap = 18) {
  if (!(lo > 0) || !(hi > lo) || !(px > 0)) return lo > 0 ? [lo] : [];
  const decades = Math.log10(hi / lo);
  const perDecade = px / decades;
  const e0 = Math.floor(Math.log10(lo));
  const e1 = Math.ceil(Math.log10(hi));
  // Smallest pixel gap within a decade for each multiplier set.
  const sets = [
    [1, 2, 5],
    [1, 3],
    [1],
  ];
  const gapOf = (/** @type {number[]} */ m) => {
    const ms = [...m, 10];
    let g = Infinity;
    for (let i = 1; i < ms.length; i++) g = Math.min(g, Math.log10(ms[i] / ms[i - 1]) * perDecade);
    return g;
  };
  const within = (/** @type {number} */ t) => t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9);
  const chosen = sets.find((m) => gapOf(m) >= minGap);
  /** @type {number[]} */
  const out = [];
  if (chosen) {
    for (let e = e0; e <= e1; e++) for (const m of chosen) {
      const t = +(m * Math.pow(10, e)).toPrecision(12);
      if (within(t)) out.push(t);
    }
  } else {
    const every = Math.ceil(minGap / perDecade);
    for (let e = e0; e <= e1; e++) {
      const t = +Math.pow(10, e).toPrecision(12);
      if (within(t) && ((e % every) + every) % every === 0) out.push(t);
    }
  }
  // A narrow range (under a decade) may hold one round value or none: then
  // steps of 1, 2 or 5 of a smaller power of ten (d3.ticks), as many as
  // keep their labels minGap apart where they are closest (the top, on a
  // log axis); its two ends when not even two such ticks fit.
  if (out.length < 2 && hi / lo < 10) {
    for (let n = Math.max(2, Math.floor(px / 40)); n >= 2; n--) {
      const ts = d3.ticks(lo, hi, n).map((t) => +t.toPrecision(12)).filter((t) => t > 0 && within(t));
      let ok = ts.length >= 2;
      for (let i = 1; ok && i < ts.length; i++) ok = Math.log10(ts[i] / ts[i - 1]) * perDecade >= minGap;
      if (ok) return ts;
    }
    return [lo, hi].map((v) => +v.toPrecision(3)).filter(within);
  }
  return out;
}

/**
 * The domain of a log latency axis fitted to the values [lo, hi]: a little
 * headroom each side (5% of the span in decades, at least a twentieth of a
 * decade, about 12%), and a span of under a third of a decade widened to
 * that around its middle. Not rounded out to powers of ten (d3's nice()):
 * a 21 ms max drew the axis up to 100 ms, the data in its lower part
 * (docs/page-views.md "Fitting the y range to the data"). logTicks labels
 * the round values inside.
 * @param {number} lo smallest value above 0 (anything else: hi / 100)
 * @param {number} hi largest value (anything not above 0: 1)
 * @returns {[number, number]}
 */
export function logDomain(lo, hi) {
  if (!(hi > 0 && hi < Infinity)) hi = 1;
  if (!(lo > 0) || lo > hi) lo = hi / 100;
  const dec = Math.log10(hi / lo);
  const pad = Math.max(0.05 * dec, 0.05, (1 / 3 - dec) / 2);
  const k = Math.pow(10, pad);
  return [lo / k, hi * k];
}

/**
 * 1-D label placement: positions (pixels) moved apart so that neighbours are
 * at least `gap` apart, each as near its wanted place as that allows, all
 * inside [lo, hi]. Returns the new positions in the input's order.
 * @param {number[]} want @param {number} gap @param {number} lo @param {number} hi
 * @returns {number[]}
 */
export function dodgeLabels(want, gap, lo, hi) {
  const order = want.map((y, i) => ({ y: Math.max(lo, Math.min(hi, y)), i })).sort((a, b) => a.y - b.y);
  // Push down (increasing) from the top, then back up from the bottom edge.
  for (let k = 1; k < order.length; k++) order[k].y = Math.max(order[k].y, order[k - 1].y + gap);
  if (order.length && order[order.length - 1].y > hi) order[order.length - 1].y = hi;
  for (let k = order.length - 2; k >= 0; k--) order[k].y = Math.min(order[k].y, order[k + 1].y - gap);
  const out = new Array(want.length);
  for (const o of order) out[o.i] = o.y;
  return out;
}

/**
 * Which centred labels fit a span: the indices of those whose extent
 * [at - width/2, at + width/2] lies in [lo, hi] and does not reach into the
 * label kept before them (gap pixels between). Side by side axes (small
 * multiples) drop the labels at their shared edges this way, where "30 s"
 * of one ran into "0 s" of the next.
 * @param {number[]} at centres, ascending @param {number[]} width @param {number} lo @param {number} hi @param {number} [gap]
 * @returns {number[]}
 */
export function labelsWithin(at, width, lo, hi, gap = 4) {
  /** @type {number[]} */
  const out = [];
  let end = -Infinity;
  at.forEach((x, i) => {
    const a = x - width[i] / 2;
    const b = x + width[i] / 2;
    if (a < lo || b > hi || a < end + gap) return;
    out.push(i);
    end = b;
  });
  return out;
}

/**
 * A scale's map as plain arithmetic: the same straight line (of the value,
 * or of its log) as the d3 scale, without the per-call work (a Date object
 * per call for an absolute time axis, the log transform's dispatch). For
 * the canvas lines of hundreds of groups: per host at 1 s quanta that is 3.6
 * million points per drawing, and the scale calls were a third of the
 * drawing's JavaScript (docs/page-speed.md "Plain arithmetic for canvas
 * points"). Not clamped, like the scales it copies; the last bits of a
 * pixel position may differ from the scale's.
 * @param {{domain: () => any[], range: () => number[]}} s @param {boolean} [log]
 * @returns {(v: number) => number}
 */
export function plainScale(s, log = false) {
  const [k, c] = plainLine(s, log);
  if (log) return (v) => c + Math.log(v) * k;
  return (v) => c + v * k;
}

/**
 * plainScale's straight line as [k, c]: the position is c + k * v (c + k *
 * ln v on a log scale). For loops that map millions of points inline.
 * @param {{domain: () => any[], range: () => number[]}} s @param {boolean} [log]
 * @returns {[number, number]}
 */
export function plainLine(s, log = false) {
  const [d0, d1] = s.domain().map(Number);
  const [r0, r1] = s.range();
  if (log) {
    const l0 = Math.log(d0);
    const k = (r1 - r0) / (Math.log(d1) - l0);
    return [k, r0 - l0 * k];
  }
  const k = (r1 - r0) / (d1 - d0);
  return [k, r0 - d0 * k];
}

/**
 * The line through points {t, v} of a chart: gaps where v is null, and on a
 * log axis where v is not positive (log 0 has no place).
 * @param {(t: number) => number} x @param {(v: number) => number} y @param {boolean} yLog
 */
export function pointLine(x, y, yLog) {
  return d3
    .line()
    .digits(1)
    .defined((/** @type {any} */ d) => d.v != null && (!yLog || d.v > 0))
    .x((/** @type {any} */ d) => x(d.t))
    .y((/** @type {any} */ d) => y(d.v));
}
