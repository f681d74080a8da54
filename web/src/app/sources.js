import { thousands } from '../util/format.js';
// Pure summaries of engine Source objects for the file and host tables, the
// status line and the group-by choices.

/** @typedef {import('../engine/inthread.js').Source} Source */
/** @typedef {import('../load/files.js').SkippedItem} SkippedItem */

/**
 * A file the engine read and found to be no latency log (job file, README,
 * IOPS log). One named like a log that holds something else is broken
 * instead (format 'ignored' too, but status not ok).
 * @param {any} src
 */
export function isIgnored(src) {
  return src.format === 'ignored' && !isBroken(src);
}

/** A file that should have been a log and could not be used. @param {any} src */
export function isBroken(src) {
  return !!src.status && src.status.ok === false;
}

/**
 * fio json/json+ output: one whole-run histogram per job and direction,
 * which time queries never add (core model.h Role::kWholeRun).
 * @param {any} src
 */
export function isWholeRun(src) {
  const series = src.series || [];
  return src.format === 'fio-json' || (series.length > 0 && series.every((/** @type {any} */ x) => x.role === 'whole-run'));
}

/** A usable latency log. @param {any} src */
export function isLog(src) {
  return !isBroken(src) && !isIgnored(src);
}

/**
 * Counts for the status line: "3 logs loaded, 2 files ignored, 1 file with errors".
 * Skipped paths (OS bookkeeping, .git folders) count as ignored files.
 * @param {any[]} sources @param {SkippedItem[]} [skipped]
 * @param {string} [took] e.g. "in 1.6 s", placed after the log count
 * @returns {{logs: number, ignored: number, broken: number, partial: number, text: string}}
 */
export function loadSummary(sources, skipped = [], took = '') {
  const logs = sources.filter(isLog).length;
  const ignored = sources.filter(isIgnored).length + skipped.reduce((a, s) => a + Math.max(1, s.files), 0);
  const broken = sources.filter(isBroken).length;
  const partial = sources.filter((s) => isLog(s) && s.read_error).length;
  const n = (/** @type {number} */ k, /** @type {string} */ one) => `${k} ${one}${k === 1 ? '' : 's'}`;
  const parts = [];
  if (ignored) parts.push(`${n(ignored, 'file')} ignored`);
  if (broken) parts.push(`${n(broken, 'file')} with errors`);
  if (partial) parts.push(`${n(partial, 'log')} read in part`);
  const rest = parts.length ? `${parts.join(', ')}${broken || partial ? ' (see the messages)' : ''}` : '';
  const text = logs
    ? `${n(logs, 'log')} loaded${took ? ` ${took}` : ''}${rest ? `, ${rest}` : ''}`
    : `No latency log among the ${n(sources.length + skipped.length, 'file')}${rest ? `: ${rest}` : ''}`;
  return { logs, ignored, broken, partial, text };
}

/**
 * @param {any} src Source from engine.loadFiles
 * @returns {{ok: boolean, message: string, format: string, host: string, jobs: string, dirs: string, records: string, repaired: string, skipped: number, skippedDetail: string, notes: string}}
 */
export function fileSummary(src) {
  const series = src.series || [];
  const ok = !!(src.status ? src.status.ok : true);
  const uniq = (/** @type {string[]} */ xs) => [...new Set(xs.filter((x) => x !== '' && x != null))];
  const dirs = uniq(series.map((/** @type {any} */ s) => s.dir));
  const jobs = uniq(series.map((/** @type {any} */ s) => s.job));
  const rep = series.map((/** @type {any} */ s) => !!s.repaired);
  const issues = (src.issues || []).filter((/** @type {any} */ i) => i.count > 0);
  // Lines are dropped by issues of severity error; warnings adjust values
  // (repair, saturation, merged duplicates); info is a note.
  const skipped = issues.filter((/** @type {any} */ i) => i.severity === 'error').reduce((/** @type {number} */ a, /** @type {any} */ i) => a + i.count, 0);
  const ex = src.examples || [];
  const describe = (/** @type {any[]} */ list) => list
    .map((/** @type {any} */ i) => {
      const e = ex.find((/** @type {any} */ x) => x.issue === i.name);
      // Examples not tied to a line (line 0: a series-level note) show no position.
      const at = e && e.line ? `line ${e.line}${e.column ? `, column ${e.column}` : ''}: ` : '';
      const where = e ? ` (e.g. ${at}${String(e.text).slice(0, 60)})` : '';
      return `${i.count} × ${i.description || i.name}${where}`;
    })
    .join('; ');
  // The warning list shows skipped lines and warnings other than the repair,
  // which has its own column (its text is that cell's tooltip).
  const detail = describe(issues.filter((/** @type {any} */ i) => i.severity === 'error' || (i.severity === 'warning' && i.name !== 'repaired')));
  const notes = describe(issues.filter((/** @type {any} */ i) => i.severity === 'info' || i.name === 'repaired'));
  return {
    ok,
    message: src.status?.message || '',
    format: src.format ? `${src.format}${src.layout ? ` (${src.layout})` : ''}` : '?',
    host: src.host || src.labels?.host || (src.format === 'fio-json' || (series.length && series.every((/** @type {any} */ x) => x.role === 'whole-run')) ? 'whole run' : ''),
    jobs: jobs.join(',') || src.job || '',
    dirs: dirs.map((d) => (d === 'read' ? 'r' : d === 'write' ? 'w' : d === 'trim' ? 't' : d)).join(''),
    records: thousands(Number(src.records || 0)),
    repaired: !series.length ? '' : rep.every(Boolean) ? 'yes' : rep.some(Boolean) ? 'partly' : 'no',
    skipped,
    skippedDetail: detail,
    notes,
  };
}

