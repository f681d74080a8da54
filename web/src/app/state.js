// The one store of the page: the view state (what the fragment carries and
// the controls and views change) and the session's state (what is loaded,
// how far loading is, what the status line says). `set` batches view keys
// and tells listeners which changed, so the app only re-queries what
// depends on them (e.g. the colour palette needs no query); the session
// reports what it loaded through `report`, and the sidebar draws it from
// here (session-panels.js).
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
    quantumPinned: false,
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
    allLines: false,
    groupsSort: 'name',
    hidden: [],
    palette: 'viridis',
    colorMode: 'log',
    clipOutliers: false,
    heatLines: true,
    yZoomNs: null,
    heatY: 'latency',
    surfaceP: 99,
    focus: null,
  };
}

/**
 * Where the loaded data came from: re-written into every fragment so that a
 * reload keeps it (url-sync.js).
 * @typedef {{urls: string[], data: string, demo: boolean}} Origin
 */

/**
 * A file while it loads, as the file table shows it.
 * @typedef {{state: string, bytesDone: number, bytesTotal: number, message?: string}} Pending
 */

/**
 * The session's state: what is loaded and how loading goes (session.js
 * reports it, session-panels.js and the URL draw it).
 * @typedef {object} SessionState
 * @property {{state: 'idle'|'loading'|'ready'|'error', text: string}} status the status line
 * @property {{shown: boolean, fraction: number, text?: string}} progress the progress bar and its line (no text: the line stays as it is)
 * @property {import('../engine/inthread.js').Source[]} sources the loaded files as the engine describes them
 * @property {string[] | null} resultHosts the hosts of a result read by levels whose loaded slice is summed over hosts (its series name none; level-view.js hosts)
 * @property {import('../load/files.js').SkippedItem[]} skipped paths left out before loading (OS bookkeeping, .git)
 * @property {Map<string, Pending>} pending files (or URLs) while they load, by name
 * @property {number} pendingTick the pending files' states moved (the table updates them in place when it can)
 * @property {string[]} fetchErrors errors of URLs that failed while the others loaded (shown with the file errors)
 * @property {import('../engine/inthread.js').TrustRow[] | null} trust the engine's trust summary for the account chosen
 * @property {{rows: import('../engine/inthread.js').TrustRow[], dropped: number} | null} reportInputs the files an embedded report was made from, while its result is loaded
 * @property {import('../engine/inthread.js').RunPlan | null} runPlan runs of the loaded files (runs.js)
 * @property {{file: Blob, name: string}[]} items the loaded files, kept for "Add files" and the A/B table
 * @property {Origin} origin where the loaded data came from
 * @property {Record<string, number> | undefined} placed files placed by their job's startdelay (the percentiles answer's)
 * @property {{modelBytes: number, wasmBytes: number, twinBytes?: number} | null} memory the engine's memory (the line under the file table)
 * @property {import('../model/sla-rules.js').SlaRule[]} slaRules the SLA field's rules as core parsed them (app/sla.js SlaField): what the views draw with
 */

/** @returns {SessionState} */
export function initialSession() {
  return {
    status: { state: 'idle', text: '' },
    progress: { shown: false, fraction: 0 },
    sources: [],
    resultHosts: null,
    skipped: [],
    pending: new Map(),
    pendingTick: 0,
    fetchErrors: [],
    trust: null,
    reportInputs: null,
    runPlan: null,
    items: [],
    origin: { urls: [], data: '', demo: false },
    placed: undefined,
    memory: null,
    slaRules: [],
  };
}

export class Store {
  /** @param {State} state @param {SessionState} [session] */
  constructor(state, session = initialSession()) {
    this.state = state;
    /** What is loaded; changed only through report() and stage(). */
    this.session = session;
    /** @type {((changed: Set<string>, s: State) => void)[]} */
    this.listeners = [];
    /** @type {((changed: Set<string>, s: SessionState) => void)[]} */
    this.reporters = [];
  }

  /**
   * The session reports: the fields given replace the store's (a Map
   * changed in place counts as changed when it is reported), and the
   * report's listeners are told which.
   * @param {Partial<SessionState>} patch
   */
  report(patch) {
    Object.assign(this.session, patch);
    const changed = new Set(Object.keys(patch));
    for (const l of this.reporters) l(changed, this.session);
  }

  /**
   * Session fields changed without telling anyone yet: the report that
   * follows draws them with what it names (a load sets several before the
   * file table is drawn once).
   * @param {Partial<SessionState>} patch
   */
  stage(patch) {
    Object.assign(this.session, patch);
  }

  /** @param {(changed: Set<string>, s: SessionState) => void} f */
  onReport(f) {
    this.reporters.push(f);
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
