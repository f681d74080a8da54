// The strip under the percentiles chart: the samples per second (IOPS, or
// windows per second for fio log_avg_msec rows) of the shown quanta and an orange mark over each run of quanta with too few
// samples for some chosen percentile (the engine's flag "few",
// pctiles-data.js fewFlagged).
import * as d3 from 'd3';
import { axisLabel } from './frame.js';
import { fewFlagged, runsOf, decimate, adaptiveIops, aggregateIops, fewSpans } from './pctiles-data.js';
import { formatSI, formatQuanta } from '../util/format.js';

/** Height of the strip, px. */
export const STRIP_H = 70;
/** Pixels between the chart and the strip. */
export const STRIP_GAP = 28;

/**
 * Draws the strip below the chart's `mainH` pixels.
 * @param {any} g the chart @param {import('../engine/columns.js').ResultColumns} r
 * @param {{x: any, mid: (t: number) => number, dom: [number, number], inView: (t: number, w?: number) => boolean, recordedOnly: ((gi: number) => boolean) | null, clipId: string, c: any, w: number, mainH: number}} o
 *   x the time scale, mid a quantum's middle in px; recordedOnly: with coordinated-omission
 *   correction, the groups whose samples were recorded (the corrected halves add none)
 */
export function drawIopsStrip(g, r, o) {
  const { x, mid, c } = o;
  const adaptive = !!r.adaptive;
  const sg = g.append('g').attr('class', 'strip').attr('transform', `translate(0,${o.mainH + STRIP_GAP})`);
  const iops = adaptive ? adaptiveIops(r, o.recordedOnly) : aggregateIops(r, o.dom, o.recordedOnly);
  let ymax = 1;
  for (const d of iops) if (o.inView(d.t, adaptive ? 0 : r.quantum_ms) && /** @type {number} */ (d.v) > ymax) ymax = /** @type {number} */ (d.v);
  const ys = d3.scaleLinear().domain([0, ymax]).range([STRIP_H, 0]).nice();
  sg.append('g').attr('class', 'axis').call(d3.axisLeft(ys).ticks(3).tickFormat((v) => formatSI(Number(v))));
  // fio log_avg_msec rows count windows, not I/Os (their samples: docs/formats-fio-lat.md).
  const windows = r.flag_texts.some((t) => t.split(';').includes('avg'));
  axisLabel(sg, windows ? 'windows/s' : 'IOPS', -56, STRIP_H / 2, -90);
  const sp = sg.append('g').attr('clip-path', `url(#${o.clipId})`);
  sp.append('path')
    .attr('d', d3.area().digits(1).x((/** @type {any} */ d) => mid(d.t)).y0(STRIP_H).y1((/** @type {any} */ d) => ys(d.v))(/** @type {any} */ (adaptive ? iops : decimate(iops, (t) => x(t), o.w))))
    .attr('fill', c.muted)
    .attr('opacity', 0.35);
  const few = fewFlagged(r);
  // One mark per run of flagged quanta; the hover text names the percentiles.
  sp.append('g')
    .attr('class', 'few-marks')
    .selectAll('rect')
    .data(adaptive ? fewSpans(r) : runsOf(few.map((d) => d.t), r.quantum_ms))
    .join('rect')
    .attr('x', (/** @type {[number, number]} */ d) => x(d[0]))
    .attr('width', (/** @type {[number, number]} */ d) => Math.max(2, x(d[1]) - x(d[0])))
    .attr('y', 0)
    .attr('height', 6)
    .attr('fill', '#ff9f1c');
  if (few.length) {
    sg.append('text')
      .attr('x', o.w)
      .attr('y', -4)
      .attr('text-anchor', 'end')
      .attr('fill', '#c77800')
      .attr('class', 'few-note')
      .text(`▲ ${formatQuanta(few.length)} with too few samples for some percentiles (orange)`);
  }
}