/**
 * The name that stands for logs without a host in the host table, in
 * offsets and in exclude_hosts; the engine accepts it for its "local" label.
 */
export const LOCAL_HOST = '(local)';

/**
 * Hosts of the usable sources with their file counts, sorted by name. `host`
 * is the key the engine options use: the host label, or LOCAL_HOST.
 * @param {any[]} sources @returns {{host: string, files: number}[]}
 */
export function hostsOf(sources) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const s of sources) {
    if (!isLog(s)) continue;
    // Whole-run histograms (fio json output) are not part of the time views,
    // so they have no host row (and no offset) here.
    const series = s.series || [];
    if (s.format === 'fio-json' || (series.length && series.every((/** @type {any} */ x) => x.role === 'whole-run'))) continue;
    /** @type {Set<string>} */
    const hosts = new Set();
    for (const x of series) hosts.add(x.labels?.host || s.labels?.host || s.host || LOCAL_HOST);
    if (!hosts.size) hosts.add(s.labels?.host || s.host || LOCAL_HOST);
    for (const h of hosts) m.set(h, (m.get(h) || 0) + 1);
  }
  return [...m.entries()].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true })).map(([host, files]) => ({ host, files }));
}

/** Labels every log has (host falls back to "local"): always offered. */
const BASE_GROUPS = ['host', 'job', 'dir', 'file'];
/** Labels offered when the loaded logs carry them with more than one value. */
const EXTRA_GROUPS = ['tag', 'run', 'kind'];

/** @type {Record<string, string>} */
const GROUP_TITLES = {
  all: 'cluster',
  host: 'each host',
  job: 'each job',
  dir: 'read vs write',
  file: 'each file',
  tag: 'each tag',
  run: 'each run',
  kind: 'lat / clat / slat',
  'host,dir': 'host × direction',
  'host,job': 'host × job',
  'tag,dir': 'tag × direction',
  'kind,dir': 'kind × direction',
};

/**
 * Group-by choices for the loaded logs: value understood by the engine
 * (label names, comma-combined) -> title. The four base labels always; tag,
 * run and kind when some log's series carry two or more values of them.
 * @param {any[]} sources @returns {[string, string][]}
 */
export function groupingsFor(sources) {
  /** @type {Map<string, Set<string>>} */
  const values = new Map();
  for (const s of sources) {
    if (!isLog(s)) continue;
    for (const x of s.series || []) {
      if (x.role === 'whole-run') continue;
      for (const name of EXTRA_GROUPS) {
        const v = x.labels?.[name] ?? s.labels?.[name];
        if (v === undefined || v === '') continue;
        if (!values.has(name)) values.set(name, new Set());
        /** @type {Set<string>} */ (values.get(name)).add(v);
      }
    }
  }
  const extra = EXTRA_GROUPS.filter((n) => (values.get(n)?.size ?? 0) > 1);
  const list = ['all', ...BASE_GROUPS, ...extra, 'host,dir', 'host,job', ...extra.filter((n) => n !== 'run').map((n) => `${n},dir`)];
  return list.map((v) => [v, GROUP_TITLES[v] ?? `each ${v.replace(',', ' × ')}`]);
}

