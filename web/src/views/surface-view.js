// Percentile surface: x time, y percentile on a tail-expanding
// axis (-log10(1-p): 50, 90, 99, 99.9, 99.99 equally spaced), colour =
// latency. The levels come from the engine evenly spaced on that axis, so
// the surface is a quanta x levels image stretched onto the plot. A slider
// picks one percentile: a line on the surface and its curve underneath.
import * as d3 from 'd3';
import { timeBrush } from './brush.js';
import { Frame, themeColors, latencyScale, latencyAxis, drawYGrid, axisLabel } from './frame.js';
import { timeScale, timeAxis } from './time-axis.js';
import { paletteLut, tailCoord, tailTicks, logTicks } from './scales.js';
import { cellImage, drawColumns, rampLegend } from './palette-ramp.js';
import { surfaceGrid, nearestLevel, gridRange } from './surface-data.js';
import { runsOf } from './pctiles-data.js';
import { formatTime, formatNumber } from '../util/format.js';
import { unitLabel } from '../model/units.js';
import { showTip, hideTip } from './tooltip.js';

const LINE_H = 110;
const GAP = 30;

export class SurfaceView {
  /**
   * @param {HTMLElement} host
   * @param {{store: import('./view.js').ViewStore, extent: () => [number, number] | null, emptyText?: () => string, onRange: (r: [number, number] | null) => void}} ctx
   */
  constructor(host, ctx) {
    this.ctx = ctx;
    this.frame = new Frame(host, { canvas: true, margin: { top: 14, right: 110, bottom: 34, left: 72 } });
    /** @type {any} */
    this.data = null;
    this.grid = null;
  }

  /** @param {any} result engine.query() with tail-spaced percentiles */
  setData(result) {
    this.data = result;
    this.grid = result && result.rows.length ? surfaceGrid(result) : null;
    this.render();
  }

