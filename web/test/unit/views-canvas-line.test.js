import { describe, it, expect } from 'vitest';
import * as d3 from 'd3';
import { traceRows, shadeBoxer } from '../../src/views/canvas-line.js';

/** A context that records the polylines a path is made of. */
function recorder() {
  /** @type {number[][][]} */
  const lines = [];
  return {
    lines,
    moveTo: (/** @type {number} */ x, /** @type {number} */ y) => lines.push([[x, y]]),
    lineTo: (/** @type {number} */ x, /** @type {number} */ y) => lines[lines.length - 1].push([x, y]),
    closePath: () => {},
  };
}

/** What is drawn: the polylines of two points or more. @param {number[][][]} lines */
const drawn = (lines) => lines.filter((l) => l.length > 1);

describe('canvas lines (traceRows)', () => {
  // Values with gaps (NaN), zeros and lone points between gaps.
  const values = [5, 7, NaN, 3, NaN, NaN, 0, 4, 9, 2, NaN, 8, 0, 0, 6, NaN, 1];
  const rows = values.map((_, i) => i);
  const value = (/** @type {number} */ i) => values[i];
  const xOf = (/** @type {number} */ i) => 10 + i * 3.5;
  for (const log of [false, true]) {
    it(`draws what d3.line's linear curve draws (${log ? 'log' : 'linear'} axis)`, () => {
      const yOf = log ? (/** @type {number} */ v) => 100 - 20 * Math.log10(v) : (/** @type {number} */ v) => 100 - 2 * v;
      const ours = recorder();
      traceRows(ours, rows, value, xOf, yOf, log);
      const theirs = recorder();
      d3.line()
        .defined((/** @type {any} */ i) => {
          const v = value(i);
          return v === v && (!log || v > 0);
        })
        .x((/** @type {any} */ i) => xOf(i))
        .y((/** @type {any} */ i) => yOf(value(i)))
        .context(/** @type {any} */ (theirs))(/** @type {any} */ (rows));
      expect(drawn(ours.lines)).toEqual(drawn(theirs.lines));
      expect(drawn(ours.lines).length).toBe(log ? 2 : 3);
    });
  }
  it('keeps the order it is given (thinned rows: a column\'s low then high)', () => {
    const ours = recorder();
    traceRows(ours, [3, 1, 2], (i) => i, (i) => i, (v) => -v, false);
    expect(ours.lines).toEqual([[[3, -3], [1, -1], [2, -2]]]);
  });
});

describe('SLA shading boxes (shadeBoxer)', () => {
  /** The boxes of the quanta, added one by one. @param {{t: number, v: number, w: number}[]} pts @param {(t: number) => number} xOf @param {(v: number) => number} yOf @param {number} ty */
  const shadeBoxes = (pts, xOf, yOf, ty) => {
    const b = shadeBoxer(xOf, yOf, ty);
    for (const p of pts) b.add(p.t, p.v, p.w);
    // Flat, four numbers per box: one array per box here.
    const flat = b.boxes();
    expect(flat.length % 4).toBe(0);
    return Array.from({ length: flat.length / 4 }, (_, i) => flat.slice(4 * i, 4 * i + 4));
  };
  const yOf = (/** @type {number} */ v) => 100 - v;
  /** Each quantum's own box, as the view drew it one by one. @param {{t: number, v: number, w: number}[]} pts @param {(t: number) => number} xOf @param {number} ty */
  const own = (pts, xOf, ty) =>
    pts.map((p) => {
      const a = xOf(p.t);
      const y = yOf(p.v);
      return [a, Math.min(ty, y), Math.max(1, xOf(p.t + p.w) - a), Math.abs(y - ty)];
    });
  it('quanta wider than a pixel: one box each, the box drawn before', () => {
    const pts = [
      { t: 0, v: 50, w: 100 },
      { t: 100, v: 70, w: 100 },
      { t: 400, v: 90, w: 100 },
    ];
    const xOf = (/** @type {number} */ t) => t / 10;
    expect(shadeBoxes(pts, xOf, yOf, 80)).toEqual(own(pts, xOf, 80));
  });
  it('quanta narrower than a pixel: one box per pixel column, covering every quantum', () => {
    // 3,600 quanta of 1 s over 900 px, values above and below the threshold's side.
    const pts = Array.from({ length: 3600 }, (_, i) => ({ t: i * 1000, v: 30 + ((i * 37) % 61), w: 1000 })).filter((_, i) => i % 7 !== 3);
    const xOf = (/** @type {number} */ t) => (t / 3600000) * 900;
    const boxes = shadeBoxes(pts, xOf, yOf, 80);
    expect(boxes.length).toBeLessThanOrEqual(900);
    expect(boxes.length).toBeGreaterThan(800);
    const eps = 1e-9;
    for (const [x, y, w, h] of own(pts, xOf, 80)) {
      const inside = boxes.some(([bx, by, bw, bh]) => bx <= x + eps && by <= y + eps && bx + bw >= x + w - eps && by + bh >= y + h - eps);
      expect(inside).toBe(true);
    }
  });
});
