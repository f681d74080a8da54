// The percentiles view's densest charts (more series than DENSE_SERIES):
// each line's pixels set straight into a buffer, laid over the canvas once
// all are drawn. There, Chromium's canvas spent about a second per draw on
// 1,200 hairlines of 3,600 points (stroking, then rasterising the path when
// the canvas was shown; docs/page-views.md "Dense lines as pixels").

/**
 * @typedef {object} PixelLine  one series over a group's rows, in time order
 * @property {ArrayLike<number>} t  row i's time: t[i] (ms)
 * @property {ArrayLike<number>} v  row i's value: v[i * stride + at] (NaN: none)
 * @property {number} stride @property {number} at
 * @property {ArrayLike<number>} rows  the group's row indices
 * @property {number} a @property {number} b  rows[a..b) are drawn
 * @property {number} kx @property {number} cx  x = cx + kx * t, device pixels
 * @property {number} ky @property {number} cy  y = cy + ky * v (ln v on a log axis)
 * @property {boolean} log  a log axis: values not above 0 are gaps
 * @property {number} color  the pixel to set (pixelOf)
 */

/**
 * Sets the pixels of the polyline through the rows' points, 1 device pixel
 * wide and without anti-aliasing: in every pixel column a segment crosses,
 * the pixels from its lowest to its highest y in that column, so steep
 * segments have no holes. Each column is filled once, from the y range of
 * every segment part in it (at 1 s quanta over an hour, 3-4 rows share a
 * column). What lies outside the buffer is clipped, never moved onto its
 * edge: a line leaving the plot must not look like data at the edge. Gaps
 * and lone points as canvas-line.js traceRows: a row without a value lifts
 * the pen; a point alone draws nothing.
 * @param {Uint32Array} pix  w x h pixels, row by row
 * @param {number} w @param {number} h
 * @param {PixelLine} l
 */
export function pixelLine(pix, w, h, l) {
  const { t, v, stride, at, rows, kx, cx, ky, cy, log, color } = l;
  // Fills column c from y0 to y1 (either order), clipped to the buffer.
  const fill = (/** @type {number} */ c, /** @type {number} */ y0, /** @type {number} */ y1) => {
    if (c < 0 || c >= w) return;
    let lo = Math.floor(y0 < y1 ? y0 : y1);
    let hi = Math.floor(y0 < y1 ? y1 : y0);
    if (lo < 0) lo = 0;
    if (hi > h - 1) hi = h - 1;
    for (let k = lo * w + c, end = hi * w + c; k <= end; k += w) pix[k] = color;
  };
  let pen = false;
  let drawn = false;  // the current column holds part of a segment
  let col = 0;
  let lo = 0;
  let hi = 0;
  let px = 0;
  let py = 0;
  for (let k = l.a; k < l.b; k++) {
    const i = rows[k];
    const val = v[i * stride + at];
    if (!(val === val) || (log && !(val > 0))) {
      if (drawn) fill(col, lo, hi);
      pen = drawn = false;
      continue;
    }
    const x = cx + kx * t[i];
    const y = cy + ky * (log ? Math.log(val) : val);
    const c = Math.floor(x);
    if (!pen) {
      pen = true;
      col = c;
      lo = hi = y;
    } else if (c === col) {
      if (y < lo) lo = y;
      else if (y > hi) hi = y;
      drawn = true;
    } else if (c > col) {
      // Leaves the column at its right edge, crosses the columns between,
      // enters column c at its left edge.
      const slope = (y - py) / (x - px);
      const out = py + (col + 1 - px) * slope;
      if (out < lo) lo = out;
      else if (out > hi) hi = out;
      fill(col, lo, hi);
      for (let m = Math.max(col + 1, 0), e = Math.min(c - 1, w - 1); m <= e; m++) fill(m, py + (m - px) * slope, py + (m + 1 - px) * slope);
      const into = py + (c - px) * slope;
      col = c;
      lo = into < y ? into : y;
      hi = into < y ? y : into;
      drawn = true;
    } else {
      // Back in time (not in a group's rows, which are in time order): the
      // same pixels, a column at a time from the right.
      const slope = (py - y) / (px - x);
      const out = py + (col - px) * slope;
      fill(col, Math.min(lo, out), Math.max(hi, out));
      for (let m = Math.min(col - 1, w - 1), e = Math.max(c + 1, 0); m >= e; m--) fill(m, py + (m - px) * slope, py + (m + 1 - px) * slope);
      const into = py + (c + 1 - px) * slope;
      col = c;
      lo = into < y ? into : y;
      hi = into < y ? y : into;
      drawn = true;
    }
    px = x;
    py = y;
  }
  if (drawn) fill(col, lo, hi);
}

/**
 * A CSS colour as the pixel pixelLine sets: RGBA bytes read as one
 * little-endian 32-bit word (every browser the page runs in).
 * @param {{r: number, g: number, b: number, opacity: number}} rgb  d3.rgb()
 */
export function pixelOf(rgb) {
  const a = Math.round(255 * rgb.opacity);
  return ((a << 24) | (Math.round(rgb.b) << 16) | (Math.round(rgb.g) << 8) | Math.round(rgb.r)) >>> 0;
}
