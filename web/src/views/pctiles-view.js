// Percentiles over time: one line per (group, percentile), optional mean,
// two bands: the engine's per-value bin width (darker) and the 95% sampling
// band (lighter; docs/uncertainty.md: how far the percentile of the
// distribution may be from this quantum's, bins included), SLA threshold lines
// with the violating quanta shaded, and a samples/IOPS strip underneath that
// marks quanta with too few samples for the chosen percentiles (flag "few").
import { manyGroups, restShown, worstGroups } from './pctiles-rest.js';
import { drawRest } from './pctiles-rest-draw.js';
import * as d3 from 'd3';
import { Frame, themeColors, latencyScale, latencyAxis, drawYGrid, axisLabel } from './frame.js';
import { timeScale, timeAxis } from './time-axis.js';
import { plainScale, plainLine, pointLine } from './scales.js';
import { traceRows, shadeBoxer, flushCanvas } from './canvas-line.js';
import { pixelLine, pixelOf, shadePixels, transpose } from './line-pixels.js';
import { seriesMeta, valueRange, viewRows, rowSpan, valueReader, groupIn, rowsOfGroup, rowWidth, stepPoints, cols, stepMids } from './pctiles-data.js';
import { bandTop, openEndPath, bandsDrawn, BAND_PX } from './pctiles-bands.js';
import { percentileColor, LINE_PALETTE, CO_DASH } from './colors.js';
import { unitLabel } from '../model/units.js';
import { yieldToEvents } from '../util/yield.js';
import { coPairs } from '../model/co-groups.js';
import { drawLegend } from './pctiles-legend.js';
import { legendBoxOver } from './legend.js';
import { drawSlaLines } from './pctiles-sla.js';
import { brushAndHover } from './pctiles-hover.js';
import { drawIopsStrip, STRIP_H, STRIP_GAP } from './pctiles-strip.js';
import { drawNotes } from './pctiles-notes.js';
import { BandCache } from './pctiles-band-cache.js';

/** Line points in view above which lines are drawn on the canvas, not as SVG paths. */
export const CANVAS_POINTS = 60000;
/** Opacity of the SLA shading. */
const SLA_ALPHA = 0.25;
/** Series on the canvas above which lines are solid hairlines set as pixels (line-pixels.js). */
export const DENSE_SERIES = 200;
/** Opacity of the open-end marks of unbounded sampling bands (pctiles-bands.js openEndPath). */
const OPEN_ALPHA = 0.6;

export class PercentilesView {
  /**
   * @param {HTMLElement} host
   * @param {{store: import('./view.js').ViewStore, extent: () => [number, number] | null, emptyText?: () => string, onRange: (r: [number, number] | null) => void, colors: import('./colors.js').ColorKeeper, bands?: (range: [number, number]) => Promise<import('../engine/columns.js').ResultColumns>}} ctx
   */
  constructor(host, ctx) {
    this.ctx = ctx;
    // The canvas takes the lines when there are too many for SVG (CANVAS_POINTS).
    this.frame = new Frame(host, { canvas: true, margin: { top: 30, right: 24, bottom: 34, left: 72 } });
    this.legendBox = legendBoxOver(this.frame, 'pctiles-legend');
    /** Where canvas lines are drawn before one copy to the shown canvas (draw). @type {HTMLCanvasElement | null} */
    this.offCanvas = null;
    /** Dense lines' pixels (line-pixels.js), kept for the next draw of the same size. @type {Uint32Array | null} */
    this.linePixels = null;
    /** Those pixels column by column while SLA boxes are blended in (line-pixels.js). @type {Uint32Array | null} */
    this.linePixelColumns = null;
    /** Where those pixels are put before they are laid over the other canvas. @type {HTMLCanvasElement | null} */
    this.pixelCanvas = null;
    /** @type {any} */
    this.data = null;
    /** The bands the shown answer left out, asked for by range (pctiles-band-cache.js). */
    this.bandCache = new BandCache(null, ctx.bands);
    /** Shows the hover again (its bands came). @type {(() => void) | null} */
    this.rehover = null;
    /** The drawn answer keeps each pixel column's worst quantum (setData). @type {{columns: number, quanta: number, from_ms: number, to_ms: number} | null} */
    this.columns = null;
    // What bandsFor runs when bands come: the same functions each time, so
    // callers waiting for one query are called once each.
    this.drawAgain = () => this.render();
    this.hoverAgain = () => this.rehover?.();
    this.token = 0;
    /** @type {Promise<void>} */
    this.drawing = Promise.resolve();
  }

