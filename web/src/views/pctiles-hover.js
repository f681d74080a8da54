// The percentiles view's pointer: a brush that sets the shared time range
// (a double click clears it) and the hover box with the values of the
// quantum under the pointer, its bands, samples and flags.
import * as d3 from 'd3';
import { timeBrush } from './brush.js';
import { showTip, hideTip } from './tooltip.js';
import { pointAt, groupIn, bandText, rowAt, cols, rowsOfGroup } from './pctiles-data.js';
import { formatTime, formatNumber } from '../util/format.js';
import { unitLabel } from '../model/units.js';

/**
 * What the pointer needs of the percentiles view (pctiles-view.js): its
 * frame, where a brushed range goes, and the bands an answer left out.
 * @typedef {object} PercentilesView
 * @property {import('./frame.js').Frame} frame
 * @property {{onRange: (r: [number, number] | null) => void}} ctx
 * @property {(r: import('../engine/columns.js').ResultColumns, range: [number, number], then: () => void) => import('../engine/columns.js').ResultColumns | null} bandsFor
 * @property {() => void} hoverAgain
 * @property {(() => void) | null} rehover
 * @property {{columns: number, quanta: number, from_ms: number, to_ms: number} | null} columns
 *   the answer keeps each pixel column's worst quantum (view-registry.js columnsAsk)
 */

const fmtVal = formatNumber;

/**
 * Brush sets the shared time range; hover shows the values of a quantum.
 * @param {PercentilesView} view
 * @param {any} g @param {any} x @param {any} y @param {number} h @param {any} r @param {any[]} series
 */
export function brushAndHover(view, g, x, y, h, r, series) {
  const f = view.frame;
  const hover = g.append('g').attr('class', 'hover-layer').style('pointer-events', 'none');
  const vline = hover.append('line').attr('y1', 0).attr('y2', f.innerH).attr('stroke', 'currentColor').attr('opacity', 0);
  const bg = timeBrush(g, x.invert, f.innerW, h, r.quantum_ms, view.ctx.onRange);
  const onMove = (/** @type {MouseEvent} */ ev) => {
    const [px] = d3.pointer(ev);
    const t = x.invert(px);
    if (r.adaptive) {
      vline.attr('x1', px).attr('x2', px).attr('opacity', 0.4);
      showTip(f.wrap, ev, adaptiveTip(r, series, t));
      return;
    }
    if (view.columns) {
      vline.attr('x1', px).attr('x2', px).attr('opacity', 0.4);
      showTip(f.wrap, ev, columnTip(r, series, t, view.columns));
      return;
    }
    const q = Math.floor((t - (r.t_ms[0] ?? 0)) / r.quantum_ms);
    const t0 = (r.t_ms[0] ?? 0) + q * r.quantum_ms;
    vline.attr('x1', px).attr('x2', px).attr('opacity', 0.4);
    const lines = [`${formatTime(t0, r.absolute_time)} … +${r.quantum_ms} ms`];
    // An answer without bands: this quantum's come in an answer of their
    // own (a few ms), and the hover is shown again with them.
    const bandSrc = r.bands !== false ? r : view.bandsFor(r, [t0, t0 + r.quantum_ms], view.hoverAgain);
    view.rehover = () => onMove(ev);
    let more = 0;
    for (const se of series) {
      const pt = pointAt(r, se, t0);
      if (!pt || pt.v == null) continue;
      const gi = bandSrc && bandSrc !== r && se.kind === 'p' ? groupIn(bandSrc, r.groups[se.gi]) : -1;
      const b = gi >= 0 && bandSrc ? pointAt(bandSrc, { ...se, gi }, t0) : pt;
      // Hundreds of groups: the first lines, then how many more.
      if (lines.length > 16) more++;
      else lines.push(`${se.label}: ${fmtVal(pt.v)} ${unitLabel(r.unit)}${b?.e ? ` (bin ±${fmtVal(b.e)})` : ''}${b ? bandText(b, fmtVal) : ''}`);
    }
    if (more) lines.push(`… ${more} more lines (the groups view shows them all)`);
    if (!bandSrc && series.some((se) => se.kind === 'p')) lines.push('bands: working them out…');
    // The rows of quantum t0: rows are in time order.
    let n = 0;
    /** @type {string[]} */
    const fl = [];
    for (let i = d3.bisectLeft(r.t_ms, t0); i < r.n && r.t_ms[i] === t0; i++) {
      n += r.samples[i];
      if (r.flag[i]) fl.push(r.flag_texts[r.flag[i]]);
    }
    lines.push(`samples: ${fmtVal(n)} (${fmtVal(n / (r.quantum_ms / 1000))} IOPS)`);
    if (fl.length) lines.push(`flags: ${[...new Set(fl)].join(' ')}`);
    if (series.some((se) => se.kind === 'p')) {
      lines.push('bin: the bin holding the value (dark band)');
      lines.push('95%: where the true percentile lies, given this many I/Os (light band)');
    }
    showTip(f.wrap, ev, lines);
  };
  bg.on('mousemove', onMove);
  bg.on('mouseleave', () => {
    view.rehover = null;
    vline.attr('opacity', 0);
    hideTip(f.wrap);
  });
}

