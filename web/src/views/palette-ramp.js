// A grid of cells drawn in a palette (the heat map, the surface, the host
// density): one image pixel per (column, row) stretched onto the plot, and
// the palette's ramp as a legend. What a cell's level means is the view's;
// this file only turns levels into pixels.
import { formatCount } from '../util/format.js';

/**
 * The cells as an image of cols x rows pixels, row 0 at the bottom: level(q,
 * r) in [0, 1] is the palette's colour (clamped), below 0 the background.
 * @param {number} cols @param {number} rows @param {Uint8ClampedArray} lut paletteLut()
 * @param {(q: number, r: number) => number} level
 * @returns {HTMLCanvasElement}
 */
export function cellImage(cols, rows, lut, level) {
  const off = document.createElement('canvas');
  off.width = cols;
  off.height = rows;
  const octx = /** @type {CanvasRenderingContext2D} */ (off.getContext('2d'));
  const img = octx.createImageData(cols, rows);
  for (let r = 0; r < rows; r++) {
    for (let q = 0; q < cols; q++) {
      const v = level(q, r);
      if (!(v >= 0)) continue;
      const li = Math.min(255, Math.round(v * 255)) * 4;
      img.data.set(lut.subarray(li, li + 4), ((rows - 1 - r) * cols + q) * 4);
    }
  }
  octx.putImageData(img, 0, 0);
  return off;
}

/**
 * Clears the canvas and stretches the image's columns [sx, sx + sw) (the
 * visible time range, in columns) over its width, `height` px tall; columns
 * outside the image stay empty.
 * @param {HTMLCanvasElement} canvas @param {HTMLCanvasElement} image cellImage()
 * @param {number} sx @param {number} sw @param {number} height
 */
export function drawColumns(canvas, image, sx, sw, height) {
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingEnabled = false;
  const cx0 = Math.max(0, sx);
  const cx1 = Math.min(image.width, sx + sw);
  if (cx1 > cx0) ctx.drawImage(image, cx0, 0, cx1 - cx0, image.height, ((cx0 - sx) / sw) * canvas.width, 0, ((cx1 - cx0) / sw) * canvas.width, height);
}

/**
 * The palette's ramp, low at the bottom, as 64 rects 12 px wide and h px
 * tall in the legend group lg (a d3 selection); the view labels it.
 * @param {any} lg @param {Uint8ClampedArray} lut @param {number} h
 */
export function rampLegend(lg, lut, h) {
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
}

/**
 * The note over the top right of a grid that counts what lies outside its
 * rows (below the first edge, above the last): said, not drawn.
 * @param {any} g the plot's group @param {{above: number, below: number}} grid
 * @param {number} w the plot's width @param {string} muted @param {string} what "" or "samples "
 */
export function outsideNote(g, grid, w, muted, what) {
  if (!(grid.above > 0 || grid.below > 0)) return;
  g.append('text')
    .attr('class', 'outside-note')
    .attr('x', w)
    .attr('y', -2)
    .attr('text-anchor', 'end')
    .attr('fill', muted)
    .text(`${formatCount(grid.above)} ${what}above, ${formatCount(grid.below)} below the shown range`);
}
