// The percentiles view's densest charts (more series than DENSE_SERIES):
// each line's pixels set straight into a buffer, laid over the canvas once
// all are drawn. There, Chromium's canvas spent about a second per draw on
// 1,200 hairlines of 3,600 points (stroking, then rasterising the path when
// the canvas was shown; docs/page-speed.md "Dense lines as pixels").
//
// Lines are set in a buffer held row by row, as an ImageData holds it; SLA
// boxes are blended in one held column by column (transpose):
// a box is one pixel column wide and often tall, a run of consecutive
// pixels there, where row by row each of its pixels was a cache line of
// its own. Lines are mostly flat: row by row, the next column's pixels are
// beside the last's (column by column, the lines took 20% longer to set in
// Chromium; docs/page-speed.md "Dense lines as pixels").

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

/**
 * Translucent boxes blended into the pixels, as the canvas draws a
 * fillRect with globalAlpha over them: each pixel becomes the box's colour
 * at `alpha` over what was there ("source-over" on straight, not
 * premultiplied, RGBA). For the SLA boxes over dense lines: 180,000 boxes
 * at 1 s were 0.3 s of fillRect (docs/page-speed.md "Dense lines as
 * pixels"). A box covers the device pixels whose centres it holds, at least
 * one column: neighbouring boxes of one line (a pixel column each) do not
 * overlap, where the canvas would blend their anti-aliased edges.
 * @param {Uint32Array} pix  w x h pixels, column by column
 * @param {number} w @param {number} h
 * @param {ArrayLike<number>} boxes  [x, y, width, height, ...] in CSS pixels, flat (shadeBoxer)
 * @param {number} scale  device pixels per CSS pixel
 * @param {number} color  the colour (pixelOf), its alpha ignored
 * @param {number} alpha  0..1
 */
export function shadePixels(pix, w, h, boxes, scale, color, alpha) {
  const r = color & 0xff;
  const g = (color >>> 8) & 0xff;
  const b = (color >>> 16) & 0xff;
  // The blend depends on the pixel's alpha byte through its weights only:
  // worked out once per alpha byte, not per pixel (200 hosts' boxes at 1 s
  // blend millions of pixels: 3.6x faster under Node, the same bits).
  const outA = new Uint32Array(256);
  const ks = new Float64Array(256);
  const kd = new Float64Array(256);
  for (let da = 1; da < 256; da++) {
    const keep = (da / 255) * (1 - alpha);
    const a = alpha + keep;
    outA[da] = Math.round(a * 255);
    ks[da] = alpha / a;
    kd[da] = keep / a;
  }
  const fresh = ((Math.round(alpha * 255) << 24) | (color & 0xffffff)) >>> 0;
  let lastD = -1;
  let lastOut = 0;
  for (let i = 0; i + 3 < boxes.length; i += 4) {
    const bx = boxes[i];
    const by = boxes[i + 1];
    const bw = boxes[i + 2];
    const bh = boxes[i + 3];
    const a = Math.round(bx * scale);
    const x0 = Math.max(0, a);
    const x1 = Math.min(w, Math.max(a + 1, Math.round((bx + bw) * scale)));
    const y0 = Math.max(0, Math.round(by * scale));
    const y1 = Math.min(h, Math.round((by + bh) * scale));
    for (let x = x0; x < x1; x++)
      for (let k = x * h + y0, end = x * h + y1; k < end; k++) {
        const d = pix[k];
        const da = d >>> 24;
        if (da === 0) {
          pix[k] = fresh;
          continue;
        }
        // Pixels in a run mostly hold the same colour (a line's, or one
        // blend of it): the last blend is reused.
        if (d === lastD) {
          pix[k] = lastOut;
          continue;
        }
        const ws = ks[da];
        const wd = kd[da];
        // Rounded as Math.round (the weighted sums are never negative).
        const nr = (r * ws + (d & 0xff) * wd + 0.5) | 0;
        const ng = (g * ws + ((d >>> 8) & 0xff) * wd + 0.5) | 0;
        const nb = (b * ws + ((d >>> 16) & 0xff) * wd + 0.5) | 0;
        lastOut = ((outA[da] << 24) | (nb << 16) | (ng << 8) | nr) >>> 0;
        lastD = d;
        pix[k] = lastOut;
      }
  }
}

/**
 * A buffer turned over: `pix` is w wide and h tall, row by row; `out` gets
 * the same pixels column by column (pixel (x, y) at x * h + y), which is
 * also an h-wide, w-tall buffer row by row. So transpose(pix, w, h, out)
 * holds the pixels for shadePixels, and transpose(out, h, w, pix) turns
 * them back into the rows an ImageData holds.
 * @param {Uint32Array} pix @param {number} w @param {number} h
 * @param {Uint32Array} out  w x h pixels
 * @returns {Uint32Array} out
 */
export function transpose(pix, w, h, out) {
  for (let x = 0; x < w; x++) for (let y = 0, k = x * h; y < h; y++, k++) out[k] = pix[y * w + x];
  return out;
}
