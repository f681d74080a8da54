// Latency heat map: x time, y latency (log), colour = I/O count
// of the cell. Cells are painted into an offscreen canvas of quanta x rows
// pixels and stretched onto the plot: the engine's rows are log-spaced, so
// they are evenly spaced on the log y axis and one drawImage places them all.
import * as d3 from 'd3';
import { Frame, themeColors, axisLabel, nsLogAxis } from './frame.js';
import { timeScale, timeAxis } from './time-axis.js';
import { paletteLut, countNormalizer, dodgeLabels } from './scales.js';
import { cellAt, cellTipLines, rowRates } from './heatmap-data.js';
import { formatTime, formatNumber, formatBytes, formatCount, formatQuantum } from '../util/format.js';
import { unitScale, unitLabel } from '../model/units.js';
import { percentileName } from '../model/percentiles.js';
import { showTip, hideTip } from './tooltip.js';
import { cellBrush } from './brush.js';
import { cellImage, drawColumns, rampLegend, outsideNote } from './palette-ramp.js';

/** Axis titles of rows by bytes (per-I/O logs): HeatmapResult::y. @type {Record<string, string>} */
const Y_TITLE = { bs: 'block size', offset: 'offset' };

/**
 * Latency rows asked of the engine: a fixed number, never one per so many
 * pixels. The cells' counts, and so the colour scale's maximum, depend on
 * the rows; rows that followed the plot's height (one per 4 px) made the
 * same files give another scale in a report, a shared link or under a
 * notes bar (469 vs 317 I/Os per cell on the demo). docs/page-views.md,
 * "One colour scale".
 */
export const HEAT_ROWS = 160;

/** The row panel's width (px) and its gap to the plot: between the plot and the colour legend. */
const PANEL_W = 72;
const PANEL_GAP = 10;

export class HeatmapView {
  /**
   * @param {HTMLElement} host
   * @param {{store: import('./view.js').ViewStore, extent: () => [number, number] | null, emptyText?: () => string, onRange: (r: [number, number] | null) => void, onYZoom: (r: [number, number] | null) => void}} ctx
   */
  constructor(host, ctx) {
    this.ctx = ctx;
    this.frame = new Frame(host, { canvas: true, margin: { top: 14, right: 96 + PANEL_GAP + PANEL_W, bottom: 34, left: 72 } });
    /** @type {any} */
    this.hm = null;
    /** @type {any} */
    this.lines = null;
  }

  /** Rows to ask the engine for (HEAT_ROWS, whatever the plot's size). */
  wantedRows() {
    return HEAT_ROWS;
  }

  /** @param {any} hm engine.heatmap() result @param {any} lines cluster query result (for percentile lines) */
  setData(hm, lines) {
    this.hm = hm;
    this.lines = lines;
    this.render();
  }

