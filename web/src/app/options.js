// The page's query options and how they become engine options. The defaults
// are core's (model/option-defaults.js, written by core: `latscope pctiles`
// without flags), so the CSV export right after a load equals `latscope
// pctiles FILE...`. account: a job with both a histogram and a per-I/O log,
// which counts its I/Os (the CLI's --account; never both).
import { ENGINE_DEFAULTS, QUANTUM_PRESETS_MS } from '../model/option-defaults.js';

export const DEFAULTS = ENGINE_DEFAULTS;

/** The account choices (`latscope --account`): state value -> what the control says. */
export const ACCOUNTS = Object.freeze([
  ['per-io', 'per-I/O logs where a job has both'],
  ['hist', 'histogram logs'],
]);

/**
 * The engine's "accounts" option for the page state: [] (the engine's
 * default, per-I/O logs first) or ['hist']. The queries and the trust
 * summary both take it from here, so the table names the files the
 * queries leave out.
 * @param {{account?: string}} s
 * @returns {string[]}
 */
export function accountsOf(s) {
  return s.account === 'hist' ? ['hist'] : [];
}

/** Quantum choices of the selector, ms (100 ms ... 10 min): core's presets (quanta.h), which its default quantum rounds to. */
export const QUANTA = QUANTUM_PRESETS_MS;

/** Presets offered as toggles (the default percentiles); "100" is shown as max. */
export const PRESET_PERCENTILES = ENGINE_DEFAULTS.percentiles;

/**
 * Engine options from the page state. Only keys the engine knows; empty
 * selections are left out so a fresh page sends exactly the CLI defaults.
 * @param {import('./state.js').State} s
 * @param {{range?: boolean}} [o] include the brushed time range as from/to
 */
export function engineOptions(s, o = {}) {
  /** @type {Record<string, any>} */
  const opts = {
    quantum_ms: s.quantum_ms,
    percentiles: s.percentiles.slice(),
    group_by: s.group_by,
    directions: s.directions,
    method: s.method,
    unit: s.unit,
  };
  if (s.kinds) opts.kinds = s.kinds;
  const accounts = accountsOf(s);
  if (accounts.length) opts.accounts = accounts;
  if (s.co_interval_ms > 0) opts.co_interval_ms = s.co_interval_ms;
  const offsets = Object.fromEntries(Object.entries(s.offsets).filter(([, v]) => Number(v) !== 0));
  if (Object.keys(offsets).length) opts.offsets = offsets;
  if (s.exclude_sources.length) opts.exclude_sources = s.exclude_sources.slice();
  if (s.exclude_hosts.length) opts.exclude_hosts = s.exclude_hosts.slice();
  if (o.range && s.range) {
    opts.from_ms = s.range[0];
    opts.to_ms = s.range[1];
  }
  return opts;
}

/**
 * Group-by choices before anything is loaded: value understood by the engine
 * (label names) -> title. After a load, sources.js groupingsFor lists the
 * labels the loaded logs carry (tag, run, kind too).
 * @type {[string, string][]}
 */
export const GROUPINGS = [
  ['all', 'cluster'],
  ['host', 'each host'],
  ['job', 'each job'],
  ['dir', 'read vs write'],
  ['file', 'each file'],
  ['host,dir', 'host × direction'],
  ['host,job', 'host × job'],
];
