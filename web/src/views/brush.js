// The brushes of the views: across time (the percentiles, the surface, the
// groups), a drag sets the shared time range and a double click clears it;
// over a grid of cells (the heat map, the host density), a box zooms, a
// click with no box may pick the cell, hovering names the cell under the
// pointer.
import * as d3 from 'd3';
import { showTip, hideTip } from './tooltip.js';

/**
 * A brush across time over the plot's top `h` pixels: a drag of at least a
 * quarter quantum zooms every view to it (onRange), a double click goes
 * back to the whole run (onRange(null)). Hovering is the caller's.
 * @param {any} g the plot's group @param {(px: number) => number} invert px -> ms
 * @param {number} w @param {number} h @param {number} quantumMs
 * @param {(r: [number, number] | null) => void} onRange
 * @returns {any} the brush's group, for the caller's hover
 */
export function timeBrush(g, invert, w, h, quantumMs, onRange) {
  /** @type {any} */
  const brush = d3
    .brushX()
    .extent([
      [0, 0],
      [w, h],
    ])
    .on('end', (ev) => {
      if (!ev.selection) return;
      const [a, b] = ev.selection.map(invert);
      g.select('.brush').call(brush.move, null);
      if (b - a >= quantumMs / 4) onRange([a, b]);
    });
  const bg = g.append('g').attr('class', 'brush').call(brush);
  bg.on('dblclick', () => onRange(null));
  return bg;
}

/**
 * Lays `brush` (d3.brushX() or d3.brush(), not yet set up) over the frame's
 * plot in `g`. The tooltip hides while a box is drawn: the redraw after the
 * zoom would otherwise leave it standing over cells it no longer describes.
 * @param {any} g the plot's group @param {{innerW: number, innerH: number, wrap: HTMLElement}} f the frame
 * @param {any} brush
 * @param {{box: (selection: any) => void, click?: (at: [number, number]) => void, reset: () => void, tip: (at: [number, number]) => string[] | null}} o
 *   box: a box was drawn (the brush's selection, in px); click: a click with no box, at px;
 *   reset: a double click; tip: the tooltip's lines at px, null for none
 */
export function cellBrush(g, f, brush, o) {
  brush
    .extent([
      [0, 0],
      [f.innerW, f.innerH],
    ])
    .on('start', () => hideTip(f.wrap))
    .on('end', (/** @type {any} */ ev) => {
      if (ev.selection) {
        g.select('.brush').call(brush.move, null);
        o.box(ev.selection);
        return;
      }
      if (o.click && ev.sourceEvent) o.click(/** @type {[number, number]} */ (d3.pointer(ev.sourceEvent, g.node())));
    });
  const bg = g.append('g').attr('class', 'brush').call(brush);
  bg.on('dblclick', o.reset);
  bg.on('mousemove', (/** @type {MouseEvent} */ ev) => {
    if (ev.buttons) return hideTip(f.wrap); // dragging a box
    const lines = o.tip(d3.pointer(ev));
    if (lines) showTip(f.wrap, ev, lines);
    else hideTip(f.wrap);
  });
  bg.on('mouseleave', () => hideTip(f.wrap));
}
