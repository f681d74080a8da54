// Latency heat map: x time, y latency (log), colour = I/O count
// of the cell. Cells are painted into an offscreen canvas of quanta x rows
// pixels and stretched onto the plot: the engine's rows are log-spaced, so
// they are evenly spaced on the log y axis and one drawImage places them all.
import * as d3 from 'd3';
import { Frame, themeColors, axisLabel } from './frame.js';
import { timeScale, timeAxis, formatTime } from './time-axis.js';
import { paletteLut, countNormalizer, formatLatency, unitScale } from './scales.js';
import { showTip, hideTip } from './pctiles-view.js';
import { cellAt } from './heatmap-data.js';
import { percentileName } from '../app/options.js';
import { formatBytes } from '../app/methods.js';

/** Axis titles of rows by bytes (per-I/O logs): HeatmapResult::y. @type {Record<string, string>} */
const Y_TITLE = { bs: 'block size', offset: 'offset' };

export class HeatmapView {
  /**
   * @param {HTMLElement} host
   * @param {{store: import('../app/state.js').Store, extent: () => [number, number] | null, onRange: (r: [number, number] | null) => void, onYZoom: (r: [number, number] | null) => void}} ctx
   */
  constructor(host, ctx) {
    this.ctx = ctx;
    this.frame = new Frame(host, { canvas: true, margin: { top: 14, right: 96, bottom: 34, left: 72 } });
    /** @type {any} */
    this.hm = null;
    /** @type {any} */
    this.lines = null;
  }

