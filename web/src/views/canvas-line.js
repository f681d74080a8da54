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

/**
 * Adds the SLA shading of one line to ctx's current path: for each quantum
 * {t, v, w} that breaks the rule, the box from the threshold's y (ty) to
 * the value's, x from t to t + w. Consecutive quanta (t = the last one's
 * t + w) make one step-shaped polygon, the union of their boxes, so a line
 * is one fill(): a box each was one fillRect per quantum, 0.6 s of an SLA
 * rule on 200 hosts at 1 s (docs/page-views.md "SLA"). A run narrower than
 * a pixel is widened to one, as its box was, so it stays visible.
 * @param {{moveTo: (x: number, y: number) => void, lineTo: (x: number, y: number) => void, closePath: () => void}} ctx
 * @param {{t: number, v: number, w: number}[]} pts  in time order
 * @param {(t: number) => number} xOf  time -> pixels
 * @param {(v: number) => number} yOf  value -> pixels (clamped to the plot)
 * @param {number} ty  the threshold's y
 */
export function traceShade(ctx, pts, xOf, yOf, ty) {
  for (let a = 0; a < pts.length; ) {
    let b = a + 1;
    while (b < pts.length && pts[b].t === pts[b - 1].t + pts[b - 1].w) b++;
    const x0 = xOf(pts[a].t);
    const x1 = Math.max(x0 + 1, xOf(pts[b - 1].t + pts[b - 1].w));
    ctx.moveTo(x0, ty);
    for (let k = a; k < b; k++) {
      const y = yOf(pts[k].v);
      ctx.lineTo(k === a ? x0 : xOf(pts[k].t), y);
      ctx.lineTo(k === b - 1 ? x1 : xOf(pts[k].t + pts[k].w), y);
    }
    ctx.lineTo(x1, ty);
    ctx.closePath();
    a = b;
  }
}
