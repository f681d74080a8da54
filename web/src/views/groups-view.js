// The groups view: one percentile per group over time, for hundreds of hosts
// or jobs (docs/page-views.md "Groups view"), in three modes:
//   heat       y = group, x = time, colour = the percentile per quantum
//              (canvas: one image row per group, one column per pixel)
//   top        the N worst groups over the run as lines, the others as a
//              min..max band
//   multiples  one small chart per group on shared scales (canvas)
// Clicking a group (a heat-map row, a small chart) opens its latency heat map.
import * as d3 from 'd3';
import { timeBrush } from './brush.js';
import { Frame, themeColors, latencyScale, latencyAxis, drawYGrid, axisLabel, textWidth } from './frame.js';
import { timeScale, timeAxis, niceTimeStep } from './time-axis.js';
import { paletteLut, logTicks, labelsWithin, pointLine } from './scales.js';
import { groupOrder, othersBand, valueSpan, topGroups } from './groups-data.js';
import { decimate } from './pctiles-data.js';
import { renderLegend, toggleKey, legendBoxOver } from './legend.js';
import { formatTime, formatRelative, formatNumber } from '../util/format.js';
import { unitLabel } from '../model/units.js';
import { percentileName } from '../model/percentiles.js';
import { showTip, hideTip } from './tooltip.js';

/** Small multiples: at most this many charts (beyond: the worst ones, and a note). */
export const MAX_MULTIPLES = 48;
const CELL_MIN_W = 180;
const CELL_MIN_H = 56;

/**
 * @typedef {object} GroupsCtx
 * @property {import('./view.js').ViewStore} store
 * @property {() => [number, number] | null} extent
 * @property {(r: [number, number] | null) => void} onRange
 * @property {(group: string) => void} onPickGroup
 * @property {import('./colors.js').ColorKeeper} colors
 * @property {() => string} [emptyText]
 */

/**
 * The line above a drawing that says what it shows (each of the three
 * drawings has its own sentence).
 * @param {any} g the plot's group @param {string} text
 */
function caption(g, text) {
  g.append('text').attr('class', 'groups-caption').attr('x', 0).attr('y', -8).attr('fill', themeColors().muted).text(text);
}

export class GroupsView {
  /** @param {HTMLElement} host @param {GroupsCtx} ctx */
  constructor(host, ctx) {
    this.ctx = ctx;
    this.frame = new Frame(host, { canvas: true, margin: { top: 26, right: 96, bottom: 34, left: 120 } });
    this.legendBox = legendBoxOver(this.frame, 'groups-legend', 'legend-box legend-side');
    /** @type {import('./groups-data.js').GroupMatrix | null} */
    this.m = null;
    /** @type {Map<string, number> | null} */
    this.run = null;
    /** @type {string} */
    this.unit = 'us';
    this.absolute = false;
    /** Where the values came from ('' the histograms) and whether a click drills into a host (docs/page-views.md, "Drilling into a host"). */
    this.from = '';
    this.drill = false;
    /** What the last drawing shows, for tests and hover: group order, drawn lines. */
    this.shown = { order: /** @type {string[]} */ ([]), lines: /** @type {string[]} */ ([]), truncated: 0, framed: /** @type {string[]} */ ([]) };
  }

  /**
   * @param {import('./groups-data.js').GroupMatrix | null} m
   * @param {Map<string, number> | null} run the run's percentile per group
   * @param {{unit: string, absolute: boolean, from?: string, drill?: boolean}} info
   */
  setData(m, run, info) {
    this.m = m;
    this.run = run;
    this.unit = info.unit;
    this.absolute = info.absolute;
    this.from = info.from ?? '';
    this.drill = !!info.drill;
    this.render();
  }