  /**
   * @param {any} result engine.queryColumns() result (or engine.query()'s JSON)
   * @param {{columns: number, quanta: number, from_ms: number, to_ms: number} | null} [columns] the result
   *   keeps each pixel column's worst quantum (QueryOptions::columns): this many columns over
   *   this many quanta of from_ms .. to_ms
   */
  setData(result, columns = null) {
    this.columns = result ? columns : null;
    const data = result ? cols(result) : null;
    if (data !== this.data) {
      this.bandCache.live = false;
      this.bandCache = new BandCache(data, this.ctx.bands);
    }
    this.data = data;
    this.render();
  }

  /**
   * Whether bands would be drawn over the whole time extent (the app asks
   * the engine for them only then: over thousands of quanta they are not
   * drawn, and they were a third of a per-host query; docs/page-speed.md
   * "Bands when drawn").
   * @param {[number, number]} extent @param {number} quantumMs
   */
  bandsAtExtent(extent, quantumMs) {
    return this.ctx.store.state.showBand && (extent[1] - extent[0]) / quantumMs <= this.frame.innerW / BAND_PX;
  }

  /**
   * The bands of `range` for an answer that left them out (BandCache.get).
   * @param {import('../engine/columns.js').ResultColumns} r
   * @param {[number, number]} range @param {() => void} then
   * @returns {import('../engine/columns.js').ResultColumns | null}
   */
  bandsFor(r, range, then) {
    return this.bandCache.get(r, range, then);
  }

  /**
   * Draws the chart in a few tasks of its own (a big result would otherwise
   * hold the main thread for 100 ms and more); `drawing` settles when done.
   */
  render() {
    const token = ++this.token;
    const r = this.data;
    if (!r || !r.n) {
      this.drawing = Promise.resolve();
      this.legendBox.hidden = true;
      this.frame.message(this.ctx.emptyText?.() || (r ? 'No data for this selection' : 'Load fio histogram logs to begin'));
      return;
    }
    this.drawing = (async () => {
      await nextTask();
      if (token === this.token) await this.draw(token);
    })();
  }

