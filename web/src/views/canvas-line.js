// A series' rows traced into a canvas path, for the percentiles view's
// canvas lines (hundreds of groups, docs/page-speed.md "Slices and the
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
 * The SLA shading of one line as canvas boxes: add(t, v, w) for each
 * quantum that breaks the rule, in time order, then boxes(), four numbers
 * per box, flat: [x, y, w, h, x, y, w, h, ...] (an array per box was
 * 180,000 arrays for a rule on 200 hosts at 1 s, and 86 ms of garbage
 * collection in Chromium). Each
 * quantum's box goes from the threshold's y (ty) to the value's, at least
 * 1 px wide. Consecutive quanta that start in the same pixel column share
 * one box, as tall as the tallest of them: at 1 s over an hour a pixel
 * holds 3-4 quanta, and a fillRect each was 0.6 s of an SLA rule on 200
 * hosts (bench-groups-chromium.mjs --profile). One step polygon per run
 * instead took Chromium three times longer to rasterise. Every quantum's
 * own box lies inside the boxes returned. The view feeds it straight from
 * the columns: no object per quantum (at 1 s an SLA rule on 200 hosts
 * judges 720,000 of them).
 * @param {(t: number) => number} xOf  time -> pixels
 * @param {(v: number) => number} yOf  value -> pixels (clamped to the plot)
 * @param {number} ty  the threshold's y
 */
export function shadeBoxer(xOf, yOf, ty) {
  /** @type {number[]} */
  const out = [];
  let col = NaN;
  let x0 = 0;
  let x1 = 0;
  let lo = 0;
  let hi = 0;
  const flush = () => {
    if (col === col) out.push(x0, lo, x1 - x0, hi - lo);
  };
  return {
    /** @param {number} t @param {number} v @param {number} w */
    add(t, v, w) {
      const a = xOf(t);
      const b = Math.max(a + 1, xOf(t + w));
      const y = yOf(v);
      const c = Math.floor(a);
      if (c === col && a >= x0) {
        if (b > x1) x1 = b;
        if (y < lo) lo = y;
        if (y > hi) hi = y;
        return;
      }
      flush();
      col = c;
      x0 = a;
      x1 = b;
      lo = Math.min(ty, y);
      hi = Math.max(ty, y);
    },
    boxes() {
      flush();
      col = NaN;
      return out;
    },
  };
}

/**
 * Makes the browser rasterise what was drawn on a canvas so far, now. A
 * canvas records its drawing and rasterises it when it is next read: the
 * percentiles view's 48 dashed lines of 3,600 points (8 hosts at 1 s) were
 * recorded in slices of under 30 ms, then rasterised in one 177-228 ms task
 * when the finished canvas was copied to the shown one (bench-groups-chromium.mjs
 * --profile, `drawImage`). Read after each line, they rasterise in the
 * slice that drew them. The read is one pixel (`getImageData`): copying the
 * canvas instead copied its whole bitmap each time, and the drawing took
 * twice as long.
 * @param {CanvasRenderingContext2D} ctx
 */
export function flushCanvas(ctx) {
  ctx.getImageData(0, 0, 1, 1);
}
