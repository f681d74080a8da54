// Percentile spectrum: x = percentile on a
// 1/(1-p) log axis, y = latency, one curve per group for the selected time
// range (the whole run when nothing is brushed). The max is a dot at the end.
import * as d3 from 'd3';
import { Frame, themeColors, GROUP_COLORS, latencyScale, latencyAxis, drawYGrid, axisLabel, textWidth } from './frame.js';
import { tailCoord, tailTicks, tailInverse } from './scales.js';
import { spectrumCurves } from './surface-data.js';
import { percentileColor, CO_DASH } from './colors.js';
import { formatTime, formatPercentile, formatNumber, formatCount } from '../util/format.js';
import { unitLabel } from '../model/units.js';
import { coPairs } from '../model/co-groups.js';
import { showTip, hideTip } from './tooltip.js';

export class SpectrumView {
  /** @param {HTMLElement} host @param {{store: import('./view.js').ViewStore, emptyText?: () => string, colors?: import('./colors.js').ColorKeeper, slaRules?: () => import('../model/sla-rules.js').SlaRule[]}} ctx */
  constructor(host, ctx) {
    this.ctx = ctx;
    this.frame = new Frame(host, { margin: { top: 34, right: 40, bottom: 48, left: 72 } });
    /** @type {any} */
    this.data = null;
    /** @type {ReturnType<typeof spectrumCurves>} */
    this.curves = [];
  }

  /** @param {any} result query over the range with spectrum percentiles @param {[number, number] | null} range */
  setData(result, range) {
    this.data = result;
    this.range = range;
    this.curves = result ? spectrumCurves(result) : [];
    this.render();
  }