  render() {
    const f = this.frame;
    const s = this.ctx.store.state;
    const m = this.m;
    this.legendBox.hidden = true;
    if (!m || !m.groups.length || !m.times.length) {
      f.message(this.ctx.emptyText?.() || (m ? 'No data for this selection' : 'Load fio histogram logs to begin'));
      return;
    }
    // The left margin fits the group names (heat map rows), within reason.
    const widest = Math.max(...m.groups.map((g) => textWidth(g)));
    const left = s.groupsMode === 'heat' ? Math.min(220, Math.max(72, Math.ceil(widest) + 14)) : 72;
    // Top N: the legend at the right names each line with its run value,
    // "host=host05 (2,345)", after an 18 px swatch, within its padding.
    const runW = s.groupsMode === 'top' && this.run ? Math.max(0, ...[...this.run.values()].map((v) => textWidth(` (${formatNumber(v)})`))) : 0;
    const right = s.groupsMode === 'top' ? Math.min(340, Math.max(150, Math.ceil(widest + runW) + 60)) : s.groupsMode === 'heat' ? 96 : 16;
    if (f.margin.left !== left || f.margin.right !== right) {
      f.margin = { ...f.margin, left, right };
      f.width = 0; // force resize() to re-lay the canvas
      f.resize();
    }
    const ctx2d = /** @type {CanvasRenderingContext2D} */ (f.canvas?.getContext('2d'));
    ctx2d.setTransform(1, 0, 0, 1, 0, 0);
    ctx2d.clearRect(0, 0, /** @type {HTMLCanvasElement} */ (f.canvas).width, /** @type {HTMLCanvasElement} */ (f.canvas).height);
    const g = f.clear();
    // Its own extent: the percentiles query may not have run for this state (app.js, lazy).
    const dom = s.range || [m.times[0], m.times[m.times.length - 1] + m.quantumMs];
    const x = timeScale(this.absolute, dom, [0, f.innerW]);
    if (s.groupsMode === 'top') this.drawTop(g, x, dom);
    else if (s.groupsMode === 'multiples') this.drawMultiples(g, ctx2d, x, dom);
    else this.drawHeat(g, ctx2d, x, dom);
  }

  /** Quantum index holding time t (binary search; -1 when none). @param {number} t */
  quantumAt(t) {
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const i = d3.bisectRight(m.times, t) - 1;
    return i >= 0 && t < m.times[i] + m.quantumMs ? i : -1;
  }

  /** Tooltip lines of one cell. @param {number} gi @param {number} k */
  cellLines(gi, k) {
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const s = this.ctx.store.state;
    const T = m.times.length;
    const v = m.values[gi * T + k];
    const n = m.samples[gi * T + k];
    return [
      m.groups[gi],
      `${formatTime(m.times[k], this.absolute)} … +${formatNumber(m.quantumMs)} ms`,
      Number.isNaN(v) ? 'no I/O' : `${percentileName(s.groupsP)}: ${formatNumber(v)} ${unitLabel(this.unit)}`,
      `samples: ${formatNumber(n)}`,
      this.drill ? 'click: this host\'s percentiles' : 'click: this group\'s latency heat map',
    ];
  }

  /**
   * The SLA rules on the shown percentile as core gave them with the
   * matrix (its query's "sla" option, docs/page-views.md "SLA"): the first
   * one's threshold in the result's unit (the line drawn), and core's marks
   * of the cells that break any of them ([group * times + time]). Null
   * without such a rule.
   * @returns {{t: number, broken: (cell: number) => boolean} | null}
   */
  slaRule() {
    const m = this.m;
    const verdicts = m?.sla ?? [];
    const V = verdicts.length;
    const marks = m?.sla_marks;
    if (!V || !marks) return null;
    const p = Number(this.ctx.store.state.groupsP);
    // The matrix holds one percentile (pi 0); a max rule judges the row's max, shown as p100.
    const ks = verdicts.flatMap((v, k) => ((v.max ? p === 100 : v.pi === 0) ? [k] : []));
    if (!ks.length) return null;
    const scale = { ns: 1, us: 1e3, ms: 1e6 }[this.unit] || 1e3;
    return { t: verdicts[ks[0]].rule.threshold_ns / scale, broken: (cell) => ks.some((k) => marks[cell * V + k] === 1) };
  }