  /** @param {number} token */
  async draw(token) {
    const f = this.frame;
    const s = this.ctx.store.state;
    const r = /** @type {import('../engine/columns.js').ResultColumns} */ (this.data);
    const nP = r.percentiles.length;
    const g = f.clear();
    const c = themeColors();
    const mainH = f.innerH - STRIP_H - STRIP_GAP;
    const cv = /** @type {HTMLCanvasElement} */ (f.canvas);
    const shown = /** @type {CanvasRenderingContext2D} */ (cv.getContext('2d'));
    shown.setTransform(1, 0, 0, 1, 0, 0);
    shown.clearRect(0, 0, cv.width, cv.height);
    const extent = this.ctx.extent() || [0, 1];
    const dom = s.range || extent;
    const x = timeScale(r.absolute_time, dom, [0, f.innerW]);
    // Adaptive quanta (docs/uncertainty.md): each row has its own width and
    // is drawn as a step from its start to its end, not as a point mid-quantum.
    const adaptive = !!r.adaptive;
    const inView = (/** @type {number} */ t, w = r.quantum_ms) => t + w > dom[0] && t < dom[1];
    // y range straight from the columns: building per-series points first
    // costs more than the whole axis drawing.
    let [lo, hi] = valueRange(r, dom, s.showMean);
    // SLA rules as core expanded them over this answer's percentiles (the
    // query's "sla" option), thresholds in the result's unit for drawing;
    // which quanta break them is core's answer too, r.sla_marks
    // (docs/page-views.md, "SLA").
    const scale = { ns: 1, us: 1e3, ms: 1e6 }[/** @type {'ns'|'us'|'ms'} */ (r.unit)] || 1e3;
    const nV = r.sla?.length ?? 0;
    const marks = r.sla_marks;
    const rules = (r.sla ?? []).map((v, k) => ({ ...v.rule, k, pi: v.pi, max: v.max, t: v.rule.threshold_ns / scale }));
    for (const x of rules) if (x.t > hi) hi = x.t;
    const y = latencyScale(s.yLog, [lo, hi], [mainH, 0]);
    const hidden = new Set(s.hidden);

    const clipId = `clip-p-${Math.random().toString(36).slice(2)}`;
    f.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', f.innerW).attr('height', f.innerH);

    drawYGrid(g, y, f.innerW, latencyAxis(y));
    axisLabel(g, `latency (${unitLabel(r.unit)})`, -56, mainH / 2, -90);
    const plot = g.append('g').attr('clip-path', `url(#${clipId})`);

    const slaShade = plot.append('g').attr('class', 'sla-violations');

    // With coordinated-omission correction every group comes twice
    // (co=uncorrected, co=corrected): a pair shares its colour and the
    // corrected half is dashed.
    const co = coPairs(r.groups);
    const coOn = co.of.some((x) => x.co);
    const nBase = co.bases.length;
    // Colours stay put (views/colors.js): a percentile keeps its own, a
    // group the one it got when first seen.
    const groupColor = (/** @type {number} */ gi, /** @type {number} */ pi) => {
      const b = co.of[gi]?.base ?? gi;
      if (coOn && nBase > 1) return LINE_PALETTE[(b * nP + pi) % LINE_PALETTE.length];
      return nBase > 1 ? this.ctx.colors.color(co.bases[b] ?? r.groups[gi]) : percentileColor(r.percentiles[pi]);
    };
    // Legend keys: a group (several groups) or a percentile; hiding one hides its lines.
    const multi = r.groups.length > 1;
    const isHidden = (/** @type {{kind: string, gi: number, pi: number}} */ se) =>
      (multi && hidden.has(`g:${co.bases[co.of[se.gi]?.base ?? se.gi] ?? r.groups[se.gi]}`)) ||
      (coOn && hidden.has(co.of[se.gi]?.corrected ? 'co:corrected' : 'co:uncorrected')) ||
      (se.kind === 'p' ? hidden.has(`p:${r.percentiles[se.pi]}`) : hidden.has('mean'));
    const dash = (/** @type {number} */ pi, /** @type {number} */ gi = 0) =>
      coOn ? (co.of[gi]?.corrected ? CO_DASH : '') : r.groups.length > 1 ? ['', '6,3', '2,2', '8,3,2,3', '1,3'][pi % 5] : '';
    const mid = adaptive ? (/** @type {number} */ t) => x(t) : (/** @type {number} */ t) => x(t + r.quantum_ms / 2);

    // Bands need a few pixels per quantum to read as bands; when zoomed out
    // over thousands of quanta they are noise (and slow), so they wait for a zoom.
    let inViewRows = 0;
    if (adaptive) for (let i = 0; i < r.n; i++) inViewRows += inView(r.t_ms[i], r.width_ms[i]) ? 1 : 0;
    const visibleQuanta = adaptive ? inViewRows / Math.max(1, r.groups.length) : (dom[1] - dom[0]) / r.quantum_ms;
    // Many groups: the worst few as lines, the rest as grey bands (pctiles-rest.js).
    const rest = restShown(r, s);
    const keep = rest ? worstGroups(r, s.topN) : null;
    const metas = seriesMeta(r, s.showMean).filter((m) => !isHidden(m) && (!keep || keep.has(m.gi)));
    const bandRule = bandsDrawn(s.showBand, visibleQuanta, f.innerW, metas.filter((m) => m.kind === 'p').length);
    const bandsShown = bandRule.shown;
    // An answer without bands (app.js asks for them only when the whole
    // extent shows them): the visible quanta's come in an answer of their
    // own, and the view is drawn again when it is here.
    const bandSrc = !bandsShown || adaptive || r.bands !== false ? r : this.bandsFor(r, [dom[0] - r.quantum_ms, dom[1] + r.quantum_ms], this.drawAgain);
    const [ylo, yhi] = y.domain();
    const area = d3
      .area()
      .digits(1)
      .defined((/** @type {any} */ d) => d.v != null)
      .x((/** @type {any} */ d) => mid(d.t))
      .y0((/** @type {any} */ d) => y(Math.max(ylo, d.v - d.e)))
      .y1((/** @type {any} */ d) => y(Math.min(yhi, d.v + d.e)));
    // The sampling band; unbounded above (hi null) it is filled up to the
    // value only, its open end marked (bandTop, openEndPath).
    const sampling = d3
      .area()
      .digits(1)
      .defined((/** @type {any} */ d) => d.v != null && d.lo != null)
      .x((/** @type {any} */ d) => mid(d.t))
      .y0((/** @type {any} */ d) => y(Math.max(ylo, d.lo)))
      .y1((/** @type {any} */ d) => y(Math.min(yhi, bandTop(d.v, d.hi))));
    const line = pointLine(mid, y, s.yLog);
    // Fixed quanta: lines and bands read the columns through row indices
    // (viewRows), no point objects; on the canvas they draw straight into
    // the context, no path text.
    /** @type {{kind: 'p'|'mean', pi: number}} */
    let cur = { kind: 'p', pi: 0 };
    // The current series' value of row i (set per series below: one array
    // read, no dispatch, for millions of points).
    let vAt = valueReader(r, cur);
    const kAt = (/** @type {number} */ i) => i * nP + cur.pi;
    // The scales the row lines and bands use: d3's, or on the canvas the
    // same maps as plain arithmetic (scales.js plainScale).
    /** @type {(t: number) => number} */
    let X = x;
    /** @type {(v: number) => number} */
    let Y = y;
    const half = r.quantum_ms / 2;
    const rowMid = (/** @type {number} */ t) => X(t + half);
    const rowLine = d3
      .line()
      .digits(1)
      .defined((/** @type {any} */ i) => {
        const v = vAt(i);
        return v === v && (!s.yLog || v > 0);
      })
      .x((/** @type {any} */ i) => rowMid(r.t_ms[i]))
      .y((/** @type {any} */ i) => Y(vAt(i)));
    // A percentile's bin band and sampling band over the rows of `src`
    // (the answer, or one of bands of its own: bandsFor), of series `cur`.
    const rowBands = (/** @type {import('../engine/columns.js').ResultColumns} */ src) => {
      const v = (/** @type {number} */ i) => src.p[kAt(i)];
      const errOf = (/** @type {number} */ i) => {
        const e = src.err[kAt(i)];
        return e === e ? e : 0;
      };
      const at = (/** @type {any} */ i) => X(src.t_ms[i] + half);
      return {
        area: d3
          .area()
          .digits(1)
          .defined((/** @type {any} */ i) => v(i) === v(i))
          .x(at)
          .y0((/** @type {any} */ i) => Y(Math.max(ylo, v(i) - errOf(i))))
          .y1((/** @type {any} */ i) => Y(Math.min(yhi, v(i) + errOf(i)))),
        sampling: d3
          .area()
          .digits(1)
          .defined((/** @type {any} */ i) => v(i) === v(i) && src.lo[kAt(i)] === src.lo[kAt(i)])
          .x(at)
          .y0((/** @type {any} */ i) => Y(Math.max(ylo, src.lo[kAt(i)])))
          .y1((/** @type {any} */ i) => Y(Math.min(yhi, bandTop(v(i), src.hi[kAt(i)])))),
        // Rows whose band has no upper end (hi NaN, lo known).
        open: (/** @type {number[]} */ rows) =>
          openEndPath(rows, (i) => v(i) === v(i) && src.lo[kAt(i)] === src.lo[kAt(i)] && !(src.hi[kAt(i)] === src.hi[kAt(i)]), at, (i) => Y(v(i))),
      };
    };
    const bandGens = bandSrc ? rowBands(bandSrc) : null;
    /**
     * What a series' bands are drawn from: its rows in the answer, or in
     * the bands' own answer (null: not here yet, or the group has none).
     * @param {{gi: number, pi: number, kind: 'p'|'mean'}} se @param {any[]} pts
     */
    const bandsOf = (se, pts) => {
      if (adaptive) {
        const open = openEndPath(stepMids(pts), (d) => d.v != null && d.lo != null && d.hi == null, (d) => mid(d.t), (d) => y(/** @type {number} */ (d.v)));
        return { pts, ar: area, sa: sampling, open };
      }
      if (!bandSrc || !bandGens) return null;
      const rows = bandSrc === r ? pts : null;
      const gi = rows ? se.gi : groupIn(bandSrc, r.groups[se.gi]);
      if (gi < 0) return null;
      const bpts = rows ?? viewRows(bandSrc, { ...se, gi }, dom[0] - r.quantum_ms, dom[1] + r.quantum_ms, X, f.innerW);
      return { pts: bpts, ar: bandGens.area, sa: bandGens.sampling, open: bandGens.open(bpts) };
    };
    const bandG = plot.append('g').attr('class', 'bands');
    const lineG = plot.append('g').attr('class', 'lines');
    // Series are drawn in slices of about SLICE_MS, yielding to the event
    // loop in between, so a big result never blocks the page for long.
    /** @type {Omit<import('./pctiles-data.js').Series, 'points'>[]} */
    const series = [];
    this.series = series;
    // Beyond CANVAS_POINTS line points in view (hundreds of groups), lines
    // and bands go to the canvas: one DOM path per series would take
    // seconds to lay out (docs/page-speed.md "Speed with many groups").
    const onCanvas = metas.length * Math.min(visibleQuanta, 2 * f.innerW) > CANVAS_POINTS;
    this.onCanvas = onCanvas;
    if (onCanvas) {
      X = plainScale(x);
      Y = plainScale(y, s.yLog);
    }
    const dpr = window.devicePixelRatio || 1;
    // Lines are drawn in slices between which the page runs frames: drawn
    // on the shown canvas, every frame would flush and paint it again
    // (canvas FinalizeFrame, Paint and compositing updates were over half
    // of a 200-host regroup's drawing, bench-groups-chromium.mjs --trace).
    // They go to a canvas off the page, copied once when all are drawn.
    /** SLA shading drawn on the canvas (with its lines): what the SVG's .sla-shade paths say otherwise. @type {{key: string, rule: string, quanta: number}[]} */
    const shadedOnCanvas = [];
    this.slaOnCanvas = shadedOnCanvas;
    // One such canvas per view, sized like the shown one.
    const off = (this.offCanvas ??= document.createElement('canvas'));
    const c2 = /** @type {CanvasRenderingContext2D} */ (off.getContext('2d'));
    if (onCanvas) {
      if (off.width !== cv.width || off.height !== cv.height) {
        off.width = cv.width;
        off.height = cv.height;
      }
      c2.reset();
    }
    if (onCanvas) {
      c2.setTransform(dpr, 0, 0, dpr, 0, 0);
      c2.beginPath();
      c2.rect(0, 0, f.innerW, mainH);
      c2.clip();
    }
    // Beyond DENSE_SERIES fixed-quanta lines, each line's pixels are set in
    // a buffer (line-pixels.js pixelLine), the SLA boxes blended over them,
    // laid over the bands once all are drawn: Chromium stroked and rasterised 1,200 hairlines
    // of 3,600 points in about a second (docs/page-speed.md "Dense lines
    // as pixels").
    const [kx, cx] = plainLine(x);
    const [ky, cy] = plainLine(y, s.yLog);
    const pw = Math.min(off.width, Math.ceil(f.innerW * dpr));
    const ph = Math.min(off.height, Math.ceil(mainH * dpr));
    const dense = onCanvas && !adaptive && metas.length > DENSE_SERIES && pw > 0 && ph > 0;
    let pix = dense ? this.linePixels : null;
    if (dense) {
      if (!pix || pix.length !== pw * ph) pix = this.linePixels = new Uint32Array(pw * ph);
      else pix.fill(0);
    }
    /** @type {Map<string, number>} CSS colour -> pixel */
    const pixels = new Map();
    const pixelColor = (/** @type {string} */ css) => {
      let v = pixels.get(css);
      if (v === undefined) {
        const parsed = d3.color(css);
        // A colour d3 cannot read (a theme may use any CSS colour): as the
        // canvas paints it.
        if (parsed?.displayable()) v = pixelOf(parsed.rgb());
        else {
          const one = /** @type {CanvasRenderingContext2D} */ (Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d'));
          one.fillStyle = css;
          one.fillRect(0, 0, 1, 1);
          v = new Uint32Array(one.getImageData(0, 0, 1, 1).data.buffer)[0];
        }
        pixels.set(css, v);
      }
      return v;
    };
    /** SLA boxes for after the dense lines (pix). @type {{color: string, boxes: number[]}[]} */
    const shadeLater = [];
    const shade = (/** @type {string} */ color, /** @type {number[]} */ boxes) => {
      c2.fillStyle = color;
      c2.globalAlpha = SLA_ALPHA;
      for (let i = 0; i + 3 < boxes.length; i += 4) c2.fillRect(boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3]);
      c2.globalAlpha = 1;
    };
    const drawSeries = async () => {
      await nextTask();
      if (token !== this.token) return;
      let t0 = performance.now();
      let unflushed = 0;  // points stroked on c2 since it was last rasterised
      for (const meta of metas) {
        if (token !== this.token) return;
        const se = meta;
        series.push(meta);
        // The visible quanta, thinned to at most 2 points per pixel column:
        // points (adaptive steps) or row indices (fixed quanta).
        cur = se;
        vAt = valueReader(r, se);
        const wantBands = bandsShown && se.kind === 'p';
        // Dense lines read the group's rows themselves (pixelLine): thinned
        // rows only for the bands.
        /** @type {any[]} */
        const pts = adaptive ? stepPoints(r, meta, dom[0], dom[1]) : pix && !wantBands ? [] : viewRows(r, meta, dom[0] - r.quantum_ms, dom[1] + r.quantum_ms, X, f.innerW);
        const ln = adaptive ? line : rowLine;
        const bands = wantBands ? bandsOf(se, pts) : null;
        if (onCanvas) {
          const col = se.kind === 'mean' ? c.muted : groupColor(se.gi, se.pi);
          if (bands) {
            c2.fillStyle = col;
            c2.globalAlpha = 0.07;
            c2.beginPath();
            bands.sa.context(c2)(bands.pts);
            c2.fill();
            c2.globalAlpha = 0.15;
            c2.beginPath();
            bands.ar.context(c2)(bands.pts);
            c2.fill();
            c2.globalAlpha = 1;
            bands.sa.context(null);
            bands.ar.context(null);
            if (bands.open) {
              c2.strokeStyle = col;
              c2.lineWidth = 1;
              c2.globalAlpha = OPEN_ALPHA;
              c2.stroke(new Path2D(bands.open));
              c2.globalAlpha = 1;
            }
          }
          if (pix) {
            const rows = rowsOfGroup(r, se.gi);
            const [a, b] = rowSpan(r, rows, dom[0] - r.quantum_ms, dom[1] + r.quantum_ms);
            const mean = se.kind === 'mean';
            pixelLine(pix, pw, ph, { t: r.t_ms, v: mean ? r.mean : r.p, stride: mean ? 1 : nP, at: mean ? 0 : se.pi, rows, a, b, kx: kx * dpr, cx: (cx + kx * half) * dpr, ky: ky * dpr, cy: cy * dpr, log: s.yLog, color: pixelColor(col) });
          } else {
            c2.strokeStyle = col;
            // Hairlines: Chromium's software canvas strokes a 1 px line ~70x
            // faster than a 1.6 px one over thousands of points; beyond 200
            // series dashes go too (a dashed zigzag reads as a solid one).
            c2.lineWidth = 1;
            const d = metas.length > DENSE_SERIES ? '' : se.kind === 'mean' ? (coOn && co.of[se.gi]?.corrected ? '1,3' : '4,3') : dash(se.pi, se.gi);
            c2.setLineDash(d ? d.split(',').map(Number) : []);
            c2.beginPath();
            if (adaptive) {
              ln.context(c2)(pts);
              ln.context(null);
            } else traceRows(c2, pts, vAt, (i) => X(r.t_ms[i] + half), Y, s.yLog);
            c2.stroke();
            c2.setLineDash([]);
            // Rasterised in the slice that drew them, not all at the copy
            // (canvas-line.js flushCanvas); every line's read cost 3-4 ms more.
            unflushed += pts.length;
            if (unflushed > FLUSH_POINTS) {
              flushCanvas(c2);
              unflushed = 0;
            }
          }
        } else if (bands) {
          bandG
            .append('path')
            .attr('class', 'band-sampling')
            .attr('data-key', `${r.groups[se.gi]}|${r.percentiles[se.pi]}`)
            .attr('d', bands.sa(bands.pts))
            .attr('fill', groupColor(se.gi, se.pi))
            .attr('opacity', 0.07);
          bandG.append('path').attr('class', 'band-bin').attr('d', bands.ar(bands.pts)).attr('fill', groupColor(se.gi, se.pi)).attr('opacity', 0.15);
          if (bands.open) bandG
            .append('path')
            .attr('class', 'band-open')
            .attr('data-key', `${r.groups[se.gi]}|${r.percentiles[se.pi]}`)
            .attr('d', bands.open)
            .attr('fill', 'none')
            .attr('stroke', groupColor(se.gi, se.pi))
            .attr('stroke-width', 1)
            .attr('opacity', OPEN_ALPHA);
        }
        // Dashed lines are 1 px wide: Skia strokes a 1 px line as a
        // hairline, while a wider dashed one becomes an outline of every
        // dash, filled; on zigzags (8 hosts at 10 s quanta) that took
        // 100-250 ms per line to rasterise, 0.5-1 s per redraw
        // (docs/page-speed.md "Speed with many groups"). Solid lines keep
        // 1.6 px (cheap: one outline) and stand out from the dashed ones.
        const lineDash = se.kind === 'mean' ? (coOn && co.of[se.gi]?.corrected ? '1,3' : '4,3') : dash(se.pi, se.gi);
        if (!onCanvas) lineG
          .append('path')
          .attr('class', `line line-${se.kind}`)
          .attr('d', ln(pts))
          .attr('fill', 'none')
          .attr('stroke', se.kind === 'mean' ? c.muted : groupColor(se.gi, se.pi))
          .attr('stroke-width', lineDash ? 1 : se.kind === 'mean' ? 1.2 : 1.6)
          .attr('stroke-dasharray', lineDash)
          .attr('data-co', coOn ? (co.of[se.gi]?.corrected ? 'corrected' : 'uncorrected') : null)
          .attr('data-key', se.kind === 'p' ? `${r.groups[se.gi]}|${r.percentiles[se.pi]}` : `${r.groups[se.gi]}|mean`);
        // SLA: the quanta where this line breaks a rule on its percentile,
        // shaded from the threshold to the line (this line only).
        for (const rule of se.kind === 'p' ? rules.filter((x) => x.pi === se.pi || (x.max && Number(r.percentiles[se.pi]) === 100)) : []) {
          const ty = Math.max(0, Math.min(mainH, y(rule.t)));
          const vals = rule.max ? r.max : r.p;
          const stride = rule.max ? 1 : nP;
          const at = rule.max ? 0 : se.pi;
          // The line's visible quanta that break the rule: on the canvas
          // straight into one box per pixel column (shadeBoxer; no object per
          // quantum: at 1 s a rule on 200 hosts judges 720,000), as SVG
          // path pieces otherwise. As translucent SVG paths (one per
          // violating line), Chromium painted 200 hosts' shading in 190 ms
          // of every frame that touched the chart (bench-groups-chromium.mjs
          // --trace).
          const boxer = onCanvas ? shadeBoxer(X, (v) => Math.max(0, Math.min(mainH, Y(v))), ty) : null;
          /** @type {{t: number, v: number, w: number}[]} */
          const bad = [];
          let quanta = 0;
          const rows = rowsOfGroup(r, se.gi);
          const [a, b] = adaptive ? [0, rows.length] : rowSpan(r, rows, dom[0] - r.quantum_ms, dom[1] + r.quantum_ms);
          for (let k = a; k < b; k++) {
            const i = rows[k];
            const v = vals[i * stride + at];
            if (!(marks?.[i * nV + rule.k] && (!adaptive || inView(r.t_ms[i], r.width_ms[i])))) continue;
            quanta++;
            if (boxer) boxer.add(r.t_ms[i], v, rowWidth(r, i));
            else bad.push({ t: r.t_ms[i], v, w: rowWidth(r, i) });
          }
          if (!quanta) continue;
          if (boxer) {
            // Over dense lines, blended into their pixels at the end: under
            // them it would not be seen.
            if (pix) shadeLater.push({ color: groupColor(se.gi, se.pi), boxes: boxer.boxes() });
            else shade(groupColor(se.gi, se.pi), boxer.boxes());
            shadedOnCanvas.push({ key: `${r.groups[se.gi]}|${r.percentiles[se.pi]}`, rule: rule.text, quanta });
            continue;
          }
          slaShade
            .append('path')
            .attr('class', 'sla-shade')
            .attr('data-key', `${r.groups[se.gi]}|${r.percentiles[se.pi]}`)
            .attr('data-rule', rule.text)
            .attr('data-quanta', bad.length)
            .attr('d', bad.map((pt) => {
              const x0 = x(pt.t);
              const w = Math.max(1, x(pt.t + pt.w) - x0);
              const vy = Math.max(0, Math.min(mainH, y(/** @type {number} */ (pt.v))));
              return `M${x0.toFixed(1)},${ty.toFixed(1)}h${w.toFixed(1)}V${vy.toFixed(1)}h${(-w).toFixed(1)}Z`;
            }).join(''))
            .attr('fill', groupColor(se.gi, se.pi))
            .attr('opacity', SLA_ALPHA);
        }
        if (performance.now() - t0 > SLICE_MS) {
          await nextTask();
          t0 = performance.now();
        }
      }
      // A newer draw started during the last slice: it owns both canvases now.
      if (onCanvas && token === this.token) {
        c2.setTransform(1, 0, 0, 1, 0, 0);
        if (pix) {
          // The SLA boxes over the lines, blended into their pixels, held
          // column by column meanwhile (line-pixels.js).
          if (shadeLater.length) {
            let cols = this.linePixelColumns;
            if (!cols || cols.length !== pix.length) cols = this.linePixelColumns = new Uint32Array(pix.length);
            transpose(pix, pw, ph, cols);
            for (const sh of shadeLater) {
              shadePixels(cols, pw, ph, sh.boxes, dpr, pixelColor(sh.color), SLA_ALPHA);
              if (performance.now() - t0 > SLICE_MS) {
                await nextTask();
                if (token !== this.token) return;
                t0 = performance.now();
              }
            }
            transpose(cols, ph, pw, pix);
          }
          const layer = (this.pixelCanvas ??= document.createElement('canvas'));
          layer.width = pw;
          layer.height = ph;
          /** @type {CanvasRenderingContext2D} */ (layer.getContext('2d')).putImageData(new ImageData(new Uint8ClampedArray(/** @type {ArrayBuffer} */ (pix.buffer), 0, pw * ph * 4), pw, ph), 0, 0);
          c2.drawImage(layer, 0, 0);
        }
        shown.drawImage(off, 0, 0);
      }
    };

    drawSlaLines(g, rules, y, r.percentiles, mainH, f.innerW, c.bg);

    await nextTask();
    if (token !== this.token) return;

    // Samples / IOPS strip with "few samples" marks.
    drawIopsStrip(g, r, { x, mid, dom, inView, recordedOnly: coOn ? (gi) => !co.of[gi]?.corrected : null, clipId, c, w: f.innerW, mainH });
    g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${f.innerH})`).call(timeAxis(x));

    drawLegend(this, g, r, s.showMean, groupColor, dash, coOn ? { bases: co.bases, interval: s.co_interval_ms } : null, keep);
    const lines = onCanvas && metas.length > DENSE_SERIES ? metas.length : null;
    drawNotes(g, { lines, columns: this.columns, bandNote: manyGroups(r, s) ? null : bandRule.note, quantumMs: r.quantum_ms, muted: c.muted, w: f.innerW, mainH });
    if (manyGroups(r, s)) drawRest(this, g, plot, { r, keep, x: mid, y, dom, c, w: f.innerW, hidden, topN: s.topN });
    brushAndHover(this, g, x, y, mainH, r, series);
    await drawSeries();
  }

}

/** Resolves in a later task, letting input and paint in (drawing 1,200 lines yields dozens of times). */
export const nextTask = yieldToEvents;

/**
 * How long a slice of line drawing runs before it yields. Each yield may
 * let the browser run a frame (the busy spinner, the file table): with 12 ms
 * slices, 60-120 ms of a 200-host regroup's 210-270 ms of line drawing went
 * outside the drawing calls, mostly between slices (docs/page-speed.md
 * "Slices and the legend"). 30 ms keeps a slice well under the 50 ms of a
 * long task.
 */
const SLICE_MS = 30;

/**
 * Canvas points stroked between two rasterisations (canvas-line.js
 * flushCanvas): 8 hosts at 1 s (48 dashed lines of up to 1,800 points)
 * rasterise in about 6 pieces of 20-30 ms instead of one of 177-228 ms.
 */
const FLUSH_POINTS = 15000;