  render() {
    const f = this.frame;
    const s = this.ctx.store.state;
    const r = this.data;
    const curves = this.curves.filter((c) => c.points.length);
    if (!r || !curves.length) return f.message(this.ctx.emptyText?.() || (r ? 'No samples in this range' : 'Load fio histogram logs to begin'));
    const g = f.clear();
    const c = themeColors();
    const ps = r.percentiles.map(Number).filter((/** @type {number} */ p) => p < 100);
    const pHi = Math.max(...ps);
    const uMax = tailCoord(pHi);
    const x = d3.scaleLinear().domain([0, uMax]).range([0, f.innerW]);
    const all = curves.flatMap((cv) => cv.points.map((p) => p.v).concat(cv.max == null ? [] : [cv.max]));
    // SLA rules: their thresholds widen the axis so they stay in view.
    const scale = { ns: 1, us: 1e3, ms: 1e6 }[/** @type {'ns'|'us'|'ms'} */ (r.unit)] || 1e3;
    const rules = (this.ctx.slaRules?.() || []).map((x) => ({ ...x, t: x.threshold_ns / scale }));
    for (const x of rules) all.push(x.t);
    const y = latencyScale(s.yLog, [d3.min(all.filter((v) => v > 0)) || 1, d3.max(all) || 1], [f.innerH, 0]);
    drawYGrid(g, y, f.innerW, latencyAxis(y));
    axisLabel(g, `latency (${unitLabel(r.unit)})`, -56, f.innerH / 2, -90);
    const ticks = tailTicks(0, pHi);
    g.append('g')
      .attr('class', 'grid')
      .selectAll('line')
      .data(ticks)
      .join('line')
      .attr('x1', (d) => x(tailCoord(d)))
      .attr('x2', (d) => x(tailCoord(d)))
      .attr('y1', 0)
      .attr('y2', f.innerH)
      .attr('stroke', c.grid);
    g.append('g')
      .attr('class', 'axis x-axis')
      .attr('transform', `translate(0,${f.innerH})`)
      .call(d3.axisBottom(x).tickValues(ticks.map(tailCoord)).tickFormat((_, i) => `${ticks[i]}%`));
    axisLabel(g, 'percentile (1/(1−p) log axis)', f.innerW / 2, f.innerH + 36);

    const inUnit = (/** @type {number} */ v) => `${formatNumber(v)} ${unitLabel(r.unit)}`;
    const line = d3
      .line()
      .defined((/** @type {any} */ p) => !s.yLog || p.v > 0)
      .x((/** @type {any} */ p) => x(p.u))
      .y((/** @type {any} */ p) => y(p.v));
    // Coordinated-omission pairs (co=uncorrected, co=corrected) share a
    // colour; the corrected curve is dashed and its max marked hollow.
    const co = coPairs(curves.map((cv) => cv.group));
    const style = curves.map((cv, i) => ({ col: this.ctx.colors && co.bases.length > 1 ? this.ctx.colors.color(co.bases[co.of[i].base]) : GROUP_COLORS[co.of[i].base % 10], corrected: co.of[i].corrected }));
    // SLA lines: a rule on p holds the curve at p below its threshold; the
    // dashed line runs from p to the right edge, where the rule is read off
    // (the spectrum is the whole range's distribution: a quantum may break a
    // rule the range as a whole keeps, docs/page-views.md "SLA").
    const slaG = g.append('g').attr('class', 'sla-lines');
    for (const rule of rules) {
      const p = rule.what === 'max' ? pHi : rule.p;
      if (p == null) {
        slaG.append('line').attr('data-rule', rule.text).attr('x1', 0).attr('x2', f.innerW).attr('y1', y(rule.t)).attr('y2', y(rule.t)).attr('stroke', c.warn).attr('stroke-dasharray', '6,4').attr('stroke-width', 1.5);
        slaG.append('text').attr('x', 4).attr('y', y(rule.t) - 4).attr('fill', c.warn).text(`SLA ${rule.label}`);
        continue;
      }
      const px = x(tailCoord(Math.min(p, pHi)));
      const col = percentileColor(rule.what === 'max' ? 100 : p);
      slaG.append('line').attr('data-rule', rule.text).attr('x1', px).attr('x2', f.innerW).attr('y1', y(rule.t)).attr('y2', y(rule.t)).attr('stroke', col).attr('stroke-dasharray', '6,4').attr('stroke-width', 1.5);
      slaG.append('line').attr('x1', px).attr('x2', px).attr('y1', y(rule.t) - 5).attr('y2', y(rule.t) + 5).attr('stroke', col).attr('stroke-width', 1.5);
      slaG.append('text').attr('x', px + 4).attr('y', y(rule.t) - 4).attr('fill', col).attr('stroke', c.bg).attr('stroke-width', 3).attr('paint-order', 'stroke').text(`SLA ${rule.label}`);
    }
    /** @type {number[]} */
    const maxYs = [];
    curves.forEach((cv, i) => {
      const { col, corrected } = style[i];
      g.append('path')
        .attr('class', 'spectrum-line')
        .attr('data-co', co.of[i].co ? (corrected ? 'corrected' : 'uncorrected') : null)
        .attr('d', line(/** @type {any} */ (cv.points)))
        .attr('fill', 'none')
        .attr('stroke', col)
        .attr('stroke-width', corrected ? 2.2 : 1.8)
        .attr('stroke-dasharray', corrected ? CO_DASH : '');
      if (cv.max != null && (!s.yLog || cv.max > 0)) {
        const my = y(cv.max);
        g.append('circle').attr('cx', f.innerW).attr('cy', my).attr('r', 3.5).attr('fill', corrected ? 'none' : col).attr('stroke', col).attr('stroke-width', 1.5);
        // Equal maxima (a pair's max is the same I/O) are labelled once.
        if (maxYs.every((o) => Math.abs(o - my) > 11)) {
          maxYs.push(my);
          // Near the top the label goes below the dot, clear of the range caption.
          g.append('text').attr('x', f.innerW - 6).attr('y', my < 16 ? my + 16 : my - 6).attr('text-anchor', 'end').attr('fill', col).attr('stroke', c.bg).attr('stroke-width', 3).attr('paint-order', 'stroke').text(`max ${inUnit(cv.max)}`);
        }
      }
    });
    // Legend + range caption.
    const lg = g.append('g').attr('class', 'legend').attr('transform', 'translate(0,-24)');
    let xo = 0;
    // Recorded before corrected in the legend; a corrected curve says how many samples the correction added.
    const order = curves.map((_, i) => i).sort((a, b) => co.of[a].base - co.of[b].base || Number(co.of[a].corrected) - Number(co.of[b].corrected));
    order.forEach((i) => {
      const cv = curves[i];
      const it = lg.append('g').attr('transform', `translate(${xo},0)`);
      it.append('line').attr('x1', 0).attr('x2', 18).attr('y1', 6).attr('y2', 6).attr('stroke', style[i].col).attr('stroke-width', 2.5).attr('stroke-dasharray', style[i].corrected ? CO_DASH : '');
      const what = co.of[i].co ? `${co.bases[co.of[i].base] === 'all' ? '' : `${co.bases[co.of[i].base]} `}${style[i].corrected ? `corrected (interval ${s.co_interval_ms} ms)` : 'recorded'}` : cv.group;
      const pair = co.of[i].corrected ? curves.find((_, j) => co.of[j].base === co.of[i].base && co.of[j].co && !co.of[j].corrected) : null;
      const label = pair ? `${what} (${formatCount(cv.samples)} samples, ${formatCount(cv.samples - pair.samples)} added)` : `${what} (${formatCount(cv.samples)} I/Os)`;
      it.append('text').attr('x', 22).attr('y', 10).attr('fill', 'currentColor').text(label);
      xo += 34 + textWidth(label);
    });
    const rg = this.range;
    g.append('text')
      .attr('x', f.innerW)
      .attr('y', -12)
      .attr('text-anchor', 'end')
      .attr('fill', c.muted)
      .attr('class', 'range-caption')
      .text(rg ? `range ${formatTime(rg[0], r.absolute_time)} … ${formatTime(rg[1], r.absolute_time)}` : 'whole run');

    const hover = g.append('line').attr('y1', 0).attr('y2', f.innerH).attr('stroke', 'currentColor').attr('opacity', 0).attr('class', 'hover-layer');
    g.append('rect')
      .attr('class', 'hover-layer-target')
      .attr('width', f.innerW)
      .attr('height', f.innerH)
      .attr('fill', 'transparent')
      .on('mousemove', (ev) => {
        const [px] = d3.pointer(ev);
        const u = x.invert(px);
        hover.attr('x1', px).attr('x2', px).attr('opacity', 0.4);
        const lines = [`p${formatPercentile(tailInverse(u))}  (1/(1−p) = ${formatCount(Math.pow(10, u))})`];
        for (const cv of curves) {
          const near = cv.points.reduce((a, b) => (Math.abs(b.u - u) < Math.abs(a.u - u) ? b : a));
          lines.push(`${cv.group}: p${near.p} = ${inUnit(near.v)}`);
        }
        showTip(f.wrap, ev, lines);
      })
      .on('mouseleave', () => {
        hover.attr('opacity', 0);
        hideTip(f.wrap);
      });
  }
}