  render() {
    const f = this.frame;
    const s = this.ctx.store.state;
    const r = this.data;
    const grid = this.grid;
    if (!r || !grid) return f.message(this.ctx.emptyText?.() || (r ? 'No data for this selection' : 'Load fio histogram logs to begin'));
    // The surface uses the top part of the canvas area; the line chart below.
    const surfH = f.innerH - LINE_H - GAP;
    const g = f.clear();
    const c = themeColors();
    const dom = s.range || this.ctx.extent() || [grid.t0, grid.t0 + grid.quanta * r.quantum_ms];
    const x = timeScale(r.absolute_time, dom, [0, f.innerW]);
    const ps = r.percentiles.map(Number);
    const u = ps.map(tailCoord);
    const du = u.length > 1 ? (u[u.length - 1] - u[0]) / (u.length - 1) : 1;
    const yU = d3.scaleLinear().domain([u[0] - du / 2, u[u.length - 1] + du / 2]).range([surfH, 0]);

    // Colours span the values of the quanta in view (the whole run's range
    // would wash out a zoomed stretch).
    const q0 = Math.floor((dom[0] - grid.t0) / r.quantum_ms);
    const q1 = Math.ceil((dom[1] - grid.t0) / r.quantum_ms);
    const [vlo, vhi] = gridRange(grid, q0, q1) || [grid.lo, grid.hi];
    this.paint(grid, r, dom, surfH, s.palette, vlo, vhi);
    this.fewMarks(g, grid, r, x, yU, u, du);

    const ticks = tailTicks(ps[0], ps[ps.length - 1]);
    g.append('g')
      .attr('class', 'axis y-axis')
      .call(d3.axisLeft(yU).tickValues(ticks.map(tailCoord)).tickFormat((_, i) => `p${ticks[i]}`));
    axisLabel(g, 'percentile', -58, surfH / 2, -90);

    // Colour legend: latency, log scale.
    const lg = g.append('g').attr('class', 'legend').attr('transform', `translate(${f.innerW + 14},0)`);
    const lh = Math.min(surfH, 220);
    rampLegend(lg, paletteLut(s.palette), lh);
    // Values are in the result's unit; ticks are round numbers of it.
    const cl = d3.scaleLog().domain([vlo, vhi]).range([lh, 0]);
    lg.append('g').attr('class', 'axis legend-axis').attr('transform', 'translate(12,0)').call(d3.axisRight(cl).tickValues(logTicks(vlo, vhi, lh)).tickFormat((t) => formatNumber(Number(t))));
    lg.append('text').attr('y', lh + 16).attr('fill', c.muted).text(`latency (${unitLabel(r.unit)})`);
    if (grid.few.some((row) => row.some(Boolean))) {
      const fl = lg.append('g').attr('class', 'few-legend').attr('transform', `translate(0,${lh + 26})`);
      fl.append('rect').attr('width', 12).attr('height', 12).attr('fill', c.muted);
      fl.append('rect').attr('width', 12).attr('height', 12).attr('fill', `url(#${this.hatchId})`).attr('stroke', c.muted);
      fl.append('text').attr('x', 16).attr('y', 10).attr('fill', c.muted).text('too few I/Os');
    }

    // The slider's percentile: a line on the surface and its curve below.
    const lvl = nearestLevel(ps, s.surfaceP);
    const py = yU(u[lvl]);
    g.append('line').attr('class', 'pick-line').attr('x1', 0).attr('x2', f.innerW).attr('y1', py).attr('y2', py).attr('stroke', '#fff').attr('stroke-width', 1.5).attr('stroke-dasharray', '6,3');
    g.append('text').attr('x', 4).attr('y', py < 16 ? py + 13 : py - 4).attr('fill', '#fff').attr('stroke', '#000').attr('stroke-width', 2.5).attr('paint-order', 'stroke').text(`p${r.percentiles[lvl]}`);

    const lgY = surfH + GAP;
    const lgG = g.append('g').attr('class', 'pick-chart').attr('transform', `translate(0,${lgY})`);
    const pts = grid.values[lvl].map((v, q) => ({ t: grid.t0 + q * r.quantum_ms, v }));
    const vis = pts.filter((p) => p.v != null && p.t + r.quantum_ms > dom[0] && p.t < dom[1]);
    const y = latencyScale(s.yLog, [d3.min(vis, (p) => p.v) || 1, d3.max(vis, (p) => p.v) || 1], [LINE_H, 0]);
    drawYGrid(lgG, y, f.innerW, latencyAxis(y, 4));
    axisLabel(lgG, `p${r.percentiles[lvl]} (${unitLabel(r.unit)})`, -58, LINE_H / 2, -90);
    const clipId = `clip-s-${Math.random().toString(36).slice(2)}`;
    f.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', f.innerW).attr('height', LINE_H);
    lgG.append('path')
      .attr('clip-path', `url(#${clipId})`)
      .attr('d', d3.line().defined((/** @type {any} */ p) => p.v != null && (!s.yLog || p.v > 0)).x((/** @type {any} */ p) => x(p.t + r.quantum_ms / 2)).y((/** @type {any} */ p) => y(p.v))(/** @type {any} */ (pts)))
      .attr('fill', 'none')
      .attr('stroke', c.warn)
      .attr('stroke-width', 1.6);
    g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${f.innerH})`).call(timeAxis(x));

    // Brush + hover on the surface.
    const bg = timeBrush(g, x.invert, f.innerW, surfH, r.quantum_ms, this.ctx.onRange);
    bg.on('mousemove', (/** @type {MouseEvent} */ ev) => {
      const [px, pyy] = d3.pointer(ev);
      const q = Math.floor((x.invert(px) - grid.t0) / r.quantum_ms);
      const li = nearestLevel(u, yU.invert(pyy));
      const v = q >= 0 && q < grid.quanta ? grid.values[li][q] : null;
      if (v == null) return hideTip(f.wrap);
      showTip(f.wrap, ev, [
        `${formatTime(grid.t0 + q * r.quantum_ms, r.absolute_time)} … +${r.quantum_ms} ms`,
        `p${r.percentiles[li]} = ${formatNumber(v)} ${unitLabel(r.unit)}`,
        ...(grid.few[li][q] ? ['too few I/Os in this quantum for this percentile: the value is (near) its slowest I/O'] : []),
      ]);
    });
    bg.on('mouseleave', () => hideTip(f.wrap));
  }

  /**
   * Hatches the cells whose quantum holds too few I/Os for the level's
   * percentile (surface-data.js few), one rectangle per run of quanta.
   * @param {any} g @param {any} grid @param {any} r @param {any} x @param {any} yU @param {number[]} u @param {number} du
   */
  fewMarks(g, grid, r, x, yU, u, du) {
    const f = this.frame;
    this.hatchId = `hatch-${Math.random().toString(36).slice(2)}`;
    const pat = f.svg.append('defs').append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse').attr('width', 6).attr('height', 6);
    pat.append('path').attr('d', 'M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2').attr('stroke', '#fff').attr('stroke-opacity', 0.75).attr('stroke-width', 1.2);
    const clipId = `clip-sf-${Math.random().toString(36).slice(2)}`;
    f.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', f.innerW).attr('height', yU.range()[0]);
    const mg = g.append('g').attr('class', 'few-cells').attr('clip-path', `url(#${clipId})`);
    grid.few.forEach((/** @type {boolean[]} */ row, /** @type {number} */ l) => {
      const ts = [];
      for (let q = 0; q < row.length; q++) if (row[q]) ts.push(grid.t0 + q * r.quantum_ms);
      for (const [a, b] of runsOf(ts, r.quantum_ms)) {
        mg.append('rect')
          .attr('data-level', r.percentiles[l])
          .attr('x', x(a))
          .attr('width', Math.max(1, x(b) - x(a)))
          .attr('y', yU(u[l] + du / 2))
          .attr('height', Math.max(1, yU(u[l] - du / 2) - yU(u[l] + du / 2)))
          .attr('fill', `url(#${this.hatchId})`);
      }
    });
  }

  /**
   * @param {any} grid @param {any} r @param {[number, number]} dom @param {number} surfH @param {string} palette
   * @param {number} vlo @param {number} vhi values at the two ends of the palette
   */
  paint(grid, r, dom, surfH, palette, vlo, vhi) {
    const f = this.frame;
    const canvas = /** @type {HTMLCanvasElement} */ (f.canvas);
    const llo = Math.log(vlo);
    const span = Math.log(vhi) - llo || 1;
    const level = (/** @type {number} */ q, /** @type {number} */ l) => {
      const v = grid.values[l][q];
      return v == null || !(v > 0) ? -1 : Math.max(0, (Math.log(v) - llo) / span);
    };
    const image = cellImage(grid.quanta, grid.values.length, paletteLut(palette), level);
    drawColumns(canvas, image, (dom[0] - grid.t0) / r.quantum_ms, (dom[1] - dom[0]) / r.quantum_ms, surfH * (canvas.height / f.innerH));
  }
}
