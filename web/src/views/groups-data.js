import { naturalCompare } from '../util/natural-order.js';
// Pure shaping for the groups view (hundreds of hosts or jobs): a group x
// quantum matrix of one percentile, the ranking of groups by that
// percentile over the run, the band of the groups not drawn as lines, and
// which sources make up one group (for its own latency heat map). No DOM,
// so vitest covers it. docs/page-views.md "Groups view".

/**
 * @typedef {object} GroupMatrix
 * @property {string[]} groups       engine group keys, in the result's order
 * @property {ArrayLike<number>} times  quantum starts (ms), ascending
 * @property {number} quantumMs
 * @property {Float64Array} values   groups x times, row-major by group; NaN: no value
 * @property {Float64Array} samples  groups x times
 * @property {import('../model/sla-rules.js').SlaVerdict[]} [sla]  core's SLA verdicts on the matrix's rows (its "sla" option)
 * @property {Uint8Array} [sla_marks]  [(group * times + time) * sla.length + k]: 1 where core found the cell breaks verdict k's rule
 */

/**
 * One percentile of a result matrix (engine/matrix.js, built in the worker).
 * @param {import('../engine/matrix.js').ResultMatrix} rm @param {number} pi
 * @returns {GroupMatrix}
 */
export function fromResultMatrix(rm, pi) {
  const P = rm.percentiles.length;
  let values = rm.values;
  if (P !== 1) {
    values = new Float64Array(rm.samples.length);
    for (let k = 0; k < values.length; k++) values[k] = rm.values[k * P + pi];
  }
  return { groups: rm.groups, times: rm.times, quantumMs: rm.quantum_ms, values, samples: rm.samples, ...(rm.sla ? { sla: rm.sla, sla_marks: rm.sla_marks } : {}) };
}

/**
 * Group order for rows and small multiples: by name (natural: host2 before
 * host10) or worst first by the run's percentile (ties by name).
 * @param {string[]} groups @param {Map<string, number> | null} runValue group -> percentile over the run
 * @param {'name'|'worst'} how
 * @returns {number[]} indices into groups
 */
export function groupOrder(groups, runValue, how) {
  const idx = groups.map((_, i) => i);
  const byName = (/** @type {number} */ a, /** @type {number} */ b) => naturalCompare(groups[a], groups[b]);
  if (how === 'worst' && runValue) {
    const v = (/** @type {number} */ i) => runValue.get(groups[i]) ?? -Infinity;
    return idx.sort((a, b) => v(b) - v(a) || byName(a, b));
  }
  return idx.sort(byName);
}

/**
 * The run's percentile per group from a query whose single quantum covers
 * the run (queries.js groupsRunOptions): percentiles are never averaged
 * over quanta, so the ranking is the engine's own percentile of each
 * group's whole distribution.
 * @param {any} r @param {number} pi
 * @returns {Map<string, number>}
 */
export function runValues(r, pi) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const row of r?.rows || []) {
    const v = row.p[pi];
    if (v == null) continue;
    const g = typeof row.group === 'number' ? r.groups[row.group] : row.group;
    // Only one quantum is asked for; if the engine split it, keep the highest.
    m.set(g, Math.max(m.get(g) ?? -Infinity, v));
  }
  return m;
}

/**
 * The N worst groups by the run's percentile, worst first.
 * @param {string[]} groups @param {Map<string, number>} runValue @param {number} n
 * @returns {string[]}
 */
export function topGroups(groups, runValue, n) {
  return groupOrder(groups, runValue, 'worst')
    .slice(0, Math.max(0, n))
    .map((i) => groups[i]);
}

/**
 * The band of the groups not drawn as lines: per quantum the lowest and the
 * highest value among them (their full envelope: no group is hidden inside
 * a percentile of groups), and how many had a value.
 * @param {GroupMatrix} m @param {Set<string>} drawn groups drawn as lines
 * @returns {{t: number, lo: number, hi: number, n: number}[]} quanta where some other group has a value
 */
export function othersBand(m, drawn) {
  const T = m.times.length;
  const others = m.groups.map((g, i) => (drawn.has(g) ? -1 : i)).filter((i) => i >= 0);
  /** @type {{t: number, lo: number, hi: number, n: number}[]} */
  const out = [];
  for (let k = 0; k < T; k++) {
    let lo = Infinity;
    let hi = -Infinity;
    let n = 0;
    for (const gi of others) {
      const v = m.values[gi * T + k];
      if (Number.isNaN(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      n++;
    }
    if (n) out.push({ t: m.times[k], lo, hi, n });
  }
  return out;
}

/**
 * Lowest positive and highest value of the matrix within quanta overlapping
 * [a, b) (a log colour scale or a shared y axis).
 * @param {GroupMatrix} m @param {[number, number]} dom @param {number[]} [rows] only these groups
 * @returns {[number, number] | null}
 */
export function valueSpan(m, dom, rows) {
  const T = m.times.length;
  let lo = Infinity;
  let hi = -Infinity;
  for (const gi of rows ?? m.groups.map((_, i) => i)) {
    for (let k = 0; k < T; k++) {
      const t = m.times[k];
      if (t + m.quantumMs <= dom[0] || t >= dom[1]) continue;
      const v = m.values[gi * T + k];
      if (!(v > 0)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return hi >= lo ? [lo, hi] : null;
}

/** "host=a;job=1" -> {host: 'a', job: '1'}. @param {string} key */
export function groupLabels(key) {
  /** @type {Record<string, string>} */
  const out = {};
  if (key === 'all') return out;
  for (const part of key.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

/** Host of a source as the engine's host label reads it ('local' when none). @param {any} src */
function hostOf(src) {
  return src.host || src.labels?.host || 'local';
}

/**
 * What the heat map leaves out to show one group alone (model/state.js
 * Focus): the logs of the other groups, by file name, and the group's
 * direction. Only logs are named (`sources` holds the usable logs), never a
 * host as a whole: a host exclusion would leave out the json+ output too
 * (its host is the client's, "local"), and with it the placement of
 * late-start jobs and the tails (docs/placement.md). Source-level labels
 * only (host, job, file, prefix, kind, run) and dir; a label that lives on
 * series (tag) cannot be selected this way: `unsupported` names it.
 * @param {string} key group key @param {any[]} sources usable logs
 * @param {string} directions the page's directions (a dir= group narrows them)
 * @returns {import('../model/state.js').Focus}
 */
export function selectionForGroup(key, sources, directions) {
  const want = groupLabels(key);
  const ex = new Set();
  let dirs = directions;
  /** @type {string[]} */
  const unsupported = [];
  for (const [label, value] of Object.entries(want)) {
    if (label === 'host') {
      for (const src of sources) if (hostOf(src) !== value) ex.add(src.name);
    } else if (label === 'dir') {
      const d = { read: 'r', write: 'w', trim: 't' }[value];
      if (d) dirs = d;
      else unsupported.push(label);
    } else if (['job', 'file', 'prefix', 'kind', 'run'].includes(label)) {
      for (const src of sources) {
        const v = label === 'file' ? (src.labels?.file ?? src.name) : label === 'job' ? (src.job || src.labels?.job) : src.labels?.[label];
        if ((v || 'none') !== value) ex.add(src.name);
      }
    } else unsupported.push(label);
  }
  return { key, exclude_sources: [...ex].sort(naturalCompare), directions: dirs, unsupported };
}
