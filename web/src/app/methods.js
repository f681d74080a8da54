// What the loaded inputs allow: the percentile methods (exact needs fio
// per-I/O logs), the latency kinds to choose from (lat/clat/slat), the heat
// map's y axes (block size and offset need per-I/O logs), and how the groups
// of a coordinated-omission query pair up. Pure, unit-tested without a DOM.
import { LOCAL_HOST, isLog } from './sources.js';

/** @typedef {{value: string, label: string, title: string, disabled: boolean}} Choice */

/** Percentile methods, as options_json.cc spells them, with what each means. */
export const METHODS = /** @type {const} */ ([
  ['interp', 'interp', 'interpolate inside the histogram bin (default)'],
  ['fio', 'fio', "fio's own value of the bin (fio_lat2 / json+ method)"],
  ['hdr', 'hdr', "HdrHistogram's getValueAtPercentile (highest equivalent value of the bin)"],
  ['exact', 'exact', 'exact nearest-rank percentiles of every I/O (fio per-I/O logs, write_lat_log)'],
]);

/** Latency kinds of fio per-I/O logs; the engine keeps clat (else lat, else slat) when several are selected. */
export const KINDS = ['clat', 'lat', 'slat'];

/** Heat map rows: latency, or block size / offset from per-I/O logs (HeatmapOptions::y). */
export const HEAT_Y = /** @type {const} */ ([
  ['latency', 'latency'],
  ['bs', 'block size'],
  ['offset', 'offset'],
]);

/**
 * The usable logs the selection keeps (files and hosts not excluded).
 * @param {any[]} sources @param {{exclude_sources: string[], exclude_hosts: string[]}} s
 */
export function selectedLogs(sources, s) {
  const exSrc = new Set(s.exclude_sources);
  const exHost = new Set(s.exclude_hosts);
  return sources.filter((src) => {
    if (!isLog(src) || exSrc.has(src.name)) return false;
    const series = src.series || [];
    const hosts = series.length ? series.map((/** @type {any} */ x) => x.labels?.host || src.labels?.host || src.host || LOCAL_HOST) : [src.labels?.host || src.host || LOCAL_HOST];
    return hosts.some((/** @type {string} */ h) => !exHost.has(h));
  });
}

/** A fio per-I/O latency log (write_lat_log). @param {any} src */
export function isPerIo(src) {
  return src.format === 'fio-lat';
}

/**
 * The method choices for these sources: exact only when every selected
 * input is a per-I/O log, with the reason as the title otherwise.
 * @param {any[]} sources @param {{exclude_sources: string[], exclude_hosts: string[]}} s
 * @returns {Choice[]}
 */
export function methodChoices(sources, s) {
  const sel = selectedLogs(sources, s);
  const other = sel.filter((x) => !isPerIo(x));
  let why = '';
  if (!sel.length) why = 'exact needs fio per-I/O logs (write_lat_log): none is loaded';
  else if (other.length) {
    const names = other.slice(0, 3).map((x) => x.name).join(', ');
    why = `exact needs every selected input to be a fio per-I/O log (write_lat_log); not one: ${names}${other.length > 3 ? ` and ${other.length - 3} more` : ''}`;
  }
  return METHODS.map(([value, label, title]) => {
    const off = value === 'exact' && !!why;
    return { value, label, title: off ? why : title, disabled: off };
  });
}

/** Whether exact percentiles are possible for this selection. @param {any[]} sources @param {{exclude_sources: string[], exclude_hosts: string[]}} s */
export function exactAllowed(sources, s) {
  return !methodChoices(sources, s).find((c) => c.value === 'exact')?.disabled;
}

/**
 * The latency kinds the usable logs hold (a series without a kind label
 * counts as clat, as in the engine), in KINDS order.
 * @param {any[]} sources @returns {string[]}
 */
export function kindsOf(sources) {
  const seen = new Set();
  for (const src of sources) {
    if (!isLog(src)) continue;
    const series = src.series || [];
    if (!series.length) seen.add(src.labels?.kind || 'clat');
    for (const x of series) seen.add(x.labels?.kind || src.labels?.kind || 'clat');
  }
  return KINDS.filter((k) => seen.has(k));
}

/**
 * Kind choices when several kinds are loaded ([] otherwise): '' is the
 * engine's default (clat, else lat, else slat), then each kind alone.
 * @param {string[]} kinds @returns {[string, string][]}
 */
export function kindChoices(kinds) {
  if (kinds.length < 2) return [];
  const dflt = KINDS.find((k) => kinds.includes(k));
  return [['', `${dflt} (default)`], ...kinds.filter((k) => k !== dflt).map((k) => /** @type {[string, string]} */ ([k, k]))];
}

/** Whether any usable log is a per-I/O log (heat map by bs/offset). @param {any[]} sources */
export function perIoLoaded(sources) {
  return sources.some((x) => isLog(x) && isPerIo(x));
}

/**
 * Parses the expected-interval field (ms): '' or 0 is off; else a positive
 * finite number. Throws with a sentence on anything else.
 * @param {string} text @returns {number}
 */
export function parseCoInterval(text) {
  const t = text.trim().replace(/\s*ms$/i, '');
  if (!t) return 0;
  const v = Number(t);
  if (!Number.isFinite(v) || v < 0) throw new Error(`"${text.trim()}" is not an interval in ms (empty or 0: off)`);
  return v;
}

