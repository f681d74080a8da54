// Page state with change notification. Views read it, controls write it;
// `set` batches keys and tells listeners which changed so the app only
// re-queries what depends on them (e.g. the colour palette needs no query).
import { DEFAULTS } from './options.js';

/** @typedef {'pctiles' | 'heatmap' | 'surface' | 'spectrum' | 'groups'} ViewName */

/**
 * @typedef {object} State
 * @property {number} quantum_ms
 * @property {number} adaptive                 percentiles view: adaptive quanta at this accuracy (0 = fixed quanta; docs/uncertainty.md)
 * @property {string[]} percentiles
 * @property {string} group_by
 * @property {string} directions
 * @property {string} method
 * @property {string} unit
 * @property {'per-io'|'hist'} account        a job with both a histogram and a per-I/O log: which counts its I/Os (options.js accountsOf)
 * @property {string} kinds                    latency kinds ('' = the engine's default: clat when several)
 * @property {number} co_interval_ms           coordinated-omission expected interval (0 = off)
 * @property {Record<string, number>} offsets   host or file name -> ms
 * @property {string[]} exclude_sources
 * @property {string[]} exclude_hosts
 * @property {[number, number] | null} range    brushed time range, ms
 * @property {ViewName} view
 * @property {'light'|'dark'} theme
 * @property {boolean} yLog
 * @property {boolean} showMean
 * @property {boolean} showBand
 * @property {string[]} sla                     SLA rules, normalised ("p99<2ms", app/sla.js)
 * @property {'heat'|'top'|'multiples'} groupsMode  groups view: group x time heat map, top-N lines, small multiples
 * @property {string} groupsP                  groups view: the percentile shown ("99", "100" = max)
 * @property {number} topN                     groups view: worst groups drawn as lines
 * @property {'name'|'worst'} groupsSort       groups view: row / chart order
 * @property {string[]} hidden                 legend keys of hidden series ("g:host=a", "p:99.9", "band")
 * @property {string} palette
 * @property {'linear'|'log'|'false'} colorMode
 * @property {boolean} clipOutliers
 * @property {boolean} heatLines               percentile lines over the heat map
 * @property {[number, number] | null} yZoomNs heat map latency range
 * @property {'latency'|'bs'|'offset'} heatY    heat map rows (bs/offset: per-I/O logs)
 * @property {number} surfaceP                 percentile picked on the surface
 */

/** @returns {State} */
export function initialState() {
  return {
    ...DEFAULTS,
    percentiles: DEFAULTS.percentiles.slice(),
    kinds: '',
    co_interval_ms: 0,
    adaptive: 0,
    offsets: {},
    exclude_sources: [],
    exclude_hosts: [],
    range: null,
    view: 'pctiles',
    theme: 'light',
    yLog: true,
    showMean: true,
    showBand: true,
    sla: [],
    groupsMode: 'heat',
    groupsP: '99',
    topN: 5,
    groupsSort: 'name',
    hidden: [],
    palette: 'viridis',
    colorMode: 'log',
    clipOutliers: false,
    heatLines: true,
    yZoomNs: null,
    heatY: 'latency',
    surfaceP: 99,
  };
}

export class Store {
  /** @param {State} state */
  constructor(state) {
    this.state = state;
    /** @type {((changed: Set<string>, s: State) => void)[]} */
    this.listeners = [];
  }

  /** @param {Partial<State>} patch */
  set(patch) {
    /** @type {Set<string>} */
    const changed = new Set();
    // Keys come from a Partial<State>, so each value fits its key.
    const state = /** @type {Record<string, unknown>} */ (this.state);
    for (const [k, v] of Object.entries(patch)) {
      if (JSON.stringify(state[k]) !== JSON.stringify(v)) {
        state[k] = v;
        changed.add(k);
      }
    }
    if (changed.size) for (const l of this.listeners) l(changed, this.state);
  }

  /** @param {(changed: Set<string>, s: State) => void} f */
  subscribe(f) {
    this.listeners.push(f);
  }
}
