import { describe, it, expect } from 'vitest';
import * as d3 from 'd3';
import { traceRows, traceShade } from '../../src/views/canvas-line.js';

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

describe('SLA shading on the canvas (traceShade)', () => {
  const xOf = (/** @type {number} */ t) => t / 10;
  const yOf = (/** @type {number} */ v) => 100 - v;
  it('one step polygon per run of consecutive quanta: the union of their boxes', () => {
    const pts = [
      { t: 0, v: 50, w: 100 },
      { t: 100, v: 70, w: 100 },
      { t: 200, v: 60, w: 100 },
      // a gap, then a lone quantum, then another run
      { t: 500, v: 40, w: 100 },
      { t: 800, v: 45, w: 100 },
      { t: 900, v: 55, w: 100 },
    ];
    const rec = recorder();
    traceShade(rec, pts, xOf, yOf, 80);
    expect(rec.lines).toEqual([
      [[0, 80], [0, 50], [10, 50], [10, 30], [20, 30], [20, 40], [30, 40], [30, 80]],
      [[50, 80], [50, 60], [60, 60], [60, 80]],
      [[80, 80], [80, 55], [90, 55], [90, 45], [100, 45], [100, 80]],
    ]);
    // Every box's area is inside its polygon: the polygons' area is the boxes' sum.
    const area = (/** @type {number[][]} */ poly) => Math.abs(poly.reduce((s, [x, y], i) => s + x * poly[(i + 1) % poly.length][1] - poly[(i + 1) % poly.length][0] * y, 0)) / 2;
    const boxes = pts.reduce((s, p) => s + (xOf(p.t + p.w) - xOf(p.t)) * Math.abs(yOf(p.v) - 80), 0);
    expect(rec.lines.reduce((s, l) => s + area(l), 0)).toBeCloseTo(boxes, 9);
  });
  it('a run under a pixel wide is widened to one, as its box was', () => {
    const rec = recorder();
    traceShade(rec, [{ t: 0, v: 50, w: 2 }, { t: 2, v: 60, w: 2 }], xOf, yOf, 80);
    expect(rec.lines).toEqual([[[0, 80], [0, 50], [0.2, 50], [0.2, 40], [1, 40], [1, 80]]]);
  });
});
