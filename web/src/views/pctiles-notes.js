// The notes the percentiles chart writes over itself about how it is drawn:
// dense lines as hairlines, each pixel column's worst quantum, bands left
// out. Top right is shared: the columns note takes the band note's place
// (a column draws no bands), and both give way to the many-groups note
// (pctiles-rest-draw.js).
import { formatQuantum } from '../util/format.js';

/**
 * @param {any} g the chart
 * @param {{lines: number | null, columns: {columns: number, quanta: number} | null, bandNote: string | null, quantumMs: number, muted: string, w: number, mainH: number}} o
 *   lines: the number of lines when drawn as solid hairlines (else null); columns: the answer keeps
 *   each pixel column's worst quantum; bandNote: why bands are not drawn (null: said elsewhere or not at all)
 */
export function drawNotes(g, o) {
  const note = (/** @type {string} */ cls, /** @type {number} */ y, /** @type {string} */ text) =>
    g.append('text').attr('class', cls).attr('x', o.w).attr('y', y).attr('text-anchor', 'end').attr('fill', o.muted).text(text);
  if (o.lines != null) note('canvas-note', o.mainH - 6, `${o.lines} lines: solid hairlines (the Groups tab reads many groups one by one)`);
  if (o.columns) {
    // Said on the chart: what is drawn is each column's worst quantum, not every quantum (docs/page-views.md "Worst quantum per column").
    const k = Math.round(o.columns.quanta / o.columns.columns);
    note('columns-note', -10, `worst ${formatQuantum(o.quantumMs)} quantum of each pixel column (~${k} quanta a column)`).attr('data-testid', 'columns-note');
  } else if (o.bandNote) note('band-note', -10, o.bandNote);
}
