import { describe, it, expect } from 'vitest';
import * as d3 from 'd3';
import { traceRows } from '../../src/views/canvas-line.js';

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
