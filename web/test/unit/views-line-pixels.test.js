import { describe, it, expect } from 'vitest';
import * as d3 from 'd3';
import { traceRows } from '../../src/views/canvas-line.js';
import { pixelLine, pixelOf, shadePixels as shadeColumns, transpose } from '../../src/views/line-pixels.js';

const W = 60;
const H = 40;

/**
 * shadePixels on a buffer held row by row, as the view does it: through
 * the column-by-column one it works on (transpose), and back.
 * @param {Uint32Array} pix @param {number} w @param {number} h @param {number[]} boxes @param {number} scale @param {number} color @param {number} alpha
 */
function shadePixels(pix, w, h, boxes, scale, color, alpha) {
  const cols = transpose(pix, w, h, new Uint32Array(w * h));
  shadeColumns(cols, w, h, boxes, scale, color, alpha);
  transpose(cols, h, w, pix);
}

/**
 * pixelLine over values at times 0, 1, 2, … (x = cx + kx * t), and the
 * segments the canvas path of traceRows has for the same rows.
 * @param {number[]} values @param {{kx?: number, cx?: number, ky: number, cy: number, log?: boolean, rows?: number[], times?: number[]}} o
 */
function both(values, o) {
  const t = o.times ?? values.map((_, i) => i);
  const rows = o.rows ?? values.map((_, i) => i);
  const kx = o.kx ?? 3.3;
  const cx = o.cx ?? 2;
  const log = !!o.log;
  const pix = new Uint32Array(W * H);
  pixelLine(pix, W, H, { t, v: values, stride: 1, at: 0, rows, a: 0, b: rows.length, kx, cx, ky: o.ky, cy: o.cy, log, color: 7 });
  /** @type {number[][][]} */
  const lines = [];
  const rec = { moveTo: (/** @type {number} */ x, /** @type {number} */ y) => lines.push([[x, y]]), lineTo: (/** @type {number} */ x, /** @type {number} */ y) => lines[lines.length - 1].push([x, y]) };
  traceRows(rec, rows, (i) => values[i], (i) => cx + kx * t[i], (v) => o.cy + o.ky * (log ? Math.log(v) : v), log);
  return { pix, segs: lines.flatMap((l) => l.slice(1).map((p, k) => [l[k], p])) };
}

/** Reference: each segment on its own, column by column, its y range there. @param {number[][][]} segs */
function reference(segs) {
  const pix = new Uint32Array(W * H);
  for (let [[xa, ya], [xb, yb]] of segs) {
    if (xb < xa) [xa, ya, xb, yb] = [xb, yb, xa, ya];
    for (let c = Math.max(0, Math.floor(xa)); c <= Math.min(W - 1, Math.floor(xb)); c++) {
      const at = (/** @type {number} */ x) => (xb > xa ? ya + ((x - xa) * (yb - ya)) / (xb - xa) : ya);
      const y1 = xb > xa ? at(Math.max(xa, c)) : ya;
      const y2 = xb > xa ? at(Math.min(xb, c + 1)) : yb;
      for (let y = Math.max(0, Math.floor(Math.min(y1, y2))); y <= Math.min(H - 1, Math.floor(Math.max(y1, y2))); y++) pix[y * W + c] = 7;
    }
  }
  return pix;
}

