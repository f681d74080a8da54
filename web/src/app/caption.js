// The caption of an exported image (PNG, SVG): what the picture shows and
// of which data, so it still says so when pasted into a report. Pure.
import { middleTruncate } from './names.js';
import { formatTime, formatRelative, formatQuantum } from '../util/format.js';
import { unitLabel } from '../model/units.js';
import { percentileName } from '../model/percentiles.js';

/** @type {Record<string, string>} */
const TITLES = {
  pctiles: 'Latency percentiles over time',
  heatmap: 'Latency heat map',
  surface: 'Percentile surface',
  spectrum: 'Percentile spectrum',
  groups: 'One percentile per group over time',
  density: 'Host density',
};

/** @type {Record<string, string>} */
const DIRS = { r: 'read', w: 'write', t: 'trim' };

/**
 * @param {{view: string, state: import('./state.js').State, files: string[], extent: [number, number] | null,
 *   absolute: boolean, groups: string[], heatRows?: string}} c
 *   files: names of the logs in the picture (excluded ones left out); groups: the result's groups
 * @returns {string[]} title, then context lines
 */
export function exportCaption(c) {
  const s = c.state;
  const n = c.files.length;
  const shown = c.files.slice(0, 3).map((f) => middleTruncate(f, 40));
  const files = n ? `${n} log${n === 1 ? '' : 's'}: ${shown.join(', ')}${n > 3 ? `, … (${n - 3} more)` : ''}` : 'no logs';
  const range = s.range || c.extent;
  // Relative times with the quantum's precision: "2 s … 5 s", not "2.000 s".
  const at = (/** @type {number} */ t) => (c.absolute ? formatTime(t, true) : formatRelative(t, s.quantum_ms));
  const time = range ? `${s.range ? 'time' : 'whole run'} ${at(range[0])} … ${at(range[1])}` : 'whole run';
  const dirs = s.directions
    .split(',')
    .map((d) => DIRS[d] || d)
    .join(', ');
  const parts = [`quantum ${formatQuantum(s.quantum_ms)}`, time];
  const more = [];
  // The heat map and the surface show the cluster (docs/page-methods.md); the other views the chosen groups.
  const gs = c.groups.filter((g) => g !== 'all');
  const groups = c.view === 'heatmap' || c.view === 'surface' || !gs.length ? 'cluster' : gs.length > 4 ? `${gs.slice(0, 4).join(', ')}, … (${gs.length} groups)` : gs.join(', ');
  more.push(`groups: ${groups}`);
  more.push(`directions: ${dirs}`);
  if (c.view === 'pctiles') more.push(s.percentiles.map(percentileName).join(' '));
  if (c.view === 'heatmap' && c.heatRows) more.push(`rows: ${c.heatRows}`);
  more.push(`unit ${unitLabel(s.unit)}`);
  if (s.kinds) more.push(`kind ${s.kinds}`);
  if (s.method !== 'interp') more.push(`method ${s.method}`);
  if (s.co_interval_ms > 0 && (c.view === 'pctiles' || c.view === 'spectrum')) more.push(`CO interval ${s.co_interval_ms} ms`);
  return [`latscope — ${TITLES[c.view] || c.view}`, files, parts.join(' · '), more.join(' · ')];
}
