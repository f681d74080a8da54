// Drawing the groups the percentiles view does not draw as lines
// (pctiles-rest.js: which, and their bands): the grey bands under the lines
// and the note with its switch to every line.
import * as d3 from 'd3';
import { rankPercentile, restBands } from './pctiles-rest.js';

/**
 * The band of the groups not drawn as lines, one per shown percentile the
 * legend keeps, and the note that says what is drawn with its switch
 * (docs/page-views.md "Many groups"). With every line drawn, only the
 * switch back.
 * @param {any} view @param {any} g the chart @param {any} plot the clipped plot
 * @param {{r: any, keep: Set<number> | null, x: (t: number) => number, y: any, dom: number[], c: any, w: number, hidden: Set<string>, topN: number}} o
 */
export function drawRest(view, g, plot, o) {
  const { r, keep, c } = o;
  // Top right, where the error-band note goes (it gives way: the legend
  // keeps that corner free, pctiles-legend.js).
  const note = g.append('text').attr('class', 'rest-note').attr('x', o.w).attr('y', -10).attr('text-anchor', 'end').attr('fill', c.muted);
  const toggle = (/** @type {string} */ label, /** @type {boolean} */ all) =>
    note
      .append('tspan')
      .attr('class', 'rest-toggle')
      .attr('data-testid', 'rest-toggle')
      .attr('fill', c.fg)
      .attr('text-decoration', 'underline')
      .style('cursor', 'pointer')
      .text(label)
      .on('click', () => view.ctx.store.set({ allLines: all }));
  if (!keep) {
    note.append('tspan').text(`all ${r.groups.length} groups drawn · `);
    toggle(`the ${o.topN} worst and a band`, false);
    return;
  }
  const others = r.groups.length - keep.size;
  note.append('tspan').text(`${keep.size} worst of ${r.groups.length} groups by p${r.percentiles[rankPercentile(r.percentiles)]}; ${others} as grey bands · `);
  toggle('every line', true);
  const bands = restBands(r, keep, o.dom[0] - r.quantum_ms, o.dom[1] + r.quantum_ms);
  const area = d3
    .area()
    .digits(1)
    .x((/** @type {any} */ d) => o.x(d.t))
    .y0((/** @type {any} */ d) => o.y(Math.max(o.y.domain()[0], d.lo)))
    .y1((/** @type {any} */ d) => o.y(Math.min(o.y.domain()[1], d.hi)));
  const gb = plot.insert('g', ':first-child').attr('class', 'rest-bands');
  bands.forEach((b, pi) => {
    if (!b.length || o.hidden.has(`p:${r.percentiles[pi]}`)) return;
    gb.append('path').attr('d', area(/** @type {any} */ (b))).attr('fill', c.muted).attr('fill-opacity', 0.18).attr('data-p', r.percentiles[pi]);
  });
}
