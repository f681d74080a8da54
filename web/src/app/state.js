// Page state with change notification. Views read it, controls write it;
// `set` batches keys and tells listeners which changed so the app only
// re-queries what depends on them (e.g. the colour palette needs no query).
import { DEFAULTS } from './options.js';

/** @typedef {import('../model/state.js').ViewName} ViewName */
/** @typedef {import('../model/state.js').State} State */

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