  /**
   * @param {any} g @param {CanvasRenderingContext2D} c2 @param {any} x @param {[number, number]} dom
   */
  drawHeat(g, c2, x, dom) {
    const f = this.frame;
    const s = this.ctx.store.state;
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const c = themeColors();
    const order = groupOrder(m.groups, this.run, s.groupsSort);
    this.shown = { order: order.map((i) => m.groups[i]), lines: [], truncated: 0, framed: [] };
    const G = order.length;
    const T = m.times.length;
    const rowH = f.innerH / G;
    const span = valueSpan(m, dom) || [1, 10];
    const lo = span[0];
    const hi = span[1] > lo ? span[1] : lo * 10;
    const norm = (/** @type {number} */ v) => Math.max(0, Math.min(1, Math.log(v / lo) / Math.log(hi / lo)));
    const lut = paletteLut(s.palette);
    // One image pixel per plot pixel column and per group; a column keeps
    // the highest value of the quanta it covers (a spike never averages away).
    const W = Math.max(1, Math.round(f.innerW));
    const img = new ImageData(W, G);
    const colMax = new Float64Array(W);
    const k0 = Math.max(0, d3.bisectRight(m.times, dom[0] - m.quantumMs));
    for (let row = 0; row < G; row++) {
      const gi = order[row];
      colMax.fill(NaN);
      for (let k = k0; k < T; k++) {
        const t = m.times[k];
        if (t >= dom[1]) break;
        const v = m.values[gi * T + k];
        if (Number.isNaN(v)) continue;
        const a = Math.max(0, Math.floor(x(t)));
        const b = Math.min(W, Math.max(a + 1, Math.ceil(x(t + m.quantumMs))));
        for (let px = a; px < b; px++) if (!(colMax[px] >= v)) colMax[px] = v;
      }
      for (let px = 0; px < W; px++) {
        const v = colMax[px];
        if (Number.isNaN(v)) continue;
        const li = Math.round(norm(v) * 255) * 4;
        const o = (row * W + px) * 4;
        img.data[o] = lut[li];
        img.data[o + 1] = lut[li + 1];
        img.data[o + 2] = lut[li + 2];
        img.data[o + 3] = 255;
      }
    }
    const off = document.createElement('canvas');
    off.width = W;
    off.height = G;
    /** @type {CanvasRenderingContext2D} */ (off.getContext('2d')).putImageData(img, 0, 0);
    const dpr = window.devicePixelRatio || 1;
    c2.imageSmoothingEnabled = false;
    c2.drawImage(off, 0, 0, W, G, 0, 0, f.innerW * dpr, f.innerH * dpr);

    // SLA: quanta of a group that violate a rule on this percentile get a
    // frame, where core marked them (slaRule).
    const sla = this.slaRule();
    /** Frames drawn, for tests: "group|t_ms". @type {string[]} */
    const framed = [];
    if (sla) {
      c2.strokeStyle = c.warn;
      c2.lineWidth = Math.max(1, dpr);
      for (let row = 0; row < G; row++) {
        const gi = order[row];
        for (let k = k0; k < T && m.times[k] < dom[1]; k++) {
          if (!sla.broken(gi * T + k)) continue;
          framed.push(`${m.groups[gi]}|${m.times[k]}`);
          const a = x(m.times[k]);
          const b = x(m.times[k] + m.quantumMs);
          if (rowH >= 4 && b - a >= 4) c2.strokeRect(a * dpr + 0.5, row * rowH * dpr + 0.5, (b - a) * dpr - 1, rowH * dpr - 1);
        }
      }
    }
    this.shown.framed = framed;

    // Group names, as many as fit (every k-th row when rows are thin).
    const every = Math.max(1, Math.ceil(13 / rowH));
    const yl = g.append('g').attr('class', 'axis y-axis group-names');
    for (let row = 0; row < G; row += every) {
      yl.append('text')
        .attr('x', -6)
        .attr('y', (row + 0.5) * rowH)
        .attr('dy', '0.32em')
        .attr('text-anchor', 'end')
        .attr('fill', 'currentColor')
        .attr('data-group', m.groups[order[row]])
        .text(m.groups[order[row]]);
    }
    g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${f.innerH})`).call(timeAxis(x));
    caption(g, `${G} groups × ${percentileName(s.groupsP)} per quantum${every > 1 ? ` (every ${every}th name shown)` : ''}; ${s.groupsSort === 'worst' ? 'worst over the run first' : 'by name'}${this.from ? `; from ${this.from}` : ''}; ${this.drill ? 'click a row for that host\'s percentiles' : 'click a row for its latency heat map'}`);

    // Colour legend: the percentile's values on a log scale.
    const lg = g.append('g').attr('class', 'legend').attr('transform', `translate(${f.innerW + 14},0)`);
    const lh = Math.min(220, f.innerH);
    const steps = 64;
    for (let i = 0; i < steps; i++) {
      const li = Math.round((1 - i / (steps - 1)) * 255) * 4;
      lg.append('rect').attr('x', 0).attr('y', (i * lh) / steps).attr('width', 12).attr('height', lh / steps + 0.5).attr('fill', `rgb(${lut[li]},${lut[li + 1]},${lut[li + 2]})`);
    }
    const cl = d3.scaleLog().domain([lo, hi]).range([lh, 0]);
    lg.append('g').attr('class', 'axis legend-axis').attr('transform', 'translate(12,0)').call(d3.axisRight(cl).tickValues(logTicks(lo, hi, lh)).tickFormat((t) => formatNumber(Number(t))));
    lg.append('text').attr('x', 0).attr('y', lh + 16).attr('fill', 'currentColor').text(`${percentileName(s.groupsP)} (${unitLabel(this.unit)})`);

    this.hoverLayer(g, x, (px, py) => {
      const row = Math.floor(py / rowH);
      const k = this.quantumAt(x.invert(px));
      if (row < 0 || row >= G || k < 0) return null;
      return { gi: order[row], k };
    });
  }

  /**
   * @param {any} g @param {any} x @param {[number, number]} dom
   */
  drawTop(g, x, dom) {
    const f = this.frame;
    const s = this.ctx.store.state;
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const c = themeColors();
    const T = m.times.length;
    const top = this.run ? topGroups(m.groups, this.run, s.topN) : m.groups.slice(0, s.topN);
    const hidden = new Set(s.hidden);
    const drawn = new Set(top);
    const band = othersBand(m, drawn);
    const bandOn = band.length > 0 && !hidden.has('band');
    const visible = top.filter((gname) => !hidden.has(`g:${gname}`));
    this.shown = { order: top, lines: visible, truncated: 0, framed: [] };
    // y: the shown lines and the band in view.
    const rows = visible.map((gname) => m.groups.indexOf(gname));
    const span = valueSpan(m, dom, rows);
    let lo = span ? span[0] : Infinity;
    let hi = span ? span[1] : 0;
    if (bandOn) {
      for (const b of band) {
        if (b.t + m.quantumMs <= dom[0] || b.t >= dom[1]) continue;
        if (b.lo > 0 && b.lo < lo) lo = b.lo;
        if (b.hi > hi) hi = b.hi;
      }
    }
    const sla = this.slaRule();
    if (sla && sla.t > hi) hi = sla.t;
    if (!(hi > 0)) {
      f.message('Every series is hidden: click the legend to show one');
      this.legend(top, band.length > 0, hidden);
      return;
    }
    const y = latencyScale(s.yLog, [lo, hi], [f.innerH, 0]);
    drawYGrid(g, y, f.innerW, latencyAxis(y));
    axisLabel(g, `${percentileName(s.groupsP)} (${unitLabel(this.unit)})`, -56, f.innerH / 2, -90);
    const clipId = `clip-g-${Math.random().toString(36).slice(2)}`;
    f.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', f.innerW).attr('height', f.innerH);
    const plot = g.append('g').attr('clip-path', `url(#${clipId})`);
    const mid = (/** @type {number} */ t) => x(t + m.quantumMs / 2);
    const [ylo, yhi] = y.domain();
    if (bandOn) {
      const area = d3
        .area()
        .digits(1)
        .x((/** @type {any} */ d) => mid(d.t))
        .y0((/** @type {any} */ d) => y(Math.max(ylo, d.lo)))
        .y1((/** @type {any} */ d) => y(Math.min(yhi, d.hi)));
      const inDom = band.filter((b) => b.t + 2 * m.quantumMs > dom[0] && b.t < dom[1] + m.quantumMs);
      plot.append('path').attr('class', 'others-band').attr('d', area(/** @type {any} */ (thinBand(inDom, x, f.innerW)))).attr('fill', c.muted).attr('opacity', 0.3);
    }
    if (sla && y(sla.t) >= 0 && y(sla.t) <= f.innerH) {
      g.append('line').attr('class', 'sla-line').attr('x1', 0).attr('x2', f.innerW).attr('y1', y(sla.t)).attr('y2', y(sla.t)).attr('stroke', c.warn).attr('stroke-dasharray', '6,4').attr('stroke-width', 1.5);
    }
    const line = pointLine(mid, y, s.yLog);
    const lineG = plot.append('g').attr('class', 'lines');
    for (const gname of visible) {
      const gi = m.groups.indexOf(gname);
      /** @type {import('./pctiles-data.js').Point[]} */
      const pts = [];
      for (let k = 0; k < T; k++) {
        const t = m.times[k];
        if (t + 2 * m.quantumMs <= dom[0] || t >= dom[1] + m.quantumMs) continue;
        const v = m.values[gi * T + k];
        pts.push({ t, v: Number.isNaN(v) ? null : v, e: 0 });
      }
      lineG
        .append('path')
        .attr('class', 'group-line')
        .attr('data-group', gname)
        .attr('d', line(/** @type {any} */ (decimate(pts, (t) => x(t), f.innerW))))
        .attr('fill', 'none')
        .attr('stroke', this.ctx.colors.color(gname))
        .attr('stroke-width', 1.6);
    }
    g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${f.innerH})`).call(timeAxis(x));
    caption(g, `the ${top.length} worst of ${m.groups.length} groups by ${percentileName(s.groupsP)} over the ${s.range ? 'zoomed range' : 'run'}; grey band: the other ${m.groups.length - top.length} (lowest … highest per quantum)`);
    this.legend(top, band.length > 0, hidden);
    this.hoverTop(g, x, visible, bandOn ? band : []);
  }

  /** @param {string[]} top @param {boolean} withBand @param {Set<string>} hidden */
  legend(top, withBand, hidden) {
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const s = this.ctx.store.state;
    /** @type {import('./legend.js').LegendItem[]} */
    const items = top.map((gname) => {
      const v = this.run?.get(gname);
      return { key: `g:${gname}`, label: v == null ? gname : `${gname} (${formatNumber(v)})`, color: this.ctx.colors.color(gname), title: `${gname}: ${percentileName(s.groupsP)} over the run ${v == null ? '–' : `${formatNumber(v)} ${unitLabel(this.unit)}`}; click to hide or show` };
    });
    if (withBand) items.push({ key: 'band', label: `other ${m.groups.length - top.length}`, color: themeColors().muted, kind: 'band', title: 'The groups not drawn as lines: lowest … highest value per quantum' });
    const f = this.frame;
    this.legendBox.style.top = `${f.margin.top}px`;
    this.legendBox.style.maxHeight = `${f.innerH}px`;
    this.legendBox.style.width = `${f.margin.right - 12}px`;
    renderLegend(this.legendBox, items, hidden, (key) => this.ctx.store.set({ hidden: toggleKey(this.ctx.store.state.hidden, key) }));
    this.legendBox.classList.add('open');
  }

  /** @param {any} g @param {any} x @param {string[]} lines @param {{t: number, lo: number, hi: number, n: number}[]} band */
  hoverTop(g, x, lines, band) {
    const f = this.frame;
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const s = this.ctx.store.state;
    const T = m.times.length;
    const vline = g.append('line').attr('class', 'hover-layer').attr('y1', 0).attr('y2', f.innerH).attr('stroke', 'currentColor').attr('opacity', 0);
    const bg = timeBrush(g, x.invert, f.innerW, f.innerH, m.quantumMs, this.ctx.onRange);
    bg.on('mousemove', (/** @type {MouseEvent} */ ev) => {
      const [px] = d3.pointer(ev);
      const k = this.quantumAt(x.invert(px));
      if (k < 0) return hideTip(f.wrap);
      vline.attr('x1', px).attr('x2', px).attr('opacity', 0.4);
      const out = [`${formatTime(m.times[k], this.absolute)} … +${formatNumber(m.quantumMs)} ms, ${percentileName(s.groupsP)} (${unitLabel(this.unit)})`];
      for (const gname of lines) {
        const gi = m.groups.indexOf(gname);
        const v = m.values[gi * T + k];
        out.push(`${gname}: ${Number.isNaN(v) ? 'no I/O' : formatNumber(v)} (samples ${formatNumber(m.samples[gi * T + k])})`);
      }
      const b = band.find((d) => d.t === m.times[k]);
      if (b) out.push(`other ${b.n} groups: ${formatNumber(b.lo)} … ${formatNumber(b.hi)}`);
      showTip(f.wrap, ev, out);
    });
    bg.on('mouseleave', () => {
      vline.attr('opacity', 0);
      hideTip(f.wrap);
    });
  }

  /**
   * @param {any} g @param {CanvasRenderingContext2D} c2 @param {any} x @param {[number, number]} dom
   */
  drawMultiples(g, c2, x, dom) {
    const f = this.frame;
    const s = this.ctx.store.state;
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    const c = themeColors();
    const T = m.times.length;
    const cols = Math.max(1, Math.floor(f.innerW / CELL_MIN_W));
    const fitRows = Math.max(1, Math.floor(f.innerH / CELL_MIN_H));
    const cap = Math.min(MAX_MULTIPLES, cols * fitRows);
    let order = groupOrder(m.groups, this.run, s.groupsSort);
    let truncated = 0;
    if (order.length > cap) {
      // Too many to draw readably: the worst ones (by the run's percentile), in the chosen order.
      const keep = new Set(groupOrder(m.groups, this.run, 'worst').slice(0, cap));
      truncated = order.length - cap;
      order = order.filter((i) => keep.has(i));
    }
    this.shown = { order: order.map((i) => m.groups[i]), lines: [], truncated, framed: [] };
    const n = order.length;
    const nCols = Math.min(cols, n);
    const nRows = Math.ceil(n / nCols);
    const cw = f.innerW / nCols;
    const ch = f.innerH / nRows;
    const pad = { l: 4, r: 4, t: 14, b: 4 };
    const span = valueSpan(m, dom, order) || [1, 10];
    const sla = this.slaRule();
    const hiV = Math.max(span[1], sla ? sla.t : 0);
    const yd = latencyScale(s.yLog, [span[0], hiV], [ch - pad.b, pad.t]);
    const dpr = window.devicePixelRatio || 1;
    c2.save();
    c2.scale(dpr, dpr);
    const xs = (/** @type {number} */ t) => pad.l + ((x(t) / f.innerW) * (cw - pad.l - pad.r));
    const k0 = Math.max(0, d3.bisectRight(m.times, dom[0] - m.quantumMs));
    order.forEach((gi, idx) => {
      const cx = (idx % nCols) * cw;
      const cy = Math.floor(idx / nCols) * ch;
      c2.strokeStyle = c.grid;
      c2.lineWidth = 1;
      c2.strokeRect(cx + 0.5, cy + 0.5, cw - 1, ch - 1);
      if (sla) {
        const ty = yd(sla.t);
        c2.strokeStyle = c.warn;
        c2.setLineDash([4, 3]);
        c2.beginPath();
        c2.moveTo(cx + pad.l, cy + ty);
        c2.lineTo(cx + cw - pad.r, cy + ty);
        c2.stroke();
        c2.setLineDash([]);
      }
      c2.strokeStyle = this.ctx.colors.color(m.groups[gi]);
      c2.lineWidth = 1; // hairlines: the software canvas' fast path (pctiles-view.js)
      c2.beginPath();
      let pen = false;
      let lastCol = NaN;
      let colLo = 0;
      let colHi = 0;
      // One vertical stroke per pixel column when quanta outnumber pixels (spikes kept).
      const flush = () => {
        if (Number.isNaN(lastCol)) return;
        const px = cx + lastCol + 0.5;
        if (!pen) c2.moveTo(px, cy + yd(colLo));
        else c2.lineTo(px, cy + yd(colLo));
        if (colHi !== colLo) c2.lineTo(px, cy + yd(colHi));
        pen = true;
      };
      for (let k = k0; k < T && m.times[k] < dom[1]; k++) {
        const v = m.values[gi * T + k];
        if (!(v > 0) && (s.yLog || Number.isNaN(v))) {
          flush();
          lastCol = NaN;
          pen = false;
          continue;
        }
        const col = Math.floor(xs(m.times[k] + m.quantumMs / 2));
        if (col !== lastCol) {
          flush();
          lastCol = col;
          colLo = v;
          colHi = v;
        } else {
          if (v < colLo) colLo = v;
          if (v > colHi) colHi = v;
        }
      }
      flush();
      c2.stroke();
      const run = this.run?.get(m.groups[gi]);
      g.append('text')
        .attr('class', 'multiple-name')
        .attr('data-group', m.groups[gi])
        .attr('x', cx + pad.l + 2)
        .attr('y', cy + 11)
        .attr('fill', 'currentColor')
        .text(`${m.groups[gi]}${run == null ? '' : ` · ${formatNumber(run)}`}`);
    });
    c2.restore();
    const [ylo, yhi] = yd.domain();
    caption(g, `${percentileName(s.groupsP)} per quantum, shared scales: y ${s.yLog ? 'log' : 'linear'} ${formatNumber(ylo)} … ${formatNumber(yhi)} ${unitLabel(this.unit)}; name · ${percentileName(s.groupsP)} over the run${truncated ? `; the ${n} worst of ${m.groups.length} groups shown` : ''}`);
    // Each row's first chart gets the shared y axis, ticks in the unit (the
    // caption names it): without them the charts' heights could not be read.
    for (let row = 0; row < nRows; row++) {
      g.append('g').attr('class', 'axis y-axis multiples-y').attr('transform', `translate(0,${row * ch})`).call(latencyAxis(yd, 4));
    }
    // Each column's bottom chart gets its own time axis (the charts share it),
    // with only the labels that fit inside its column: at the shared edges
    // one column's last label ran into the next one's first.
    for (let col = 0; col < nCols; col++) {
      const sx = timeScale(this.absolute, dom, [col * cw + pad.l, (col + 1) * cw - pad.r]);
      const step = niceTimeStep((dom[1] - dom[0]) / 3);
      /** @type {(t: any) => string} */
      const fmt = this.absolute ? /** @type {any} */ (sx.axisScale).tickFormat(3) : (t) => formatRelative(Number(t), step);
      const ticks = sx.axisScale.ticks(3);
      const at = ticks.map((t) => sx.axisScale(t));
      const keep = labelsWithin(at, ticks.map((t) => textWidth(fmt(t))), col * cw, (col + 1) * cw);
      const ax = d3.axisBottom(sx.axisScale).tickValues(keep.map((i) => ticks[i])).tickFormat(fmt);
      g.append('g').attr('class', 'axis x-axis').attr('transform', `translate(0,${nRows * ch})`).call(ax);
    }
    this.hoverLayer(g, x, (px, py) => {
      const col = Math.floor(px / cw);
      const row = Math.floor(py / ch);
      const idx = row * nCols + col;
      if (col < 0 || col >= nCols || idx < 0 || idx >= n) return null;
      // The panel's own x: back to the plot's time.
      const t = x.invert(((px - col * cw - pad.l) / (cw - pad.l - pad.r)) * f.innerW);
      const k = this.quantumAt(t);
      return k < 0 ? null : { gi: order[idx], k };
    });
  }

  /**
   * Hover and click over the canvas: `at` maps a plot point to a cell.
   * @param {any} g @param {any} x @param {(px: number, py: number) => {gi: number, k: number} | null} at
   */
  hoverLayer(g, x, at) {
    const f = this.frame;
    const m = /** @type {import('./groups-data.js').GroupMatrix} */ (this.m);
    g.append('rect')
      .attr('class', 'hover-layer-target')
      .attr('data-testid', 'groups-hover')
      .attr('width', f.innerW)
      .attr('height', f.innerH)
      .attr('fill', 'transparent')
      .style('cursor', 'pointer')
      .on('mousemove', (/** @type {MouseEvent} */ ev) => {
        const [px, py] = d3.pointer(ev);
        const hit = at(px, py);
        if (!hit) return hideTip(f.wrap);
        showTip(f.wrap, ev, this.cellLines(hit.gi, hit.k));
      })
      .on('mouseleave', () => hideTip(f.wrap))
      .on('click', (/** @type {MouseEvent} */ ev) => {
        const [px, py] = d3.pointer(ev);
        const hit = at(px, py);
        if (hit) this.ctx.onPickGroup(m.groups[hit.gi]);
      });
  }
}

/**
 * The band thinned like the lines: per pixel column the lowest lo and the
 * highest hi.
 * @param {{t: number, lo: number, hi: number, n: number}[]} band @param {(t: number) => number} x @param {number} width
 */
function thinBand(band, x, width) {
  if (band.length <= width) return band;
  /** @type {{t: number, lo: number, hi: number, n: number}[]} */
  const out = [];
  let col = NaN;
  for (const b of band) {
    const cc = Math.floor(x(b.t));
    const last = out[out.length - 1];
    if (cc === col && last) {
      last.lo = Math.min(last.lo, b.lo);
      last.hi = Math.max(last.hi, b.hi);
    } else {
      out.push({ ...b });
      col = cc;
    }
  }
  return out;
}