  render() {
    const f = this.frame;
    const s = this.ctx.store.state;
    const hm = this.hm;
    if (!hm || !hm.quanta || !hm.rows) return f.message(this.ctx.emptyText?.() || (hm ? 'No data for this selection' : 'Load fio histogram logs to begin'));
    const g = f.clear();
    const c = themeColors();
    const dom = s.range || this.ctx.extent() || [hm.t0_ms, hm.t0_ms + hm.quanta * hm.quantum_ms];
    const x = timeScale(hm.absolute_time, dom, [0, f.innerW]);
    // Rows by block size (powers of two: a log2 axis) or offset (equal
    // ranges from 0: linear) hold bytes; latency rows are log-spaced ns.
    /** @type {'latency'|'bs'|'offset'} */
    const yKind = hm.y === 'bs' || hm.y === 'offset' ? hm.y : 'latency';
    const lo = yKind === 'offset' ? hm.edges_ns[0] : Math.max(1e-9, hm.edges_ns[0]);
    const hi = hm.edges_ns[hm.rows];
    const yNs = yKind === 'offset' ? d3.scaleLinear().domain([lo, hi]).range([f.innerH, 0]) : d3.scaleLog().base(yKind === 'bs' ? 2 : 10).domain([lo, hi]).range([f.innerH, 0]);

    this.paint(hm, dom, s);

    if (yKind === 'latency') {
      // Rows are in ns; ticks are round numbers of the chosen unit (frame.js nsLogAxis).
      g.append('g').attr('class', 'axis y-axis').call(nsLogAxis(yNs, lo, hi, f.innerH, s.unit));
      axisLabel(g, `latency (${unitLabel(s.unit)})`, -58, f.innerH / 2, -90);
    } else {
      // A block-size row [2^k, 2^(k+1)) is labelled at its middle by its size
      // (fio's sizes are powers of two: one size per row); offsets at round values.
      const ticks = byteTicks(yKind, hm.edges_ns, f.innerH);
      const mid = yKind === 'bs' && ticks.length === hm.rows + 1;
      const at = mid ? ticks.slice(0, -1).map((e) => Math.SQRT2 * e) : ticks;
      const ax = d3.axisLeft(yNs).tickValues(at).tickFormat((t) => formatBytes(mid ? Number(t) / Math.SQRT2 : Number(t)));
      g.append('g').attr('class', 'axis y-axis').call(ax);
      axisLabel(g, yKind === 'bs' ? 'block size (bytes)' : 'offset (bytes)', -58, f.innerH / 2, -90);
    }
    g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${f.innerH})`).call(timeAxis(x));

    const clipId = `clip-h-${Math.random().toString(36).slice(2)}`;
    f.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', f.innerW).attr('height', f.innerH);
    if (yKind === 'latency' && s.heatLines && this.lines && this.lines.rows.length) this.percentileLines(g, clipId, x, yNs, dom);
    this.rowPanel(g, hm, dom, yNs, yKind, c);
    this.legend(g, hm, s, c);
    outsideNote(g, hm, f.innerW, c.muted, 'samples ');
    this.interact(g, x, yNs, hm, yKind);
  }

  /**
   * The cluster's percentiles over the cells. Lines are clipped to the plot
   * (a value beyond the latency range leaves the plot instead of running
   * along its edge, where it would read as data). Each line is labelled at
   * its last point in view; a line wholly above or below the shown range
   * gets its label at that edge with an arrow; labels are moved apart so
   * none overprints another.
   * @param {any} g @param {string} clipId @param {any} x @param {any} yNs @param {[number, number]} dom
   */
  percentileLines(g, clipId, x, yNs, dom) {
    const f = this.frame;
    const r = this.lines;
    const k = unitScale(r.unit);
    const [lo, hi] = yNs.domain();
    const pg = g.append('g').attr('class', 'pct-lines').attr('clip-path', `url(#${clipId})`);
    const inTime = (/** @type {any} */ row) => row.t_ms + r.quantum_ms > dom[0] && row.t_ms < dom[1];
    /** @type {{text: string, x: number, y: number, edge: string}[]} */
    const labels = [];
    r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => {
      const line = d3
        .line()
        .defined((/** @type {any} */ row) => row.p[pi] != null && row.p[pi] > 0)
        .x((/** @type {any} */ row) => x(row.t_ms + r.quantum_ms / 2))
        .y((/** @type {any} */ row) => yNs(row.p[pi] * k));
      const d = line(r.rows);
      pg.append('path').attr('class', 'pct-line-halo').attr('d', d).attr('fill', 'none').attr('stroke', '#000').attr('stroke-opacity', 0.5).attr('stroke-width', 3);
      pg.append('path').attr('class', 'pct-line').attr('data-p', p).attr('d', d).attr('fill', 'none').attr('stroke', '#fff').attr('stroke-width', 1.2).attr('stroke-dasharray', pi % 2 ? '4,2' : '');
      const shown = r.rows.filter((/** @type {any} */ row) => inTime(row) && row.p[pi] != null && row.p[pi] > 0);
      if (!shown.length) return;
      const inside = shown.filter((/** @type {any} */ row) => row.p[pi] * k >= lo && row.p[pi] * k <= hi);
      const name = percentileName(p);
      if (inside.length) {
        const last = inside[inside.length - 1];
        labels.push({ text: name, x: Math.min(f.innerW - 2, x(last.t_ms + r.quantum_ms / 2)), y: yNs(last.p[pi] * k) - 3, edge: '' });
      } else {
        const above = shown[shown.length - 1].p[pi] * k > hi;
        labels.push({ text: `${name} ${above ? '▲' : '▼'}`, x: f.innerW - 2, y: above ? 10 : f.innerH - 3, edge: above ? 'above' : 'below' });
      }
    });
    const ys = dodgeLabels(labels.map((l) => l.y), 14, 10, f.innerH - 3);
    const lg = g.append('g').attr('class', 'pct-labels');
    labels.forEach((l, i) => {
      lg.append('text')
        .attr('class', 'pct-label')
        .attr('data-edge', l.edge || null)
        .attr('x', l.x)
        .attr('y', ys[i])
        .attr('text-anchor', 'end')
        .attr('fill', '#fff')
        .attr('stroke', '#000')
        .attr('stroke-width', 2.5)
        .attr('paint-order', 'stroke')
        .text(l.text);
    });
  }

  /** Paints the cells of the visible time range onto the canvas. */
  paint(/** @type {any} */ hm, /** @type {[number, number]} */ dom, /** @type {any} */ s) {
    const canvas = /** @type {HTMLCanvasElement} */ (this.frame.canvas);
    const norm = countNormalizer(s.colorMode, hm.counts);
    const image = cellImage(hm.quanta, hm.rows, paletteLut(s.palette), (q, r) => norm(hm.counts[q * hm.rows + r]));
    drawColumns(canvas, image, (dom[0] - hm.t0_ms) / hm.quantum_ms, (dom[1] - dom[0]) / hm.quantum_ms, canvas.height);
  }

  /**
   * The row panel right of the plot (docs/page-views.md, "Heat-map row
   * panel"): a bar per row, as long as the row's average IOPS over the
   * visible time (heatmap-data.js rowRates), on a linear axis from 0, and
   * the range's average IOPS (all rows) above it. The colours say where
   * I/Os cluster; the bars say how many, whatever the palette or colour
   * scale (a false-colour map ranks cells, the bars keep the magnitudes).
   * @param {any} g @param {any} hm @param {[number, number]} dom @param {any} yNs
   * @param {'latency'|'bs'|'offset'} yKind @param {any} c
   */
  rowPanel(g, hm, dom, yNs, yKind, c) {
    const f = this.frame;
    const rr = rowRates(hm, dom);
    /** The panel's numbers, for tests and the tooltip. */
    this.panel = rr;
    const pg = g.append('g').attr('class', 'row-panel').attr('data-testid', 'heat-row-panel').attr('data-total', rr.total).attr('transform', `translate(${f.innerW + PANEL_GAP},0)`);
    let max = 0;
    for (const v of rr.rates) if (v > max) max = v;
    const xs = d3.scaleLinear().domain([0, max > 0 ? max : 1]).range([0, PANEL_W]);
    pg.append('rect').attr('width', PANEL_W).attr('height', f.innerH).attr('fill', 'none').attr('stroke', c.grid);
    const ku = unitScale(this.ctx.store.state.unit);
    const rowText = (/** @type {number} */ r) =>
      yKind === 'latency'
        ? `latency ${formatNumber(hm.edges_ns[r] / ku)} … ${formatNumber(hm.edges_ns[r + 1] / ku)} ${unitLabel(this.ctx.store.state.unit)}`
        : `${Y_TITLE[yKind]} ${formatBytes(hm.edges_ns[r])} … ${formatBytes(hm.edges_ns[r + 1])}`;
    for (let r = 0; r < hm.rows; r++) {
      const v = rr.rates[r];
      if (!(v > 0)) continue;
      const y0 = yNs(hm.edges_ns[r + 1]);
      const y1 = yNs(hm.edges_ns[r]);
      pg.append('rect')
        .attr('class', 'row-bar')
        .attr('data-row', r)
        .attr('data-iops', v)
        .attr('x', 0)
        .attr('y', y0)
        .attr('width', Math.max(0.5, xs(v)))
        .attr('height', Math.max(0.5, y1 - y0))
        .attr('fill', c.fg)
        .attr('fill-opacity', 0.55)
        .on('mousemove', (/** @type {MouseEvent} */ ev) =>
          showTip(f.wrap, ev, [rowText(r), `${formatNumber(v)} IOPS on average over the ${formatQuantum(rr.seconds * 1000)} shown (${formatNumber((100 * v) / rr.total)}% of its I/Os)`]),
        )
        .on('mouseleave', () => hideTip(f.wrap));
    }
    // Its axis: 0 and the largest row's rate, under the plot's time axis line.
    pg.append('g')
      .attr('class', 'axis row-panel-axis')
      .attr('transform', `translate(0,${f.innerH})`)
      .call(d3.axisBottom(xs).tickValues(max > 0 ? [0, max] : [0]).tickFormat((t) => formatNumber(Number(t))).tickSizeOuter(0));
    pg.append('text').attr('class', 'row-panel-title').attr('x', 0).attr('y', -3).attr('fill', c.muted).text('IOPS per row');
    pg.append('text')
      .attr('class', 'row-panel-total')
      .attr('data-testid', 'heat-row-total')
      .attr('x', 0)
      .attr('y', f.innerH + 30)
      .attr('fill', c.muted)
      .text(`avg ${formatNumber(rr.total)} IOPS`)
      .append('title')
      .text(`all rows: ${formatNumber(rr.total)} I/Os per second on average over the ${formatQuantum(rr.seconds * 1000)} shown`);
  }

  /** Colour legend on the right. */
  legend(/** @type {any} */ g, /** @type {any} */ hm, /** @type {any} */ s, /** @type {any} */ c) {
    const f = this.frame;
    const h = Math.min(200, f.innerH);
    const lg = g.append('g').attr('class', 'legend').attr('transform', `translate(${f.innerW + PANEL_GAP + PANEL_W + 14},0)`);
    rampLegend(lg, paletteLut(s.palette), h);
    let max = 0;
    for (let i = 0; i < hm.counts.length; i++) if (hm.counts[i] > max) max = hm.counts[i];
    const labels =
      s.colorMode === 'false'
        ? [
            [0, 'rare'],
            [1, 'common'],
          ]
        : s.colorMode === 'log'
          ? [
              [0, 'few'],
              [1, formatCount(max)],
            ]
          : [
              [0, '0'],
              [0.5, formatCount(max / 2)],
              [1, formatCount(max)],
            ];
    for (const [v, t] of labels) {
      lg.append('text').attr('x', 16).attr('y', h - Number(v) * h + 4).attr('fill', 'currentColor').text(String(t));
    }
    lg.append('text').attr('x', 0).attr('y', h + 16).attr('fill', c.muted).text(`I/Os per cell`);
    lg.append('text').attr('x', 0).attr('y', h + 30).attr('fill', c.muted).text(`(${s.colorMode === 'false' ? 'false colour' : s.colorMode})`);
  }

  /** 2-D brush: x sets the shared time range, y zooms latency. Hover tooltip. */
  interact(/** @type {any} */ g, /** @type {any} */ x, /** @type {any} */ yNs, /** @type {any} */ hm, /** @type {'latency'|'bs'|'offset'} */ yKind) {
    const f = this.frame;
    cellBrush(g, f, d3.brush(), {
      box: ([[x0, y0], [x1, y1]]) => {
        const tx = [x.invert(x0), x.invert(x1)];
        const ty = [yNs.invert(y1), yNs.invert(y0)];
        const wide = x1 - x0 > 6;
        const tall = y1 - y0 > 6;
        if (yKind === 'latency' && tall && ty[1] / ty[0] > 1.05) this.ctx.onYZoom(/** @type {[number, number]} */ (ty));
        if (wide && tx[1] - tx[0] >= hm.quantum_ms / 4) this.ctx.onRange(/** @type {[number, number]} */ (tx));
      },
      reset: () => {
        this.ctx.onRange(null);
        this.ctx.onYZoom(null);
      },
      tip: ([px, py]) => {
        const cell = cellAt(hm, x.invert(px), yNs.invert(py));
        if (!cell) return null;
        const ku = unitScale(this.ctx.store.state.unit);
        return cellTipLines(cell, yKind === 'latency' ? `latency ${formatNumber(cell.lo / ku)} … ${formatNumber(cell.hi / ku)} ${unitLabel(this.ctx.store.state.unit)}` : `${Y_TITLE[yKind]} ${formatBytes(cell.lo)} … ${formatBytes(cell.hi)}`, `${formatTime(cell.t0, hm.absolute_time)} … ${formatTime(cell.t1, hm.absolute_time)}`);
      },
    });
  }
}

/**
 * Ticks of a bytes axis: for block sizes the row edges (powers of two),
 * thinned to about one per 24 px; for offsets ~6 round binary values.
 * @param {'bs'|'offset'} kind @param {number[]} edges @param {number} h plot height px
 * @returns {number[]}
 */
export function byteTicks(kind, edges, h) {
  const lo = edges[0];
  const hi = edges[edges.length - 1];
  if (kind === 'bs') {
    const step = Math.max(1, Math.ceil(edges.length / Math.max(1, Math.floor(h / 24))));
    return edges.filter((_, i) => i % step === 0);
  }
  // A step of 2^k bytes (or 3·2^k... kept simple: 2^k) giving 4..8 ticks.
  let step = Math.pow(2, Math.max(0, Math.floor(Math.log2(Math.max(1, (hi - lo) / 6)))));
  while ((hi - lo) / step > 8) step *= 2;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) out.push(t);
  return out;
}
