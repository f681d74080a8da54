// Host density (docs/page-views.md, "Host density"): x time, y a group's
// percentile on the heat map's log-latency rows, colour = how many groups
// (hosts by default) sit in the cell. A tight band is a balanced cluster; a
// lone cell above it is the slow host. Hover names the cell, a click lists
// its groups with their values, asked of core for that cell alone. The
// counts are core's (engine heatmap with density_by); this file draws.
import * as d3 from 'd3';
import { Frame, themeColors, axisLabel, nsLogAxis } from './frame.js';
import { timeScale, timeAxis } from './time-axis.js';
import { paletteLut } from './scales.js';
import { cellAt } from './heatmap-data.js';
import { densityNormalizer, maxCount, densityTipLines, memberLines, cellRangeText, groupsWord, countText } from './density-data.js';
import { formatCount, formatTime } from '../util/format.js';
import { unitLabel } from '../model/units.js';
import { percentileName } from '../model/percentiles.js';
import { cellBrush } from './brush.js';
import { cellImage, drawColumns, rampLegend, outsideNote } from './palette-ramp.js';

/**
 * What the view draws: core's grid and what it was asked for.
 * @typedef {object} DensityData
 * @property {import('../engine/protocol.js').HeatmapGrid} grid counts of groups per (quantum, row)
 * @property {string} p the percentile ("99")
 * @property {string} by the label the groups are of ("host")
 * @property {(q: number, r: number) => Promise<import('../engine/protocol.js').DensityCell>} ask the groups of one cell, from core
 */

export class DensityView {
  /**
   * @param {HTMLElement} host
   * @param {{store: import('./view.js').ViewStore, extent: () => [number, number] | null, emptyText?: () => string, onRange: (r: [number, number] | null) => void}} ctx
   */
  constructor(host, ctx) {
    this.ctx = ctx;
    this.frame = new Frame(host, { canvas: true, margin: { top: 14, right: 110, bottom: 34, left: 72 } });
    /** @type {DensityData | null} */
    this.data = null;
    /** The clicked cell and its groups (null: none). @type {{q: number, r: number, cell: import('../engine/protocol.js').DensityCell} | null} */
    this.picked = null;
    this.list = document.createElement('div');
    this.list.className = 'density-list';
    this.list.dataset.testid = 'density-list';
    this.list.hidden = true;
    this.frame.wrap.appendChild(this.list);
  }

  /** @param {DensityData | null} data */
  setData(data) {
    this.data = data;
    this.picked = null;
    this.list.hidden = true;
    this.render();
  }