  /** Rows to ask the engine for: about one per 4 px of plot height. */
  wantedRows() {
    return Math.max(32, Math.min(240, Math.round(this.frame.innerH / 4)));
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
    if (!hm || !hm.quanta || !hm.rows) return f.message(hm ? 'No data for this selection' : 'Load fio histogram logs to begin');
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
      const ax = d3.axisLeft(yNs).tickFormat((t) => formatLatency(Number(t)));
      const decades = Math.log10(hi / lo);
      ax.tickValues(/** @type {any} */ (yNs).ticks().filter((/** @type {number} */ t) => {
        const m = t / Math.pow(10, Math.floor(Math.log10(t) + 1e-9));
        return decades > 2.5 ? Math.abs(m - 1) < 1e-6 : [1, 2, 5].some((k) => Math.abs(m - k) < 1e-6);
      }));
      g.append('g').attr('class', 'axis y-axis').call(ax);
      axisLabel(g, 'latency', -58, f.innerH / 2, -90);
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
    if (yKind === 'latency' && s.heatLines && this.lines && this.lines.rows.length) {
      const r = this.lines;
      const k = unitScale(r.unit);
      const pg = g.append('g').attr('class', 'pct-lines').attr('clip-path', `url(#${clipId})`);
      /** @type {number[]} */
      const labelYs = [];
      r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => {
        const pts = r.rows.filter((/** @type {any} */ row) => row.p[pi] != null && row.p[pi] * k >= lo && row.p[pi] * k <= hi);
        const line = d3
          .line()
          .defined((/** @type {any} */ row) => row.p[pi] != null)
          .x((/** @type {any} */ row) => x(row.t_ms + r.quantum_ms / 2))
          .y((/** @type {any} */ row) => yNs(Math.min(hi, Math.max(lo, row.p[pi] * k))));
        const d = line(r.rows);
        pg.append('path').attr('d', d).attr('fill', 'none').attr('stroke', '#000').attr('stroke-opacity', 0.5).attr('stroke-width', 3);
        pg.append('path').attr('d', d).attr('fill', 'none').attr('stroke', '#fff').attr('stroke-width', 1.2).attr('stroke-dasharray', pi % 2 ? '4,2' : '');
        const last = pts[pts.length - 1];
        const ly = last ? yNs(last.p[pi] * k) - 3 : 0;
        // Labels closer than a line height to another one would overprint.
        if (last && labelYs.every((o) => Math.abs(o - ly) > 11)) {
          labelYs.push(ly);
          pg.append('text')
            .attr('x', Math.min(f.innerW - 2, x(last.t_ms + r.quantum_ms / 2)))
            .attr('y', yNs(last.p[pi] * k) - 3)
            .attr('text-anchor', 'end')
            .attr('fill', '#fff')
            .attr('stroke', '#000')
            .attr('stroke-width', 2.5)
            .attr('paint-order', 'stroke')
            .text(percentileName(p));
        }
      });
    }
    this.legend(g, hm, s, c);
    if (hm.above > 0 || hm.below > 0) {
      g.append('text')
        .attr('class', 'outside-note')
        .attr('x', f.innerW)
        .attr('y', -2)
        .attr('text-anchor', 'end')
        .attr('fill', c.muted)
        .text(`${d3.format(',.0f')(hm.above)} samples above, ${d3.format(',.0f')(hm.below)} below the shown range`);
    }
    this.interact(g, x, yNs, hm, yKind);
  }

  /** Paints the cells of the visible time range onto the canvas. */
  paint(/** @type {any} */ hm, /** @type {[number, number]} */ dom, /** @type {any} */ s) {
    const f = this.frame;
    const canvas = /** @type {HTMLCanvasElement} */ (f.canvas);
    const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const off = document.createElement('canvas');
    off.width = hm.quanta;
    off.height = hm.rows;
    const octx = /** @type {CanvasRenderingContext2D} */ (off.getContext('2d'));
    const img = octx.createImageData(hm.quanta, hm.rows);
    const lut = paletteLut(s.palette);
    const norm = countNormalizer(s.colorMode, hm.counts);
    for (let q = 0; q < hm.quanta; q++) {
      for (let r = 0; r < hm.rows; r++) {
        const v = norm(hm.counts[q * hm.rows + r]);
        if (v < 0) continue;
        const li = Math.min(255, Math.round(v * 255)) * 4;
        // Row 0 is the lowest latency: bottom of the image.
        const o = ((hm.rows - 1 - r) * hm.quanta + q) * 4;
        img.data[o] = lut[li];
        img.data[o + 1] = lut[li + 1];
        img.data[o + 2] = lut[li + 2];
        img.data[o + 3] = 255;
      }
    }
    octx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    // Source rectangle of the visible time range, in quanta.
    const sx = (dom[0] - hm.t0_ms) / hm.quantum_ms;
    const sw = (dom[1] - dom[0]) / hm.quantum_ms;
    const dx0 = sx < 0 ? (-sx / sw) * canvas.width : 0;
    const cx0 = Math.max(0, sx);
    const cx1 = Math.min(hm.quanta, sx + sw);
    if (cx1 > cx0) {
      const dw = ((cx1 - cx0) / sw) * canvas.width;
      ctx.drawImage(off, cx0, 0, cx1 - cx0, hm.rows, dx0, 0, dw, canvas.height);
    }
  }

  /** Colour legend on the right. */
  legend(/** @type {any} */ g, /** @type {any} */ hm, /** @type {any} */ s, /** @type {any} */ c) {
    const f = this.frame;
    const h = Math.min(200, f.innerH);
    const lg = g.append('g').attr('class', 'legend').attr('transform', `translate(${f.innerW + 14},0)`);
    const lut = paletteLut(s.palette);
    const steps = 64;
    for (let i = 0; i < steps; i++) {
      const li = Math.round((i / (steps - 1)) * 255) * 4;
      lg.append('rect')
        .attr('x', 0)
        .attr('y', h - ((i + 1) * h) / steps)
        .attr('width', 12)
        .attr('height', h / steps + 0.5)
        .attr('fill', `rgb(${lut[li]},${lut[li + 1]},${lut[li + 2]})`);
    }
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
              [1, d3.format(',.0f')(max)],
            ]
          : [
              [0, '0'],
              [0.5, d3.format(',.0f')(max / 2)],
              [1, d3.format(',.0f')(max)],
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
    const brush = d3
      .brush()
      .extent([
        [0, 0],
        [f.innerW, f.innerH],
      ])
      .on('end', (ev) => {
        if (!ev.selection) return;
        const [[x0, y0], [x1, y1]] = ev.selection;
        g.select('.brush').call(brush.move, null);
        const tx = [x.invert(x0), x.invert(x1)];
        const ty = [yNs.invert(y1), yNs.invert(y0)];
        const wide = x1 - x0 > 6;
        const tall = y1 - y0 > 6;
        if (yKind === 'latency' && tall && ty[1] / ty[0] > 1.05) this.ctx.onYZoom(/** @type {[number, number]} */ (ty));
        if (wide && tx[1] - tx[0] >= hm.quantum_ms / 4) this.ctx.onRange(/** @type {[number, number]} */ (tx));
      });
    const bg = g.append('g').attr('class', 'brush').call(brush);
    bg.on('dblclick', () => {
      this.ctx.onRange(null);
      this.ctx.onYZoom(null);
    });
    bg.on('mousemove', (/** @type {MouseEvent} */ ev) => {
      const [px, py] = d3.pointer(ev);
      const cell = cellAt(hm, x.invert(px), yNs.invert(py));
      if (!cell) return hideTip(f.wrap);
      showTip(f.wrap, ev, [
        `${formatTime(cell.t0, hm.absolute_time)} … ${formatTime(cell.t1, hm.absolute_time)}`,
        yKind === 'latency' ? `latency ${formatLatency(cell.lo)} … ${formatLatency(cell.hi)}` : `${Y_TITLE[yKind]} ${formatBytes(cell.lo)} … ${formatBytes(cell.hi)}`,
        `count ${d3.format(',.1f')(cell.count)} (${d3.format('.2%')(cell.share)} of column)`,
        `${d3.format(',.1f')(cell.iops)} IOPS in this cell`,
      ]);
    });
    bg.on('mouseleave', () => hideTip(f.wrap));
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
