// Pure helpers of the density view (docs/page-views.md, "Host density"):
// the colour of a count, the words of a cell and of its groups. The counts
// and each group's value come from core (engine heatmap with density_by,
// densityCell); nothing here computes a percentile or bins a value.
import { formatNumber, formatCount, formatTime } from '../util/format.js';
import { unitScale, unitLabel } from '../model/units.js';
import { percentileName } from '../model/percentiles.js';

/**
 * Maps a cell's group count to [0, 1] of the palette, -1 for an empty
 * cell (not painted). One group takes the palette's first colour, so a lone
 * slow host is a cell of its own colour, never lost in a ramp that starts
 * at 0; the busiest cell takes the last.
 * @param {ArrayLike<number>} counts
 * @returns {(c: number) => number}
 */
export function densityNormalizer(counts) {
  let max = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > max) max = counts[i];
  if (max <= 0) return () => -1;
  return (c) => (c > 0 ? (max > 1 ? Math.min(1, (c - 1) / (max - 1)) : 0) : -1);
}

/** The largest count of a grid (the legend's top). @param {ArrayLike<number>} counts */
export function maxCount(counts) {
  let max = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > max) max = counts[i];
  return max;
}

/**
 * What the groups are called: "hosts" for host, else "groups".
 * @param {string} by the density's label(s), "host" or "host,job"
 */
export function groupsWord(by) {
  return by === 'host' ? 'hosts' : by === 'job' ? 'jobs' : 'groups';
}

/** "1 host", "12 hosts". @param {number} n @param {string} by */
export function countText(n, by) {
  const word = groupsWord(by);
  return `${formatCount(n)} ${n === 1 ? word.replace(/s$/, '') : word}`;
}

/**
 * A cell's latency range in the display unit: "p99 812 … 870 µs".
 * @param {{lo: number, hi: number}} cell ns @param {string} p percentile as the page names it ("99")
 * @param {string} unit display unit
 */
export function cellRangeText(cell, p, unit) {
  const k = unitScale(unit);
  return `${percentileName(p)} ${formatNumber(cell.lo / k)} … ${formatNumber(cell.hi / k)} ${unitLabel(unit)}`;
}

/**
 * The hover lines of a cell: its time, its latency range, how many groups.
 * @param {{t0: number, t1: number, lo: number, hi: number, count: number}} cell
 * @param {{p: string, unit: string, by: string, absolute: boolean}} o
 * @returns {string[]}
 */
export function densityTipLines(cell, o) {
  return [`${formatTime(cell.t0, o.absolute)} … ${formatTime(cell.t1, o.absolute)}`, cellRangeText(cell, o.p, o.unit), `${countText(cell.count, o.by)}${cell.count ? ' (click to list)' : ''}`];
}

/**
 * The lines of a clicked cell's list: each group and its value as core
 * answered it (values in the answer's unit, shown with it).
 * @param {{unit: string, members: {group: string, value: number}[]}} cell
 * @returns {{group: string, text: string}[]}
 */
export function memberLines(cell) {
  return cell.members.map((m) => ({ group: m.group, text: `${formatNumber(m.value)} ${unitLabel(cell.unit)}` }));
}