/**
 * Hover text with adaptive quanta: each line's value in the row (of its
 * group) that holds time t, with that row's span and I/Os.
 * @param {any} r @param {any[]} series @param {number} t @returns {string[]}
 */
function adaptiveTip(r, series, t) {
  const lines = [`${formatTime(t, r.absolute_time)} (adaptive quanta)`];
  /** @type {Set<string>} groups whose row is already named */
  const seen = new Set();
  for (const se of series) {
    const row = rowAt(r, se.gi, t);
    if (!row || lines.length > 16) continue;
    if (!seen.has(`${se.gi}:${row.t_ms}`)) {
      seen.add(`${se.gi}:${row.t_ms}`);
      lines.push(`${r.groups.length > 1 ? `${r.groups[se.gi]}: ` : ''}${formatTime(row.t_ms, r.absolute_time)} … +${fmtVal(row.width_ms)} ms, ${fmtVal(row.samples || 0)} I/Os${row.flags ? ` (${row.flags})` : ''}`);
    }
    const v = se.kind === 'mean' ? row.mean : row.p[se.pi];
    if (v == null) continue;
    const pi = se.pi;
    lines.push(`  ${se.label}: ${fmtVal(v)} ${unitLabel(r.unit)}${se.kind === 'p' && row.err?.[pi] ? ` (bin ±${fmtVal(row.err[pi])})` : ''}${se.kind === 'p' ? bandText({ lo: row.lo?.[pi] ?? null, hi: row.hi?.[pi] ?? null }, fmtVal) : ''}`);
  }
  return lines;
}

/**
 * Hover text over an answer of each pixel column's worst quanta
 * (docs/page-views.md, "Worst quantum per column"): per line, its highest
 * value in the column under the pointer, the highest of the column's
 * quanta, and which quantum that is (core names it per value: value_t_ms).
 * @param {any} r @param {any[]} series @param {number} t the pointer's time
 * @param {{columns: number, from_ms: number, to_ms: number}} c
 * @returns {string[]}
 */
export function columnTip(r, series, t, c) {
  const w = (c.to_ms - c.from_ms) / c.columns;
  const k = Math.min(c.columns - 1, Math.max(0, Math.floor((t - c.from_ms) / w)));
  const c0 = c.from_ms + k * w;
  const c1 = c0 + w;
  // The column's rows start in it (the first column's may begin before it).
  /** @type {number[]} */
  const ts = [];
  const cc = cols(r);
  for (let i = k === 0 ? 0 : d3.bisectLeft(cc.t_ms, c0); i < cc.n && cc.t_ms[i] < c1; i++) if (ts[ts.length - 1] !== cc.t_ms[i]) ts.push(cc.t_ms[i]);
  const lines = [`column ${formatTime(c0, r.absolute_time)} … ${formatTime(c1, r.absolute_time)}: each line's worst ${r.quantum_ms} ms quantum`];
  let more = 0;
  for (const se of series) {
    let best = null;
    let at = NaN;
    for (const q of ts) {
      const pt = pointAt(r, se, q);
      if (pt && pt.v != null && (best == null || pt.v > best)) {
        best = pt.v;
        at = columnQuantum(cc, se, q) ?? q;
      }
    }
    if (best == null) continue;
    if (lines.length > 16) more++;
    else lines.push(`${se.label}: ${fmtVal(best)} ${unitLabel(r.unit)} (quantum ${formatTime(at, r.absolute_time)})`);
  }
  if (more) lines.push(`… ${more} more lines (the groups view shows them all)`);
  return lines;
}

/**
 * The quantum a column row's value of series `se` is from (core's
 * value_t_ms: per row the percentiles, then max, min, mean), or null when
 * the answer does not name it.
 * @param {any} c columns @param {{kind: string, gi: number, pi: number}} se @param {number} t the row's time
 * @returns {number | null}
 */
export function columnQuantum(c, se, t) {
  const P = c.percentiles.length;
  if (!c.value_t_ms || c.value_t_ms.length < c.n * (P + 3)) return null;
  const rows = rowsOfGroup(c, se.gi);
  const k = d3.bisector((/** @type {number} */ i) => c.t_ms[i]).left(rows, t);
  if (k >= rows.length || c.t_ms[rows[k]] !== t) return null;
  return c.value_t_ms[rows[k] * (P + 3) + (se.kind === 'mean' ? P + 2 : se.pi)];
}