/** Distance from (px, py) to the segment a-b. @param {number} px @param {number} py @param {number[]} a @param {number[]} b */
function dist(px, py, a, b) {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const t = Math.max(0, Math.min(1, ((px - a[0]) * dx + (py - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - a[0] - t * dx, py - a[1] - t * dy);
}

describe('dense lines as pixels (pixelLine)', () => {
  // Gaps (NaN), zeros (gaps on a log axis), lone points, steep steps, values off the top.
  const values = [5, 7, NaN, 3, 30, NaN, NaN, 0, 4, 9, 2, NaN, 8, 35, 0, 6, NaN, 1];
  for (const log of [false, true]) {
    const o = log ? { ky: -25 / Math.LN10, cy: 38, log } : { ky: -1, cy: 38 };
    it(`sets the pixels the canvas path passes through, and only those (${log ? 'log' : 'linear'} axis)`, () => {
      const { pix, segs } = both(values, o);
      expect(segs.length).toBeGreaterThan(4);
      // Along each segment every pixel of the path is set (no holes on steep ones).
      for (const [a, b] of segs)
        for (let s = 0; s <= 200; s++) {
          const x = a[0] + ((b[0] - a[0]) * s) / 200;
          const y = a[1] + ((b[1] - a[1]) * s) / 200;
          if (y >= 0 && y < H) expect(pix[Math.floor(y) * W + Math.floor(x)], `(${x}, ${y})`).toBe(7);
        }
      // Every pixel set touches the path: its centre is within half a diagonal.
      let set = 0;
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          if (!pix[y * W + x]) continue;
          set++;
          expect(Math.min(...segs.map(([a, b]) => dist(x + 0.5, y + 0.5, a, b))), `pixel (${x}, ${y})`).toBeLessThan(Math.SQRT1_2 + 1e-9);
        }
      expect(set).toBeGreaterThan(30);
      expect(Array.from(pix)).toEqual(Array.from(reference(segs)));
    });
  }
  it('several rows per pixel column, and segments across many columns: the same pixels as one segment at a time', () => {
    // 400 rows over ~40 columns (a 1 s hour on a narrow chart), then a jump across 10 columns.
    const vals = Array.from({ length: 400 }, (_, i) => 20 + 15 * Math.sin(i / 7) + ((i * 7919) % 13) - 6);
    const times = vals.map((_, i) => (i < 300 ? i : 300 + (i - 300) * 0.2 + (i === 300 ? 100 : 0)));
    const { pix, segs } = both(vals, { kx: 0.1, cx: 1.5, ky: -1, cy: 40, times });
    expect(Array.from(pix)).toEqual(Array.from(reference(segs)));
    expect(pix.filter((p) => p).length).toBeGreaterThan(100);
  });
  it('rows out of time order: the same pixels as one segment at a time', () => {
    const { pix, segs } = both([5, 20, 12, 30, 3, 25], { ky: -1, cy: 38, times: [0, 9, 4, 15, 1, 12] });
    expect(Array.from(pix)).toEqual(Array.from(reference(segs)));
  });
  it('clips what leaves the buffer instead of moving it onto the edge', () => {
    // From y 5 up through the top (y 0 at x 4.5) and on far above it.
    const up = both([5, -15, -400], { kx: 1, cx: 0, ky: 1, cy: 0, times: [2, 12, 40] }).pix;
    for (let y = 0; y < H; y++) for (let x = 5; x < W; x++) expect(up[y * W + x], `(${x}, ${y})`).toBe(0);
    expect(up[5 * W + 2]).toBe(7);
    expect(up[0 * W + 4]).toBe(7);
    // Wholly left of the buffer, right of it, below it, above it: nothing.
    for (const [times, vals] of [[[-30, -2], [1, 30]], [[W, W + 40], [1, 30]], [[0, W - 1], [H, H + 300]], [[0, W - 1], [-0.5, -300]]])
      expect(both(vals, { kx: 1, cx: 0, ky: 1, cy: 0, times }).pix.every((p) => p === 0), `${times} ${vals}`).toBe(true);
  });
  it('column by column and back: pixel (x, y) at x * h + y, then as it was', () => {
    const rows = Uint32Array.from({ length: W * H }, (_, k) => k + 1);
    const cols = transpose(rows, W, H, new Uint32Array(W * H));
    expect(cols[3 * H + 2]).toBe(2 * W + 3 + 1);
    expect(cols[(W - 1) * H + H - 1]).toBe(W * H);
    expect(Array.from(transpose(cols, H, W, new Uint32Array(W * H)))).toEqual(Array.from(rows));
  });
  it('colours as RGBA bytes', () => {
    const px = new Uint32Array([pixelOf(d3.rgb('#ff8000'))]);
    expect(Array.from(new Uint8Array(px.buffer))).toEqual([255, 128, 0, 255]);
  });
});

describe('SLA boxes blended into the pixels (shadePixels)', () => {
  /** Straight-alpha source-over of colour [r, g, b] at alpha a over pixel d, as RGBA bytes. @param {number[]} src @param {number} a @param {number[]} d */
  const over = (src, a, d) => {
    const da = d[3] / 255;
    const oa = a + da * (1 - a);
    return [0, 1, 2].map((c) => (src[c] * a + d[c] * da * (1 - a)) / oa).concat(oa * 255);
  };
  it('each pixel of a box is the colour at alpha over what was there; the others are left alone', () => {
    const w = 8;
    const h = 6;
    const pix = new Uint32Array(w * h);
    const bytes = new Uint8Array(pix.buffer);
    // Transparent, opaque line pixels and a half-transparent one.
    pix[1 * w + 2] = pixelOf(d3.rgb('#3060c0'));
    pix[2 * w + 2] = pixelOf(d3.rgb(200, 10, 40, 0.5));
    const before = Uint8Array.from(bytes);
    const color = pixelOf(d3.rgb('#ff8000'));
    // CSS box x 0.5..1.5, y 0.5..2.2 at 2 device pixels each: device x 1..3, y 1..4.4, the pixels centred in it 1..5.
    shadePixels(pix, w, h, [0.5, 0.5, 1, 1.7], 2, color, 0.25);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const k = 4 * (y * w + x);
        const was = Array.from(before.subarray(k, k + 4));
        const now = Array.from(bytes.subarray(k, k + 4));
        if (x >= 1 && x < 3 && y >= 1 && y < 4) {
          const want = over([255, 128, 0], 0.25, was);
          now.forEach((v, c) => expect(Math.abs(v - want[c]), `(${x}, ${y}) channel ${c}: ${now} vs ${want}`).toBeLessThanOrEqual(1));
        } else expect(now, `(${x}, ${y})`).toEqual(was);
      }
    // Twice over transparent: alpha 1 - 0.75^2, the colour unchanged.
    shadePixels(pix, w, h, [0.5, 0.5, 0.5, 0.5], 2, color, 0.25);
    expect(Array.from(bytes.subarray(4 * (1 * w + 1), 4 * (1 * w + 1) + 4))).toEqual([255, 128, 0, Math.round(255 * (1 - 0.75 * 0.75))]);
  });
  it('runs of one colour blend as each pixel alone', () => {
    const w = 8;
    const h = 3;
    const cs = [pixelOf(d3.rgb('#3060c0')), pixelOf(d3.rgb(200, 10, 40, 0.5)), 0, pixelOf(d3.rgb('#10a020'))];
    const pix = Uint32Array.from({ length: w * h }, (_, k) => cs[Math.floor(k / 3) % cs.length]);
    const alone = pix.map((p) => {
      const one = Uint32Array.of(p);
      shadePixels(one, 1, 1, [0, 0, 1, 1], 1, 0xff0080ff, 0.25);
      return one[0];
    });
    shadePixels(pix, w, h, [0, 0, w, h], 1, 0xff0080ff, 0.25);
    expect(Array.from(pix)).toEqual(Array.from(alone));
  });
  it('every pixel as the source-over formula rounds it, whatever was there', () => {
    // The formula, per pixel, with Math.round: what the weights worked out
    // per alpha byte must give bit for bit.
    const alpha = 0.15;
    const color = pixelOf(d3.rgb('#b07aa1'));
    const ref = (/** @type {number} */ d) => {
      const da = (d >>> 24) / 255;
      if (da === 0) return ((Math.round(alpha * 255) << 24) | (color & 0xffffff)) >>> 0;
      const keep = da * (1 - alpha);
      const a = alpha + keep;
      const ch = (/** @type {number} */ s) => Math.round(((color >>> s) & 0xff) * (alpha / a) + ((d >>> s) & 0xff) * (keep / a));
      return ((Math.round(a * 255) << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)) >>> 0;
    };
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216;
    const w = 64;
    const h = 64;
    // Every alpha byte, random colours, some runs of one colour.
    const pix = Uint32Array.from({ length: w * h }, (_, k) => (k % 7 === 0 ? 0xff102030 : ((k % 256) << 24) | Math.floor(rnd() * 0xffffff)) >>> 0);
    const want = pix.map(ref);
    shadePixels(pix, w, h, [0, 0, w, h], 1, color, alpha);
    expect(Array.from(pix)).toEqual(Array.from(want));
  });
  it('a box at least one device pixel wide, clipped to the buffer', () => {
    const w = 5;
    const h = 4;
    const pix = new Uint32Array(w * h);
    shadePixels(pix, w, h, [2.2, 1, 0.1, 1, -3, -2, 3.6, 2.7, 4.4, 3.4, 9, 9], 1, 0xff0000ff, 0.5);
    const set = (/** @type {number} */ x, /** @type {number} */ y) => pix[y * w + x] !== 0;
    expect(set(2, 1) && !set(3, 1) && !set(1, 1)).toBe(true);
    expect(set(0, 0) && !set(1, 0) && !set(0, 1)).toBe(true);
    expect(set(4, 3) && pix.filter((p) => p).length).toBe(3);
  });
});