  render() {
    const f = this.frame;
    const s = this.ctx.store.state;
    const d = this.data;
    const hm = d?.grid;
    if (!d || !hm || !hm.quanta || !hm.rows) return f.message(this.ctx.emptyText?.() || (d ? 'No data for this selection' : 'Load fio histogram logs to begin'));
    const g = f.clear();
    const c = themeColors();
    const dom = s.range || this.ctx.extent() || [hm.t0_ms, hm.t0_ms + hm.quanta * hm.quantum_ms];
    const x = timeScale(hm.absolute_time, dom, [0, f.innerW]);
    const lo = Math.max(1e-9, hm.edges_ns[0]);
    const hi = hm.edges_ns[hm.rows];
    const y = d3.scaleLog().domain([lo, hi]).range([f.innerH, 0]);
    this.paint(hm, dom, s.palette);
    g.append('g').attr('class', 'axis y-axis').call(nsLogAxis(y, lo, hi, f.innerH, s.unit));
    axisLabel(g, `${percentileName(d.p)} per ${d.by} (${unitLabel(s.unit)})`, -58, f.innerH / 2, -90);
    g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${f.innerH})`).call(timeAxis(x));
    this.legend(g, hm, d, s.palette, c);
    outsideNote(g, hm, f.innerW, c.muted, '');
    if (this.picked) this.mark(g, x, y, hm, c);
    this.interact(g, x, y, hm, d);
  }

  /** The cells of the visible time range, one image pixel per (quantum, row), stretched onto the plot. @param {any} hm @param {[number, number]} dom @param {string} palette */
  paint(hm, dom, palette) {
    const canvas = /** @type {HTMLCanvasElement} */ (this.frame.canvas);
    const norm = densityNormalizer(hm.counts);
    const image = cellImage(hm.quanta, hm.rows, paletteLut(palette), (q, r) => norm(hm.counts[q * hm.rows + r]));
    drawColumns(canvas, image, (dom[0] - hm.t0_ms) / hm.quantum_ms, (dom[1] - dom[0]) / hm.quantum_ms, canvas.height);
  }

  /** The colour legend: one group … the most in a cell. @param {any} g @param {any} hm @param {DensityData} d @param {string} palette @param {any} c */
  legend(g, hm, d, palette, c) {
    const f = this.frame;
    const h = Math.min(200, f.innerH);
    const lg = g.append('g').attr('class', 'legend').attr('data-testid', 'density-legend').attr('transform', `translate(${f.innerW + 16},0)`);
    rampLegend(lg, paletteLut(palette), h);
    const max = maxCount(hm.counts);
    const marks = max > 1 ? [[0, '1'], [1, formatCount(max)]] : [[0, '1']];
    for (const [v, t] of marks) lg.append('text').attr('x', 16).attr('y', h - Number(v) * h + 4).attr('fill', 'currentColor').text(String(t));
    lg.append('text').attr('x', 0).attr('y', h + 16).attr('fill', c.muted).text(`${groupsWord(d.by)} per cell`);
    if (hm.groups) lg.append('text').attr('class', 'density-groups').attr('x', 0).attr('y', h + 30).attr('fill', c.muted).text(`of ${formatCount(hm.groups)}`);
  }

  /** A frame around the clicked cell. @param {any} g @param {any} x @param {any} y @param {any} hm @param {any} c */
  mark(g, x, y, hm, c) {
    const p = /** @type {{q: number, r: number}} */ (this.picked);
    const t0 = hm.t0_ms + p.q * hm.quantum_ms;
    const x0 = x(t0);
    const x1 = Math.max(x0 + 3, x(t0 + hm.quantum_ms));
    const y0 = y(hm.edges_ns[p.r + 1]);
    const y1 = Math.max(y0 + 3, y(hm.edges_ns[p.r]));
    g.append('rect').attr('class', 'density-pick').attr('x', x0 - 1).attr('y', y0 - 1).attr('width', x1 - x0 + 2).attr('height', y1 - y0 + 2).attr('fill', 'none').attr('stroke', c.fg).attr('stroke-width', 1.5);
  }

  /** Brush across time zooms every view; hover names a cell; a click lists its groups. @param {any} g @param {any} x @param {any} y @param {any} hm @param {DensityData} d */
  interact(g, x, y, hm, d) {
    const f = this.frame;
    const s = this.ctx.store.state;
    const at = (/** @type {number} */ px, /** @type {number} */ py) => cellAt(hm, x.invert(px), y.invert(py));
    cellBrush(g, f, d3.brushX(), {
      box: ([x0, x1]) => {
        const t = [x.invert(x0), x.invert(x1)];
        if (x1 - x0 > 6 && t[1] - t[0] >= hm.quantum_ms / 4) this.ctx.onRange(/** @type {[number, number]} */ (t));
      },
      // A click (no box): the cell's groups.
      click: ([px, py]) => {
        const cell = at(px, py);
        if (cell && cell.count > 0) this.pick(cell, d);
      },
      reset: () => this.ctx.onRange(null),
      tip: ([px, py]) => {
        const cell = at(px, py);
        return cell ? densityTipLines(cell, { p: d.p, unit: s.unit, by: d.by, absolute: hm.absolute_time }) : null;
      },
    });
  }

  /**
   * Asks core for a cell's groups and lists them over the chart.
   * @param {{q: number, r: number, t0: number, t1: number, lo: number, hi: number, count: number}} cell @param {DensityData} d
   */
  async pick(cell, d) {
    const data = this.data;
    const answer = await d.ask(cell.q, cell.r);
    if (this.data !== data) return; // new data came meanwhile
    this.picked = { q: cell.q, r: cell.r, cell: answer };
    const s = this.ctx.store.state;
    const head = document.createElement('div');
    head.className = 'density-list-head';
    const hm = /** @type {any} */ (d.grid);
    const title = Object.assign(document.createElement('span'), { className: 'density-list-title' });
    title.textContent = `${formatTime(cell.t0, hm.absolute_time)} … ${formatTime(cell.t1, hm.absolute_time)}, ${cellRangeText(cell, d.p, s.unit)}: ${countText(answer.members.length, d.by)}`;
    const close = Object.assign(document.createElement('button'), { type: 'button', className: 'button small', textContent: '×', title: 'Close' });
    close.dataset.testid = 'density-list-close';
    close.addEventListener('click', () => {
      this.picked = null;
      this.list.hidden = true;
      this.render();
    });
    head.append(title, close);
    const ol = document.createElement('ol');
    for (const m of memberLines(answer)) {
      const li = document.createElement('li');
      li.dataset.group = m.group;
      li.append(Object.assign(document.createElement('span'), { className: 'density-group', textContent: m.group }), ' ', Object.assign(document.createElement('span'), { className: 'density-value', textContent: m.text }));
      ol.appendChild(li);
    }
    this.list.replaceChildren(head, ol);
    this.list.hidden = false;
    this.render();
  }
}
