// A series' rows traced into a canvas path, for the percentiles view's
// canvas lines (hundreds of groups, docs/page-views.md "Slices and the
// legend").

/**
 * Adds rows to ctx's current path as d3.line() with its default linear
 * curve would: each run of defined rows is one polyline (moveTo, then
 * lineTo), and a row whose value is NaN (or not above 0 on a log axis)
 * lifts the pen. Without d3's three accessor calls per point, which were a
 * third of a 200-host regroup's line drawing. A lone defined row only moves
 * the pen (d3 closes that one-point path, which draws nothing either).
 * @param {{moveTo: (x: number, y: number) => void, lineTo: (x: number, y: number) => void}} ctx
 * @param {ArrayLike<number>} rows  row indices, in drawing order
 * @param {(i: number) => number} value  the series' value of row i (NaN: none)
 * @param {(i: number) => number} xOf  row i's x in pixels
 * @param {(v: number) => number} yOf  a value's y in pixels
 * @param {boolean} log  a log axis: values not above 0 are gaps
 */
export function traceRows(ctx, rows, value, xOf, yOf, log) {
  let pen = false;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    const v = value(i);
    if (!(v === v) || (log && !(v > 0))) {
      pen = false;
      continue;
    }
    const px = xOf(i);
    const py = yOf(v);
    if (pen) ctx.lineTo(px, py);
    else {
      ctx.moveTo(px, py);
      pen = true;
    }
  }
}
