// The page controller: loading (picker, folder, drop, demo) with progress
// and cancel, the file table, and the four linked views. Queries go to the
// engine (a Web Worker by default); a state change re-queries only the views
// whose engine options changed, and never re-reads files.
import { afterNextFrame } from '../engine/yield.js';
import { Store, initialState } from './state.js';
import { renderControls, renderViewToolbar, quantumLabel, setGroupings, setInputChoices } from './controls.js';
import { renderFileTable, updatePendingStates, renderAccountChoice, renderReportInputs } from './file-table.js';
import { pctilesOptions, clusterOptions, pctilesAreCluster, surfaceOptions, heatmapOptions, spectrumOptions, snapRange, zoomRange, resultOptions, resultLabels, linkState, SURFACE_LEVELS, groupsBy, groupsOptions, groupsRunOptions } from './queries.js';
import { methodChoices, exactAllowed, kindsOf, kindChoices, perIoLoaded, formatBytes } from './methods.js';
import { budgetSettings, memoryText, reducedStatus, reducedQuantumNote } from './memory-budget.js';
import { downloadBlob, downloadText } from './download.js';
import { installKeys } from './keys.js';
import { installSidebarResize } from './sidebar.js';
import { loadDemoItems } from './demo.js';
import { progressText } from './progress.js';
import { loadSummary, groupingsFor, isLog, LOCAL_HOST, defaultQuantum } from './sources.js';
import { exportCaption } from './caption.js';
import { naturalCompare } from './names.js';
import { QUANTA, accountsOf } from './options.js';
import { itemsFromFileList, itemsFromDataTransfer, statItems } from '../load/files.js';
import { fetchItems, urlFileName } from '../load/remote.js';
import { parseFragment, stateToFragment, FIELD_OF } from './url-state.js';
import { encodeLinkData, decodeLinkData, MAX_LINK_CHARS, kb } from './link.js';
import { readEmbeddedData } from './embedded-data.js';
import { installEmbed } from './embed.js';
import { narrowConnectSrc } from './csp.js';
import { PercentilesView } from '../views/pctiles-view.js';
import { HeatmapView } from '../views/heatmap-view.js';
import { SurfaceView } from '../views/surface-view.js';
import { SpectrumView } from '../views/spectrum-view.js';
import { GroupsView } from '../views/groups-view.js';
import { ColorKeeper } from '../views/colors.js';
import { fromResultMatrix, runValues, selectionForGroup } from '../views/groups-data.js';
import { parseSlaRule, evaluateSla, slaSentence, missingPercentiles } from './sla.js';
import { timeExtent, anyFiner } from '../views/pctiles-data.js';
import { heatmapCsv, visibleRowSpan } from '../views/heatmap-data.js';
import { clipTopNs } from '../views/scales.js';
import { formatTime } from '../views/time-axis.js';
import { planRuns, renderRunBanner, openCompare } from './runs.js';
import { mergeItems, askReplaceOrAdd } from './add-files.js';
import { LevelView } from './level-view.js';
import { blobSource, urlSource, isMultiple } from '../load/levels.js';
import { DEFAULT_BUDGET_BYTES } from '../engine/budget.js';

/** @typedef {import('./state.js').ViewName} ViewName */
/** @typedef {{pctiles: PercentilesView, heatmap: HeatmapView, surface: SurfaceView, spectrum: SpectrumView, groups: GroupsView}} Views */

/** @type {ViewName[]} */
export const VIEWS = ['pctiles', 'heatmap', 'surface', 'spectrum', 'groups'];

/** State keys the fragment carries (url-state.js). */
const URL_KEYS = new Set(Object.keys(FIELD_OF));

/**
 * What to do once a load finished: the view state a link or a posted
 * message asked for (applied after the load's own reset), and errors of
 * URLs that failed while the others load.
 * @typedef {object} LoadExtras
 * @property {Partial<import('./state.js').State>} [after]
 * @property {string[]} [fetchErrors]
 * @property {{urls: string[], data: string, demo: boolean}} [origin] where the data came from (kept in the fragment)
 * @property {LevelView} [lod] a result with several levels being read by ranges (items: its slice)
 * @property {{li: number, a: number, b: number, whole: boolean, why: string}} [lodPick] which level and blocks that slice holds
 * @property {boolean} [keep] another slice of the same result: the view state (zoom, exclusions, offsets) stays
 * @property {{rows: import('../engine/inthread.js').TrustRow[], dropped: number}} [inputs] the files the loaded report was made from (its embedded trust summary)
 */

export class App {
  /** @param {{createEngine: (o: any) => Promise<any>}} engineApi */
  constructor(engineApi) {
    this.engineApi = engineApi;
    /** The memory budget and the parse workers' ceiling, from the page's URL (memory-budget.js). */
    this.budget = budgetSettings(globalThis.location?.search ?? '');
    this.store = new Store(initialState());
    /** A result with several resolutions read by ranges (level-view.js), or null. @type {LevelView | null} */
    this.lod = null;
    /** The level swap a zoom or quantum change started (onChange). @type {Promise<void>} */
    this.levelBusy = Promise.resolve();
    /** The running level swap (followLevel), and whether another change asks to look again. @type {Promise<void> | null} */
    this.swapping = null;
    this.swapWanted = false;
    /**
     * A second engine holding the coarsest level whole (startOverview): what
     * answers first a jump outside the blocks the primary engine holds.
     * @type {{lod: LevelView, engine: import('../engine/index.js').Engine, quantum_ms: number} | null}
     */
    this.overview = null;
    /** While a view is drawn from the overview: its engine and the state it is asked with. @type {{engine: any, state: import('./state.js').State} | null} */
    this.answering = null;
    /** The result whose overview is being read. @type {LevelView | null} */
    this.overviewStarting = null;
    /** Recent percentiles answers by options (columns()). @type {Map<string, import('../engine/columns.js').ResultColumns>} */
    this.colCache = new Map();
    /** Percentiles views drawn so far (web/scripts/bench-day-chromium.mjs). */
    this.pctDraws = 0;
    /** load() is applying the new data's state; its own refresh follows (onChange waits). */
    this.settingUp = false;
    /** @type {any} */
    this.engine = null;
    /** @type {import('../engine/inthread.js').Source[]} */
    this.sources = [];
    /** Paths left out before loading (OS bookkeeping, .git). @type {import('../load/files.js').SkippedItem[]} */
    this.skipped = [];
    /** @type {Map<string, any>} */
    this.pending = new Map();
    /** @type {Record<string, string>} engine options last queried, per view */
    this.keys = {};
    /** @type {any} */
    this.pct = null;
    /** The files placed by startdelay the file table shows (JSON of the query's `placed`). */
    this.placedKey = '{}';
    this.loadGen = 0;
    /** The loaded files, kept for "Add files" and the A/B table. @type {{file: Blob, name: string}[]} */
    this.items = [];
    /** Runs of the loaded files (runs.js). @type {import('../engine/inthread.js').RunPlan | null} */
    this.runPlan = null;
    /** The engine's trust summary of the loaded files, for the account chosen (file-table.js). @type {import('../engine/inthread.js').TrustRow[] | null} */
    this.trust = null;
    /** The files the embedded report was made from, while its result is loaded (embedded-data.js, file-table.js renderReportInputs). @type {{rows: import('../engine/inthread.js').TrustRow[], dropped: number} | null} */
    this.reportInputs = null;
    /** @type {Promise<void> | null} */
    this.running = null;
    this.dirty = false;
    this.forceNext = false;
    /** @type {AbortController | null} */
    this.abort = null;
    /** Where the loaded data came from: re-written into every fragment so reload keeps it. */
    this.origin = { urls: /** @type {string[]} */ ([]), data: '', demo: false };
    /** Errors of URLs that failed (shown with the file errors). @type {string[]} */
    this.fetchErrors = [];
    /** The fragment last read or written (popstate/hashchange of our own writes are ignored). */
    this.lastHash = '';
    /** True while a fragment is being applied: its store changes write no history. */
    this.applyingUrl = false;
    /** The theme is in the fragment only once chosen (in this tab or by the link). */
    this.themeInUrl = false;
    /** connect-src was narrowed to 'self' at start (csp.js). */
    this.narrowed = false;
    /** The page was opened with data embedded in it (embedded-data.js). */
    this.embedded = false;
    /** Last history write, to coalesce drags and held keys into one entry. */
    this.lastWrite = { t: 0, keys: '' };
    this.$ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
    // The views need the page's elements, so init() makes them; the page
    // calls nothing else before init(). (JSDoc's form of TypeScript's `views!`.)
    /** @type {Views} */
    this.views = /** @type {Views} */ (/** @type {unknown} */ (undefined));
    /** Group colours by first sight, for the page's lifetime (views/colors.js). */
    this.colors = new ColorKeeper();
    /** The group a click narrowed the selection to, and the selection before (restored by "Show all groups"). */
    /** @type {any} the groups view's matrix query and its ranking query */
    this.groupsResult = null;
    /** @type {any} */
    this.groupsRun = null;
    this.focus = /** @type {{key: string, before: {exclude_sources: string[], exclude_hosts: string[], directions: string}} | null} */ (null);
  }

  /** The SLA rules of the state, parsed (they were validated when set). */
  slaRules() {
    /** @type {import('./sla.js').SlaRule[]} */
    const out = [];
    for (const t of this.store.state.sla) {
      try {
        out.push(parseSlaRule(t, this.store.state.unit));
      } catch {
        /* validated on entry and in url-state.js */
      }
    }
    return out;
  }

  init() {
    const st = this.store;
    let saved = null;
    try {
      saved = localStorage.getItem('latscope-theme');
    } catch {
      /* storage refused (sandboxed iframe): the system preference */
    }
    const dark = saved ? saved === 'dark' : window.matchMedia?.('(prefers-color-scheme: dark)').matches;
    st.set({ theme: dark ? 'dark' : 'light' });
    document.documentElement.dataset.theme = st.state.theme;
    renderControls(this.$('controls'), st);
    // A quantum picked in the selector stays; until then each load opens at its logs' interval (load()).
    this.quantumChosen = false;
    // Capture: at the selector itself this runs before the controls' own
    // listener sets the state, so the change is already a chosen quantum
    // (a result with several levels picks its level by it, level-view.js).
    this.$('quantum').addEventListener(
      'change',
      () => {
        this.quantumChosen = true;
      },
      { capture: true },
    );

    const ctx = {
      store: st,
      extent: () => this.fullExtent(),
      onRange: (/** @type {[number, number] | null} */ r) => this.setRange(r),
      onYZoom: (/** @type {[number, number] | null} */ y) => st.set({ yZoomNs: y, clipOutliers: false }),
      colors: this.colors,
      slaRules: () => this.slaRules(),
      bands: (/** @type {[number, number]} */ range) => this.bandsOf(range),
      onPickGroup: (/** @type {string} */ key) => this.pickGroup(key),
    };
    this.views = {
      pctiles: new PercentilesView(this.$('view-pctiles'), ctx),
      heatmap: new HeatmapView(this.$('view-heatmap'), ctx),
      surface: new SurfaceView(this.$('view-surface'), ctx),
      spectrum: new SpectrumView(this.$('view-spectrum'), ctx),
      groups: new GroupsView(this.$('view-groups'), ctx),
    };
    this.$('group-focus-clear').addEventListener('click', () => this.clearFocus());
    this.showView(st.state.view);
    for (const v of VIEWS) this.views[v].frame.message('Load fio histogram logs to begin');

    document.querySelectorAll('.tabs [data-view]').forEach((b) =>
      b.addEventListener('click', () => this.store.set({ view: /** @type {ViewName} */ (/** @type {HTMLElement} */ (b).dataset.view) })),
    );
    this.$('reset-zoom').addEventListener('click', () => this.resetZoom());
    const fileInput = /** @type {HTMLInputElement} */ (this.$('file-input'));
    fileInput.addEventListener('change', () => {
      if (fileInput.files?.length) this.loadSelection(itemsFromFileList(fileInput.files));
      fileInput.value = '';
    });
    const folderInput = /** @type {HTMLInputElement} */ (this.$('folder-input'));
    folderInput.addEventListener('change', () => {
      if (folderInput.files?.length) this.loadSelection(itemsFromFileList(folderInput.files));
      folderInput.value = '';
    });
    const addInput = /** @type {HTMLInputElement} */ (this.$('add-input'));
    addInput.addEventListener('change', () => {
      if (addInput.files?.length) this.loadSelection(itemsFromFileList(addInput.files), 'add');
      addInput.value = '';
    });
    this.$('add-button').addEventListener('click', () => addInput.click());
    this.$('demo-button').addEventListener('click', () => this.loadDemo());
    this.$('cancel-button').addEventListener('click', () => this.abort?.abort());
    this.$('theme-button').addEventListener('click', () => this.toggleTheme());
    const help = /** @type {HTMLDialogElement} */ (this.$('help'));
    this.$('help-button').addEventListener('click', () => help.showModal());
    this.installDrop();
    installKeys(this, help);
    installSidebarResize(this.$('sidebar'), this.$('sidebar-handle'), () => this.onResize());

    this.$('export-png').addEventListener('click', () => this.exportImage('png'));
    this.$('export-svg').addEventListener('click', () => this.exportImage('svg'));
    this.$('export-view-csv').addEventListener('click', () => this.exportViewCsv());
    this.$('export-csv').addEventListener('click', () => this.exportPctilesCsv());

    st.subscribe((changed) => this.onChange(changed));
    let rt = 0;
    window.addEventListener('resize', () => {
      clearTimeout(rt);
      rt = window.setTimeout(() => this.onResize(), 120);
    });
    this.$('copy-link').addEventListener('click', () => this.copyLink(false));
    this.$('copy-link-data').addEventListener('click', () => this.copyLink(true));
    this.$('download-result').addEventListener('click', () => this.downloadResult());
    st.subscribe((changed) => this.writeUrl(changed));
    this.applyLocation(true);
    window.addEventListener('popstate', () => this.applyLocation(false));
    window.addEventListener('hashchange', () => this.applyLocation(false));
    installEmbed(this);
  }

  // ---------------------------------------------------------------- URL

  /**
   * Reads the fragment and `?url=`: applies its view
   * state and loads what it names (URLs, a link's data, the demo) when that
   * differs from what is loaded. Untrusted: what is malformed is ignored
   * with a console note.
   * @param {boolean} first
   */
  applyLocation(first) {
    if (!first && location.hash === this.lastHash) return;
    this.lastHash = location.hash;
    const frag = parseFragment(location.hash, { search: location.search, base: document.baseURI });
    for (const n of frag.notes) console.warn(`latscope: link: ${n}`);
    if (frag.state.quantum_ms !== undefined) this.quantumChosen = true;  // a link's quantum wins over the logs' interval
    if (first) this.narrowed = narrowConnectSrc(document, frag.urls.length > 0);
    else if (this.narrowed && frag.urls.length) {
      // This page may only talk to its own origin: start afresh without that narrowing.
      location.reload();
      return;
    }
    /** @type {Record<string, any>} */
    const state = { ...urlDefaults(this.store.state.theme), ...frag.state };
    if (frag.state.theme) this.themeInUrl = true;
    if (first && this.loadEmbedded(frag)) return;
    const origin = { urls: frag.urls, data: frag.data, demo: frag.demo && !frag.data && !frag.urls.length };
    const same = JSON.stringify(origin) === JSON.stringify(this.origin);
    const wants = origin.urls.length || origin.data || origin.demo;
    // Fields that depend on the data (range, exclusions, offsets, groups) wait for the load.
    this.applyState(wants && !same ? withoutDataFields(state) : state);
    if (same || !wants) return;
    if (origin.data) this.loadLinkData(origin.data, state);
    else if (origin.urls.length) this.loadUrls(origin.urls, state);
    else this.loadDemo(state);
  }

  /**
   * The result embedded in the page (`latscope report`, embedded-data.js),
   * loaded at start-up like an opened file, with its view state; the
   * fragment's view fields (the viewer's changes, kept across a reload) go
   * on top. A link's own data (url=, d=, demo) is not loaded then.
   * @param {import('./url-state.js').ParsedFragment} frag
   * @returns {boolean} true when the page embeds something (loaded or said to be bad)
   */
  loadEmbedded(frag) {
    const em = readEmbeddedData(document);
    if (!em) return false;
    for (const n of em.notes) console.warn(`latscope: embedded data: ${n}`);
    if (em.error) {
      this.setStatus('error', `The data embedded in this page cannot be read: ${em.error}. Open files instead.`);
      for (const v of VIEWS) this.views[v].frame.message('The embedded data cannot be read');
      return true;
    }
    if (frag.urls.length || frag.data || frag.demo) console.warn('latscope: link: the page embeds its data; url=, d= and demo in the link are ignored');
    /** @type {Record<string, any>} */
    const state = { ...urlDefaults(this.store.state.theme), ...em.view, ...frag.state };
    if (em.view?.quantum_ms !== undefined) this.quantumChosen = true;
    this.applyState(withoutDataFields(state));
    const r = /** @type {{name: string, bytes: Uint8Array}} */ (em.result);
    this.embedded = true;
    this.load([{ name: r.name, file: new Blob([/** @type {BlobPart} */ (r.bytes)]) }], [], { after: state, inputs: em.trust ? { rows: em.trust, dropped: em.trustDropped } : undefined });
    return true;
  }

  /** @param {Partial<import('./state.js').State>} state */
  applyState(state) {
    const theme = this.store.state.theme;
    this.applyingUrl = true;
    try {
      this.store.set(state);
    } finally {
      this.applyingUrl = false;
    }
    if (theme !== this.store.state.theme) for (const v of VIEWS) this.views[v].render();
  }

  /** The fragment for the current state and data. */
  fragment() {
    return stateToFragment(this.store.state, { urls: this.origin.urls, data: this.origin.data, demo: this.origin.demo, theme: this.themeInUrl });
  }

  /**
   * Writes the state into the fragment: a new history entry per committed
   * change (Back undoes it), replacing the entry while a drag or a held key
   * repeats the same change.
   * @param {Set<string>} changed
   */
  writeUrl(changed) {
    if (this.applyingUrl) return;
    const keys = [...changed].filter((k) => URL_KEYS.has(k));
    if (!keys.length) return;
    if (changed.has('theme')) this.themeInUrl = true;
    const frag = this.fragment();
    if (`#${frag}` === location.hash) return;
    if (!location.hash && frag === 'v=1') return;
    const now = performance.now();
    const sig = keys.sort().join(',');
    const drag = sig === 'surfaceP' || (sig === this.lastWrite.keys && now - this.lastWrite.t < 400);
    this.lastWrite = { t: now, keys: sig };
    const url = `${location.pathname}${location.search}#${frag}`;
    try {
      if (drag) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
    } catch (e) {
      // Some hosts refuse history writes (an opaque-origin frame): the state stays in the page.
      console.warn(`latscope: the URL could not be updated (${/** @type {Error} */ (e).message})`);
    }
    this.lastHash = location.hash;
  }

  /** @param {Partial<import('./state.js').State>} [after] */
  async loadUrls(/** @type {string[]} */ urls, after) {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const gen = ++this.loadGen;
    const n = urls.length;
    this.setStatus('loading', `Fetching ${n === 1 ? urlFileName(urls[0]) : `${n} URLs`}…`);
    const prog = this.$('progress');
    prog.hidden = false;
    this.showProgress(0);
    /** @type {Map<string, {done: number, total: number}>} */
    const got = new Map(urls.map((u) => [u, { done: 0, total: 0 }]));
    const t0 = performance.now();
    // The file table lists each URL while it downloads (as files while they are read).
    this.sources = [];
    this.skipped = [];
    this.fetchErrors = [];
    this.pending = new Map(urls.map((u) => [u, { state: 'queued', bytesDone: 0, bytesTotal: 0 }]));
    this.renderFiles();
    let lastTable = 0;
    // One .lsr URL with several resolutions is read by range requests
    // (level-view.js); anything else, or a server without ranges, whole.
    if (n === 1 && /\.lsr$/i.test(new URL(urls[0]).pathname)) {
      try {
        const src = await urlSource(urls[0], urlFileName(urls[0]), { signal: abort.signal });
        const lod = src && (await LevelView.open(src));
        if (gen !== this.loadGen) return;
        if (lod) {
          prog.hidden = true;
          this.pending = new Map();
          return this.openLevels(lod, [], { after, origin: { urls, data: '', demo: false } });
        }
      } catch {
        /* no HEAD or ranges across origins: the whole fetch below says why if it fails too */
      }
    }
    try {
      const r = await fetchItems(urls, {
        signal: abort.signal,
        maxBytes: this.budget.budget,  // downloads are held whole until parsed (docs/page-loading.md, "Downloads")
        onProgress: (p) => {
          if (gen !== this.loadGen) return;
          got.set(p.url, { done: p.bytesDone, total: p.bytesTotal });
          let done = 0;
          let total = 0;
          for (const g of got.values()) {
            done += g.done;
            total += Math.max(g.total, g.done);
          }
          const ready = [...got.values()].filter((g) => g.total && g.done >= g.total).length;
          this.showProgress(total ? done / total : 0);
          this.$('progress-text').textContent = `fetching: ${progressText(done, total, (performance.now() - t0) / 1000, ready, urls.length)}`;
          this.pending.set(p.url, { state: p.state === 'done' ? 'fetched' : 'fetching', bytesDone: p.bytesDone, bytesTotal: p.bytesTotal });
          if (p.state === 'done' || performance.now() - lastTable > 330) {
            lastTable = performance.now();
            this.renderFiles();
          }
        },
      });
      if (gen !== this.loadGen) return;
      const origin = { urls, data: '', demo: false };
      if (!r.items.length) {
        prog.hidden = true;
        this.origin = origin;
        this.fetchErrors = r.errors;
        this.sources = [];
        this.pending = new Map();
        this.skipped = r.skipped;
        this.renderFiles();
        // The sentences (CORS, HTTP status) are under Files; the status line stays short.
        this.setStatus('error', r.errors.length ? `Nothing loaded: ${r.errors.length === 1 ? 'the URL' : `all ${r.errors.length} URLs`} failed (see the message under Files).` : 'Nothing to read at the URL.');
        for (const v of VIEWS) this.views[v].frame.message('Nothing loaded from the URL');
        return;
      }
      await this.load(r.items, r.skipped, { after, fetchErrors: [...r.errors, ...r.notes], origin });
    } catch (e) {
      if (gen !== this.loadGen) return;
      prog.hidden = true;
      const err = /** @type {Error} */ (e);
      this.setStatus('error', err.name === 'AbortError' ? 'Loading cancelled.' : `Loading failed: ${err.message}`);
    }
  }

  /**
   * Opens the data of a "link with data" (d=).
   * @param {string} data @param {Partial<import('./state.js').State>} [after]
   */
  async loadLinkData(data, after) {
    let r;
    try {
      r = decodeLinkData(data);
    } catch (e) {
      this.setStatus('error', `The link's data cannot be read: ${/** @type {Error} */ (e).message}.`);
      return;
    }
    await this.load([{ name: r.name, file: new Blob([/** @type {BlobPart} */ (r.bytes)]) }], [], { after, origin: { urls: [], data, demo: false } });
  }

  /**
   * The loaded data as a result file at the page's quantum, keeping the
   * labels it groups by (queries.js resultOptions), with a display name.
   * @returns {Promise<{name: string, bytes: Uint8Array}>}
   */
  async resultFile() {
    const s = this.store.state;
    const { bytes } = await this.engine.encodeResult(resultOptions(s));
    const logs = loadSummary(this.sources, this.skipped).logs;
    const name = this.sources.length === 1 && /\.lsr$/.test(this.sources[0].name) ? this.sources[0].name : `latscope-${logs}-log${logs === 1 ? '' : 's'}-${quantumLabel(s.quantum_ms).replace(/\s+/g, '')}.lsr`;
    return { name, bytes };
  }

  /** "Download result (.lsr)", offered when the data is too large for a link. */
  async downloadResult() {
    try {
      const r = await this.resultFile();
      downloadBlob(new Blob([/** @type {BlobPart} */ (r.bytes)], { type: 'application/octet-stream' }), r.name);
    } catch (e) {
      this.$('link-status').textContent = `The result file could not be written: ${/** @type {Error} */ (e).message}.`;
    }
  }

  /**
   * "Copy link" (the view, and the URLs the data came from) or "Copy link
   * with data" (the loaded data in the fragment when it fits ~64 KB).
   * @param {boolean} withData
   */
  async copyLink(withData) {
    const out = /** @type {HTMLInputElement} */ (this.$('link-output'));
    const say = (/** @type {string} */ t) => {
      this.$('link-status').textContent = t;
    };
    out.value = '';
    this.$('download-result').hidden = true;
    // file:// pages have the origin "null": the link is the page's own URL.
    const base = location.protocol === 'file:' ? `file://${location.pathname}` : `${location.origin}${location.pathname}`;
    let link;
    let what;
    if (!withData) {
      link = `${base}${location.search}#${this.fragment()}`;
      what = this.origin.urls.length || this.origin.data || this.origin.demo
        ? 'the view and where its data comes from'
        : this.embedded
          ? 'the view (this page carries its data)'
          : 'the view only (the files stay here: use "Copy link with data")';
    } else {
      if (!this.engine || !loadSummary(this.sources, this.skipped).logs) return say('Load logs first.');
      let r;
      try {
        r = await this.resultFile();
      } catch (e) {
        return say(`The data could not be written as a result: ${/** @type {Error} */ (e).message}.`);
      }
      const s = this.store.state;
      const logs = loadSummary(this.sources, this.skipped).logs;
      const enc = encodeLinkData(r);
      const frag = stateToFragment(linkState(s), { data: enc.data, theme: this.themeInUrl });
      link = `${base}#${frag}`;
      const held = `a result file of ${logs} log${logs === 1 ? '' : 's'} (${kb(r.bytes.length)}: quanta of ${quantumLabel(s.quantum_ms)}, labels ${resultLabels(s).join(', ')})`;
      if (link.length > MAX_LINK_CHARS) {
        this.$('download-result').hidden = false;
        return say(`The link would be ${kb(link.length)}, over the ${kb(MAX_LINK_CHARS)} a link holds: ${held}. Download the result file instead (it opens here like a log), or put the files on a web server that sends Access-Control-Allow-Origin and share a link with #url=….`);
      }
      what = `${kb(link.length)}: ${held} and the view. It holds file and host names as labels, not the logs' text, and opens with no server but this page`;
    }
    out.value = link;
    out.hidden = false;
    let copied = false;
    try {
      await navigator.clipboard.writeText(link);
      copied = true;
    } catch {
      /* no clipboard permission: the link is in the box */
    }
    say(`${copied ? 'Link copied' : 'Link ready (copy it from the box)'} — ${what}.`);
    out.select();
  }

  // ---------------------------------------------------------------- loading

  installDrop() {
    const overlay = this.$('drop-overlay');
    let depth = 0;
    window.addEventListener('dragenter', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      depth++;
      overlay.hidden = false;
    });
    window.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (!depth) overlay.hidden = true;
    });
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      depth = 0;
      overlay.hidden = true;
      // Entries must be taken synchronously inside the handler.
      if (e.dataTransfer) itemsFromDataTransfer(e.dataTransfer).then((sel) => this.loadSelection(sel, 'ask'));
    });
  }

  /** @param {Partial<import('./state.js').State>} [after] view state a link asked for */
  async loadDemo(after) {
    this.setStatus('loading', 'Fetching the demo logs…');
    try {
      const { items, note } = await loadDemoItems();
      this.demoNote = note;
      await this.load(items, [], { after, origin: { urls: [], data: '', demo: true } });
    } catch (e) {
      this.setStatus('error', `Demo data unavailable: ${/** @type {Error} */ (e).message}`);
    }
  }

  /**
   * Loads what a picker or a drop gave; says so when everything was left out
   * (never silently nothing). mode: 'add' keeps the loaded files, 'ask'
   * (a drop) asks when files are loaded (add-files.js).
   * @param {import('../load/files.js').ItemSelection} sel
   * @param {'replace' | 'add' | 'ask'} [mode]
   */
  async loadSelection(sel, mode = 'replace') {
    if (mode === 'ask' && sel.items.length && this.items.length) {
      const choice = await askReplaceOrAdd(document, this.items.length, sel.items.length);
      if (!choice) return;
      mode = choice;
    }
    // Files added to a report's result: the result is still there, and so are its inputs.
    if (mode === 'add' && sel.items.length && this.items.length) return this.load(mergeItems(this.items, sel.items), [...this.skipped, ...sel.skipped], { inputs: this.reportInputs ?? undefined });
    if (sel.items.length) return this.load(sel.items, sel.skipped);
    if (!sel.skipped.length) return;
    this.skipped = sel.skipped;
    this.sources = [];
    this.pending = new Map();
    this.renderFiles();
    this.setStatus('error', `Nothing to read: ${sel.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}.`);
  }

  /**
   * @param {{file: Blob, name: string}[]} items
   * @param {import('../load/files.js').SkippedItem[]} [skipped] left out before loading (listed as ignored)
   * @param {LoadExtras} [extras]
   * @returns {Promise<void>}
   */
  async load(items, skipped = [], extras = {}) {
    if (!items.length) return;
    if (!extras.lod) {
      // One result with several resolutions is read by ranges (level-view.js).
      this.lod = null;
      this.dropOverview();
      if (items.length === 1 && /\.lsr$/i.test(items[0].name)) {
        try {
          const lod = await LevelView.open(blobSource(items[0].file, items[0].name));
          if (lod) {
            // "Add files" later adds to the file, not to the slice shown.
            lod.original = items[0];
            return this.openLevels(lod, skipped, extras);
          }
        } catch (e) {
          this.setStatus('error', `${/** @type {Error} */ (e).message}.`);
          return;
        }
      }
    }
    this.skipped = skipped;
    this.fetchErrors = extras.fetchErrors ?? [];
    const origin = extras.origin ?? { urls: [], data: '', demo: false };
    const originChanged = JSON.stringify(origin) !== JSON.stringify(this.origin);
    this.origin = origin;
    // Files picked here replace what a link named: the fragment stops naming it.
    if (originChanged) this.writeOrigin();
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const gen = ++this.loadGen;
    const total = await statItems(items);
    if (gen !== this.loadGen) return;
    this.pending = new Map(items.map((it) => [it.name, { state: 'queued', bytesDone: 0, bytesTotal: it.file.size }]));
    this.sources = [];
    this.runPlan = null;
    this.trust = null;
    // Another load replaces the report's result (another slice of it keeps it).
    this.reportInputs = extras.inputs ?? (extras.keep ? this.reportInputs : null);
    this.renderRuns();
    this.pct = null;
    this.keys = {};
    this.colCache.clear();
    this.focus = null;
    this.$('group-focus').hidden = true;
    if (!extras.keep) this.applyState({ exclude_sources: [], exclude_hosts: [], offsets: {}, range: null, yZoomNs: null, hidden: [] });
    this.setStatus('loading', extras.lod && extras.lodPick ? this.levelReading(extras.lod, extras.lodPick) : `Reading ${items.length} file${items.length > 1 ? 's' : ''}…`);
    const prog = this.$('progress');
    prog.hidden = false;
    this.showProgress(0);
    this.renderFiles();
    const t0 = performance.now();
    // Progress is shown 4 times a second, the file table rebuilt every
    // 330 ms, or 5 ms per file when there are many: each change of the page
    // costs the main thread style, layout and paint, and on 2 cores that is
    // CPU the parse workers do not get (a 200-file load painted 735 times,
    // 6 s of Paint: bench-groups-chromium.mjs --trace --load-only).
    let raf = 0;
    const tableEvery = Math.max(330, 5 * items.length);
    const paint = () => {
      raf = 0;
      let done = 0;
      for (const p of this.pending.values()) done += p.state === 'done' || p.state === 'error' ? p.bytesTotal : p.bytesDone;
      const secs = (performance.now() - t0) / 1000;
      this.showProgress(total ? done / total : 0);
      const files = [...this.pending.values()];
      this.$('progress-text').textContent = progressText(done, total, secs, files.filter((p) => p.state === 'done' || p.state === 'error').length, files.length);
      const now = performance.now();
      if (now - lastTable > tableEvery) {
        lastTable = now;
        if (this.sources.length || !updatePendingStates(this.$('file-table'), this.pending)) this.renderFiles();
      }
    };
    let lastTable = 0;
    try {
      const tEngine = performance.now();
      if (!this.engine) this.engine = await this.engineApi.createEngine({ mode: 'worker', workers: Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)), helperMemoryBytes: this.budget.workerMemory || undefined });
      else if (this.engine.reset) await this.engine.reset();
      // Stage marks for the benchmarks (web/scripts/bench-*-chromium.mjs).
      performance.measure('latscope: engine ready', { start: tEngine });
      const tFiles = performance.now();
      let sources = await this.engine.loadFiles(items, {
        signal: abort.signal,
        // A result's slice is bounded by the budget already (level-view.js): read in the primary.
        inPrimary: !!extras.lod,
        // Past the budget, files are imported as results at the quantum the
        // views will show (a link's own quantum when it names one).
        budget: { bytes: this.budget.budget, quantum_ms: extras.after?.quantum_ms ?? this.store.state.quantum_ms },
        onProgress: (/** @type {any} */ p) => {
          if (gen !== this.loadGen) return;
          this.pending.set(p.file, { ...this.pending.get(p.file), ...p });
          if (!raf) raf = window.setTimeout(paint, 250);
        },
      });
      if (gen !== this.loadGen) return;
      performance.measure('latscope: files read', { start: tFiles });
      // The slice is in the engine: queries are bounded by it from here on.
      if (extras.lod && extras.lodPick) extras.lod.commit(extras.lodPick);
      // Runs before anything is shown: files of several runs are never
      // merged silently (runs.js, docs/runs.md).
      const tRuns = performance.now();
      const planned = await planRuns(this.engine);
      performance.measure('latscope: runs planned', { start: tRuns });
      if (gen !== this.loadGen) return;
      sources = planned.sources;
      this.runPlan = planned.plan;
      // After the runs: assigning them settles the unit of per-I/O logs
      // that do not say theirs, which the summary reports.
      this.trust = await this.fetchTrust();
      if (gen !== this.loadGen) return;
      this.items = extras.lod?.original ? [extras.lod.original] : items;
      this.sources = sources;
      // The state this load applies below (groupings, quantum, a link's view)
      // is drawn by the one refresh at its end, not by each change (onChange).
      this.settingUp = true;
      for (const s of sources) this.pending.set(s.name, { state: s.status?.ok === false ? 'error' : 'done', bytesDone: s.bytes, bytesTotal: s.bytes, message: s.status?.message });
      // The progress line's last figures; the table is rebuilt once, below.
      lastTable = performance.now();
      paint();
      prog.hidden = true;
      this.renderFiles();
      // The new file table is laid out in a frame of its own, not in this
      // task by the chart's size read below (docs/page-views.md "The load's longest task").
      await afterNextFrame();
      if (gen !== this.loadGen) return;
      this.showMemory();
      const sum = loadSummary(sources, this.skipped);
      // Group-by offers the labels these logs carry; a choice they lack falls back to the cluster.
      const groupings = groupingsFor(sources);
      const after = extras.after ?? {};
      const want = after.group_by ?? this.store.state.group_by;
      const group_by = groupings.some(([v]) => v === want) ? want : 'all';
      setGroupings(this.$('controls'), groupings, group_by);
      // A link's state: what depends on the data is applied now that it is here.
      if (extras.after) this.applyState({ ...after, group_by });
      else if (group_by !== this.store.state.group_by) this.store.set({ group_by });
      // Unless a quantum was chosen (selector, link): the logs' interval (sources.js defaultQuantum).
      const q = this.quantumChosen ? null : defaultQuantum(sources, QUANTA);
      if (q && q !== this.store.state.quantum_ms) this.applyState({ quantum_ms: q });
      this.renderRuns();
      this.fitInputChoices();
      this.settingUp = false;
      if (!sum.logs) {
        this.setStatus('error', sum.text);
        for (const v of VIEWS) this.views[v].frame.message('No readable latency logs');
        return;
      }
      await this.refresh(true);
      if (gen !== this.loadGen) return;
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      this.writeOrigin();
      const reduced = reducedStatus(sources, this.budget.budget);
      this.setStatus('ready', `${loadSummary(sources, this.skipped, `in ${secs} s`).text}${reduced ? ` — ${reduced}` : ''}${this.lod ? ` — ${this.lod.note()}` : ''}${this.demoNote ? ` — ${this.demoNote}` : ''}`);
      this.demoNote = '';
    } catch (e) {
      this.settingUp = false;
      if (gen !== this.loadGen) return;
      prog.hidden = true;
      const err = /** @type {Error} */ (e);
      if (err.name === 'AbortError') {
        this.setStatus('error', 'Loading cancelled.');
        for (const [k, p] of this.pending) if (p.state !== 'done') this.pending.set(k, { ...p, state: 'cancelled' });
        this.renderFiles();
      } else {
        this.setStatus('error', `Loading failed: ${err.message}`);
        console.error(e);
      }
    }
  }

  /**
   * Opens a result with several resolutions: the level and blocks the
   * whole time needs, then others as the zoom or the quantum asks
   * (onChange -> swapLevel).
   * @param {LevelView} lod @param {import('../load/files.js').SkippedItem[]} skipped @param {LoadExtras} extras
   * @returns {Promise<void>}
   */
  async openLevels(lod, skipped, extras) {
    this.lod = lod;
    const after = extras.after ?? {};
    const t0 = performance.now();
    const pick = lod.pickFor(this.levelWant({ range: after.range ?? null, quantum_ms: after.quantum_ms ?? this.store.state.quantum_ms }));
    if (!pick) {
      this.setStatus('error', `${lod.src.name}: no level holds any data.`);
      return;
    }
    const item = await lod.read(pick);
    performance.measure('latscope: level read', { start: t0 });
    return this.load([item], skipped, { ...extras, lod, lodPick: pick });
  }

  /** @param {{range: [number, number] | null, quantum_ms: number}} s */
  levelWant(s) {
    return { range: s.range, quantum_ms: this.quantumChosen ? s.quantum_ms : null, widthPx: this.views?.pctiles?.frame?.innerW || 1000, budgetBytes: this.levelBudget() };
  }

  /** The bytes a result's levels may take in the engine: the page's budget, or 4 default budgets when it has none. */
  levelBudget() {
    const b = this.budget.budget;
    return Number.isFinite(b) ? b : 4 * DEFAULT_BUDGET_BYTES;
  }

  /**
   * After a zoom or a quantum change on a result with several levels
   * (docs/page-loading.md §8, "Answer first, detail next"): the view is
   * redrawn at once from what the engine holds when that serves the new
   * range exactly (a coarser level, or a slice around it), then the level
   * the new range wants is read and drawn. Swaps run one at a time; changes
   * made meanwhile are looked at again when the running swap ends, so the
   * engine and `lod.current` always agree.
   * @returns {Promise<void>}
   */
  followLevel() {
    const lod = /** @type {LevelView} */ (this.lod);
    // The opening load is still reading its first slice: its refresh draws the state as it then is.
    if (!lod.current) return Promise.resolve();
    const by = !this.swapping && this.sources.length > 0 ? this.answerer(lod) : null;
    const answer = !!by;
    this.swapWanted = true;
    if (this.swapping) return this.swapping;
    this.swapping = (async () => {
      try {
        if (by?.overview) await this.answerFrom(by.overview);
        else if (by) await this.refresh(false);
        while (this.swapWanted && lod === this.lod) {
          this.swapWanted = false;
          const swapped = await this.swapLevel();
          if (!swapped && !answer) await this.refresh(false);
        }
      } finally {
        this.swapping = null;
      }
    })();
    return this.swapping;
  }

  /**
   * What can draw the current state exactly before the level it wants is
   * read, and at which quantum: the engine's own blocks (overview null),
   * else the overview (the coarsest level whole, when a chosen quantum is a
   * multiple of its), else null.
   * @param {LevelView} lod
   * @returns {{overview: {lod: LevelView, engine: any, quantum_ms: number} | null, quantum_ms: number} | null}
   */
  answerer(lod) {
    const s = this.store.state;
    const chosen = this.quantumChosen ? s.quantum_ms : null;
    if (lod.current && lod.serves(s.range, chosen)) return { overview: null, quantum_ms: lod.levels[lod.current.li].level.quantum_ms };
    const ov = this.overview;
    return ov && ov.lod === lod && (!chosen || isMultiple(chosen, ov.quantum_ms)) ? { overview: ov, quantum_ms: ov.quantum_ms } : null;
  }

  /**
   * Draws the shown view from the overview engine at its level's quantum
   * (the state's quantum is the loaded level's, finer than the overview's:
   * asked at it, the overview's minutes would be spread over seconds). What
   * the views remember of their queries is dropped after, so the detail's
   * refresh asks the primary engine again.
   * @param {{engine: any, quantum_ms: number}} ov
   */
  async answerFrom(ov) {
    this.answering = { engine: ov.engine, state: { ...this.store.state, quantum_ms: ov.quantum_ms } };
    try {
      await this.refresh(true);
    } finally {
      this.answering = null;
      this.keys = {};
    }
  }

  /**
   * The overview engine: a one-worker engine with the coarsest level whole,
   * read in the background when the first slice finer than it is asked for
   * (docs/page-loading.md §8.5). Small by construction (overviewPick: at
   * most a quarter of the budget).
   * @param {LevelView} lod
   */
  async startOverview(lod) {
    if (this.overview?.lod === lod || this.overviewStarting === lod) return;
    const pick = lod.overviewPick(this.levelBudget());
    if (!pick) return;
    this.overviewStarting = lod;
    /** @type {import('../engine/index.js').Engine | null} */
    let engine = null;
    try {
      const made = await this.engineApi.createEngine({ mode: 'worker', workers: 1 });
      engine = made;
      const item = await lod.read(pick);
      const [src] = await made.loadFiles([item], { inPrimary: true });
      if (lod !== this.lod || src?.status?.ok === false) throw new Error('superseded');
      this.dropOverview();
      this.overview = { lod, engine: made, quantum_ms: lod.levels[pick.li].level.quantum_ms };
      engine = null;
    } catch {
      /* no overview: a jump outside the loaded blocks waits for its slice, as without one */
    } finally {
      engine?.terminate();
      if (this.overviewStarting === lod) this.overviewStarting = null;
    }
  }

  dropOverview() {
    this.overview?.engine.terminate();
    this.overview = null;
  }

  /**
   * The status while a level is read: what, and what the view shows meanwhile.
   * @param {LevelView} lod @param {{li: number, a: number, b: number, whole: boolean}} pick
   */
  levelReading(lod, pick) {
    const by = lod.current ? this.answerer(lod) : null;
    const meanwhile = by ? ` (showing ${quantumLabel(by.quantum_ms)} until then)` : '';
    return `Reading ${lod.src.name}: ${lod.describe(pick)}…${meanwhile}`;
  }

  /** Another level or slice when the loaded one does not serve the range. @returns {Promise<boolean>} swapped */
  async swapLevel() {
    const lod = this.lod;
    if (!lod) return false;
    const pick = lod.pickFor(this.levelWant(this.store.state));
    if (!pick) return false;
    // Away from the whole coarsest level: the overview is read meanwhile, for a later jump.
    if (!(pick.whole && pick.li === lod.levels.length - 1)) this.startOverview(lod);
    // Said before the read: the view may already show the zoom from the level loaded.
    this.setStatus('loading', this.levelReading(lod, pick));
    let item;
    const t0 = performance.now();
    try {
      item = await lod.read(pick);
      performance.measure('latscope: level read', { start: t0 });
    } catch (e) {
      this.setStatus('error', `${/** @type {Error} */ (e).message}.`);
      return false;
    }
    if (lod !== this.lod) return false;
    await this.load([item], this.skipped, { lod, lodPick: pick, keep: true, origin: this.origin, fetchErrors: this.fetchErrors });
    return true;
  }

  /**
   * The progress bar's fill, as a transform: the compositor moves it with
   * no layout or paint of the page. @param {number} f 0..1
   */
  showProgress(f) {
    /** @type {HTMLElement} */ (this.$('progress-fill')).style.transform = `scaleX(${Math.max(0, Math.min(1, f))})`;
  }

  /** The "memory: ... of ... budget" line under the file table (docs/page-loading.md §7). */
  async showMemory() {
    const el = this.$('memory');
    if (!el || !this.engine?.memory) return;
    const m = await this.engine.memory();
    el.textContent = [memoryText(m.modelBytes, this.budget.budget), ...this.budget.problems].join('; ');
    const twin = m.twinBytes ? `; a second worker holding the same data answers half of each percentiles query, in ${formatBytes(m.twinBytes)} more (while the data is under a quarter of the budget)` : '';
    el.title = `estimated size of the loaded data in the engine; its WebAssembly memory is ${formatBytes(m.wasmBytes)} (it never shrinks)${twin}. Past the budget, files are loaded reduced to the quantum (?budget= in the page's URL sets it)`;
  }

  /** @param {'idle'|'loading'|'ready'|'error'} state @param {string} text */
  setStatus(state, text) {
    const el = this.$('status');
    el.dataset.state = state;
    el.textContent = text;
    // The line is cut to one row; the whole sentence on hover.
    el.title = text;
  }

  /** Rewrites the current history entry's fragment after the data's origin changed. */
  writeOrigin() {
    const frag = this.fragment();
    if (`#${frag}` === location.hash || (!location.hash && frag === 'v=1')) return;
    try {
      history.replaceState(null, '', `${location.pathname}${location.search}#${frag}`);
    } catch {
      /* see writeUrl */
    }
    this.lastHash = location.hash;
  }

  /** The runs banner (runs.js): shown while the loaded files are several runs. */
  renderRuns() {
    renderRunBanner(this.$('runs-banner'), this.runPlan, {
      grouped: this.store.state.group_by.split(',').includes('run'),
      onGroup: () => this.store.set({ group_by: 'run' }),
      onCompare: () => {
        if (this.runPlan) openCompare({ engine: this.engine, sources: this.sources, items: this.items, state: this.store.state }, this.runPlan);
      },
    });
  }

  /**
   * The trust summary for the chosen account (the queries' "accounts"
   * option, so the table names the files the queries leave out); null when
   * the engine has none to give (an engine without it, or it failed: the
   * table then shows what it showed before).
   * @returns {Promise<import('../engine/inthread.js').TrustRow[] | null>}
   */
  async fetchTrust() {
    if (!this.engine?.trust) return null;
    try {
      return await this.engine.trust(accountsOf(this.store.state), this.store.state.exclude_sources ?? []);
    } catch (e) {
      console.warn('latscope: no trust summary:', e);
      return null;
    }
  }

  /** After the account changed: the table's summary for it (the views re-query through onChange). */
  async refreshTrust() {
    const gen = this.loadGen;
    const t = await this.fetchTrust();
    if (gen !== this.loadGen) return;
    this.trust = t;
    this.renderFiles();
  }

  renderFiles() {
    const sum = loadSummary(this.sources, this.skipped);
    renderAccountChoice(this.$('account-choice'), this.trust, this.store.state.account, (account) => this.store.set({ account }));
    this.$('file-count').textContent = this.sources.length ? `(${sum.logs} of ${sum.logs + sum.broken} logs usable)` : this.pending.size ? `(${this.pending.size})` : '';
    renderFileTable(this.$('file-table'), this.$('host-table'), this.$('file-errors'), {
      sources: this.sources,
      skipped: this.skipped,
      pending: this.pending,
      state: this.store.state,
      placed: this.pct?.placed,
      trust: this.trust,
      onToggleFile: (name, on) => {
        const ex = new Set(this.store.state.exclude_sources);
        if (on) ex.delete(name);
        else ex.add(name);
        this.store.set({ exclude_sources: [...ex] });
      },
      onToggleHost: (host, on) => {
        const ex = new Set(this.store.state.exclude_hosts);
        if (on) ex.delete(host);
        else ex.add(host);
        this.store.set({ exclude_hosts: [...ex] });
      },
      onOffset: (host, ms) => this.store.set({ offsets: { ...this.store.state.offsets, [host]: ms } }),
      onFileOffset: (name, ms) => this.store.set({ offsets: { ...this.store.state.offsets, [name]: ms } }),
    });
    renderReportInputs(this.$('report-inputs'), this.reportInputs?.rows, this.reportInputs?.dropped);
    // URLs that failed (CORS, HTTP errors) while the others loaded.
    const errEl = this.$('file-errors');
    for (const m of this.fetchErrors) {
      const d = document.createElement('div');
      d.className = 'file-error-msg fetch-error';
      d.textContent = m;
      errEl.prepend(d);
    }
  }

  // ---------------------------------------------------------------- views

  /** @param {Set<string>} changed */
  onChange(changed) {
    const s = this.store.state;
    if (changed.has('theme')) {
      document.documentElement.dataset.theme = s.theme;
      try {
        localStorage.setItem('latscope-theme', s.theme);
      } catch {
        /* storage refused (sandboxed iframe) */
      }
    }
    if (changed.has('view')) this.showView(s.view);
    if (changed.has('group_by')) this.renderRuns();
    if (changed.has('exclude_sources') || changed.has('exclude_hosts') || changed.has('offsets')) this.renderFiles();
    if ((changed.has('account') || changed.has('exclude_sources')) && this.sources.length) this.refreshTrust();
    if (changed.has('exclude_sources') || changed.has('exclude_hosts') || changed.has('method') || changed.has('kinds')) this.updateInputChoices();
    if (changed.has('sla') || changed.has('percentiles')) {
      // The rules' percentiles are shown (the CLI adds them to its query the same way).
      const add = missingPercentiles(this.slaRules(), s.percentiles);
      if (add.length) {
        this.store.set({ percentiles: [...s.percentiles, ...add].sort((a, b) => Number(a) - Number(b)) });
        return;
      }
    }
    if (['yZoomNs', 'clipOutliers', 'view', 'heatY', 'co_interval_ms', 'groupsMode', 'percentiles', 'group_by', 'adaptive'].some((k) => changed.has(k))) {
      renderViewToolbar(this.$('view-toolbar'), this.store, this.toolbarInfo());
      this.relayout();
    }
    if (changed.has('range') || changed.has('quantum_ms')) this.updateRangeText();
    if (this.settingUp) return;
    if (this.lod && (changed.has('range') || changed.has('quantum_ms'))) {
      // Kept so that a caller (a test, the benchmark) can wait for the swap.
      this.levelBusy = this.followLevel();
      return;
    }
    if (!this.sources.length) return;
    this.refresh(false);
  }

  /** What the view toolbars need from the loaded data. */
  toolbarInfo() {
    return { surfaceLevels: () => SURFACE_LEVELS, perIo: () => perIoLoaded(this.sources || []), groupsBy: () => groupsBy(this.store.state) };
  }

  /**
   * After a load: choices the new inputs do not allow fall back (exact
   * without per-I/O logs -> interp, a kind not loaded -> the default, rows by
   * bs/offset without per-I/O logs -> latency), then the selectors show
   * what is possible.
   */
  fitInputChoices() {
    const s = this.store.state;
    /** @type {Partial<import('./state.js').State>} */
    const patch = {};
    if (s.method === 'exact' && !exactAllowed(this.sources, s)) patch.method = 'interp';
    if (s.kinds && !kindsOf(this.sources).includes(s.kinds)) patch.kinds = '';
    if (s.heatY !== 'latency' && !perIoLoaded(this.sources)) patch.heatY = 'latency';
    if (Object.keys(patch).length) this.store.set(patch);
    this.updateInputChoices();
    renderViewToolbar(this.$('view-toolbar'), this.store, this.toolbarInfo());
    this.relayout();
  }

  /** Method and kind selectors for the loaded, selected inputs. */
  updateInputChoices() {
    const s = this.store.state;
    setInputChoices(this.$('controls'), methodChoices(this.sources, s), kindChoices(kindsOf(this.sources)), s);
  }

  /**
   * The engine's notes on the shown query (kinds left out, exact falling
   * back to bins, series of another time base), under the view toolbar.
   * @param {any} r query result
   */
  showNotes(r) {
    const finer = this.$('quantum-finer');  // beside the quantum selector (docs/quanta.md)
    if (finer) finer.hidden = !anyFiner(r);
    const el = this.$('query-notes');
    const reducedNote = reducedQuantumNote(this.sources, this.store.state.quantum_ms);
    const notes = /** @type {string[]} */ ([...(r?.notes || []), ...(reducedNote ? [reducedNote] : [])]);
    const text = notes.join('\n');
    if (el.dataset.text === text) return;
    el.dataset.text = text;
    el.hidden = !notes.length;
    el.replaceChildren(...notes.map((n) => Object.assign(document.createElement('div'), { textContent: `Note: ${n}` })));
    this.relayout();
  }

  /**
   * After something above the charts changed height (notes, a toolbar that
   * wraps): the visible chart takes the new size and is drawn again.
   */
  relayout() {
    const view = this.views?.[this.store.state.view];
    if (!view || !view.frame.resize()) return;
    // Only the heat map's query depends on the chart's size (its rows); the
    // others are redrawn from what they have (re-asking them costs seconds with hundreds of groups).
    delete this.keys.heatmap;
    if (this.sources.length) this.refresh(true);
    else view.render();
  }

  /** @param {ViewName} v */
  showView(v) {
    for (const name of VIEWS) {
      this.$(`view-${name}`).hidden = name !== v;
      document.querySelector(`.tabs [data-view="${name}"]`)?.setAttribute('aria-selected', String(name === v));
    }
    renderViewToolbar(this.$('view-toolbar'), this.store, this.toolbarInfo());
    const view = this.views?.[v];
    if (view && view.frame.resize()) view.render();
  }

  onResize() {
    for (const v of VIEWS) this.views[v].frame.resize();
    delete this.keys.heatmap;
    if (this.sources.length) this.refresh(true);
  }

  /**
   * Queries what the visible view needs (the percentiles query always: it
   * gives the time extent) and redraws. Refreshes run one at a time; changes
   * arriving meanwhile coalesce into one more run, so a view never shows an
   * answer older than the state it was asked for.
   * @param {boolean} force redraw even when no engine option changed
   * @returns {Promise<void>}
   */
  refresh(force) {
    this.forceNext = this.forceNext || force;
    if (this.running) {
      this.dirty = true;
      return this.running;
    }
    this.setBusy(true);
    this.running = (async () => {
      try {
        do {
          this.dirty = false;
          const f = this.forceNext;
          this.forceNext = false;
          await this.refreshOnce(f);
        } while (this.dirty);
      } finally {
        this.running = null;
        this.setBusy(false);
      }
    })();
    return this.running;
  }

  /**
   * The percentiles as columns, from a small cache of the last answers of
   * the primary engine: the heat map's cluster lines after a regroup are
   * the cluster query the percentiles view made before it (32 logs: 0.35-0.47
   * s of WebAssembly each time). Emptied by every load (the engine's data
   * changed); answers over 100,000 rows are not kept (memory).
   * @param {any} e the engine, or its bounded proxy @param {any} o query options
   * @returns {Promise<import('../engine/columns.js').ResultColumns>}
   */
  async columns(e, o) {
    if (this.answering) return e.queryColumns(o);
    const key = optionsKey(o);
    const hit = this.colCache.get(key);
    if (hit) {
      this.colCache.delete(key);
      this.colCache.set(key, hit);
      return hit;
    }
    const r = await e.queryColumns(o);
    if (r.n <= 100000) {
      this.colCache.set(key, r);
      while (this.colCache.size > 3) this.colCache.delete(/** @type {string} */ (this.colCache.keys().next().value));
    }
    return r;
  }

  /**
   * The percentiles query, told to leave the error bands out when the
   * percentiles view would not draw them over the whole time (the last
   * answer's extent; the first answer has them): over thousands of quanta
   * they are not drawn, yet they were a third of a per-host query and 58% of
   * its columns (docs/page-views.md "Bands when drawn"). The view asks for
   * the bands of what it shows when zoomed in or hovered (bandsOf).
   * @param {any} po pctilesOptions
   */
  withBands(po) {
    const ext = timeExtent(this.pct);
    if (po.adaptive_accuracy > 0 || !ext || this.views.pctiles.bandsAtExtent(ext, po.quantum_ms)) return po;
    return { ...po, bands: false };
  }

  /**
   * The bands the shown percentiles answer left out, for the quanta
   * overlapping `range`: the same query over that time only.
   * @param {[number, number]} range @returns {Promise<import('../engine/columns.js').ResultColumns>}
   */
  bandsOf(range) {
    const a = this.pctAsked;
    if (!a) return Promise.reject(new Error('no percentiles query to add bands to'));
    return a.e.queryColumns({ ...a.o, from_ms: range[0], to_ms: range[1] });
  }

  /**
   * Says that the views are being computed: aria-busy on the panels (screen
   * readers wait for them) and a visible spinner with a status text.
   * @param {boolean} on
   */
  setBusy(on) {
    this.$('view-panels').setAttribute('aria-busy', String(on));
    const b = this.$('busy');
    b.classList.toggle('on', on);
    b.textContent = on ? 'Computing…' : '';
  }

  /** @param {boolean} force */
  async refreshOnce(force) {
    const s = this.answering?.state ?? this.store.state;
    // A slice of a result with several levels is queried within its time (level-view.js).
    const e = this.answering ? this.answering.engine : this.lod ? this.lod.bounded(this.engine) : this.engine;
    /** @param {string} key @param {any} opts */
    const changed = (key, opts) => {
      const k = JSON.stringify(opts);
      if (this.keys[key] === k) return false;
      this.keys[key] = k;
      return true;
    };
    try {
      const po = pctilesOptions(s);
      // The groups view has its own query (one percentile per group); the
      // percentiles query per group costs as much again (hundreds of groups:
      // seconds), so it waits until a view or the SLA summary needs it.
      const lazy = s.view === 'groups' && !s.sla.length && this.pct;
      if (!lazy && changed('pctiles', po)) {
        try {
          const t0 = performance.now();
          this.pct = await this.columns(e, this.withBands(po));
          this.pctAsked = { e, o: po };
          measureQuery('percentiles query', t0, this.pct);
        } catch (err) {
          delete this.keys.pctiles;
          throw err;
        }
        force = true;
        this.updateRangeText();
        this.showNotes(this.pct);
        // Files the engine placed by their job's startdelay: the table shows the shift.
        const placedKey = JSON.stringify(this.pct?.placed ?? {});
        if (placedKey !== this.placedKey) {
          this.placedKey = placedKey;
          this.renderFiles();
        }
        this.colors.see([...this.pct.groups].sort(naturalCompare));
      }
      this.showSla();
      if (s.view === 'pctiles') {
        const view = this.views.pctiles;
        const t0 = performance.now();
        view.setData(this.pct);
        await view.drawing; // "ready" means drawn
        performance.measure('latscope: percentiles drawn', { start: t0 });
        // Counted for the benchmarks: the first answer to a zoom comes before its detail (followLevel).
        this.pctDraws++;
      } else if (s.view === 'heatmap') {
        const view = this.views.heatmap;
        const rows = view.wantedRows();
        let yNs = s.yZoomNs;
        const co = clusterOptions(s);
        if (force || changed('heatmap', [heatmapOptions(s, rows, yNs), s.clipOutliers, co, s.range])) {
          let t0 = performance.now();
          let hm = await e.heatmap(heatmapOptions(s, rows, yNs));
          performance.measure('latscope: heat map query', { start: t0 });
          if (!yNs && hm.quanta && s.heatY === 'latency') {
            // The full range first; then again fitted to the rows holding
            // I/Os in the zoomed time, and up to the 99.9th percentile row
            // when outliers are clipped.
            const fit = s.range ? visibleRowSpan(hm, s.range) : null;
            let want = fit;
            if (s.clipOutliers) want = [fit ? fit[0] : hm.edges_ns[0], Math.min(clipTopNs(hm, 0.001), fit ? fit[1] : Infinity)];
            if (want && want[1] > want[0] && (want[0] > hm.edges_ns[0] || want[1] < hm.edges_ns[hm.rows])) {
              yNs = want;
              t0 = performance.now();
              hm = await e.heatmap(heatmapOptions(s, rows, yNs));
              performance.measure('latscope: heat map fitted', { start: t0 });
            }
          }
          t0 = performance.now();
          const lines = s.heatY !== 'latency' ? null : pctilesAreCluster(s) ? this.pct : await this.columns(e, co);
          performance.measure('latscope: heat map lines', { start: t0 });
          t0 = performance.now();
          view.setData(hm, lines);
          performance.measure('latscope: heat map drawn', { start: t0 });
        } else view.render();
      } else if (s.view === 'surface') {
        const view = this.views.surface;
        const so = surfaceOptions(s);
        if (changed('surface', so) || force) view.setData(await e.query(so));
        else view.render();
      } else if (s.view === 'groups') {
        const view = this.views.groups;
        const go = groupsOptions(s);
        const a = changed('groups', go);
        // As typed arrays built in the worker (engine/matrix.js): 200 hosts x 1 h at 1 s is 720,000 rows.
        if (a || !this.groupsResult) {
          const t0 = performance.now();
          this.groupsResult = await e.queryMatrix(go);
          measureQuery('groups matrix query', t0, this.groupsResult);
        }
        const gm = /** @type {import('../engine/matrix.js').ResultMatrix} */ (this.groupsResult);
        const ext = gm.times.length ? /** @type {[number, number]} */ ([gm.times[0], gm.times[gm.times.length - 1] + gm.quantum_ms]) : null;
        const ro = ext ? groupsRunOptions(s, s.range || ext, this.sources) : null;
        const b = changed('groupsRun', ro);
        if (a || b || force) {
          if (b || !this.groupsRun) {
            const t0 = performance.now();
            this.groupsRun = ro ? await e.query(ro) : null;
            performance.measure('latscope: groups ranking query', { start: t0 });
          }
          this.colors.see([...gm.groups].sort(naturalCompare));
          view.setData(fromResultMatrix(gm, 0), this.groupsRun ? runValues(this.groupsRun, 0) : null, { unit: gm.unit, absolute: gm.absolute_time });
        } else view.render();
      } else if (s.view === 'spectrum') {
        const view = this.views.spectrum;
        const range = s.range || timeExtent(this.pct);
        if (!range) return view.setData(null, null);
        const so = spectrumOptions(s, range, this.sources);
        if (changed('spectrum', so) || force) view.setData(await e.query(so), s.range);
        else view.render();
      }
    } catch (err) {
      // A failed query must be retried next time, not remembered as done.
      for (const k of ['heatmap', 'surface', 'spectrum', 'groups', 'groupsRun']) delete this.keys[k];
      console.error(err);
      this.setStatus('error', `Query failed: ${/** @type {Error} */ (err).message}`);
    }
  }

  /**
   * The SLA verdict under the views: per rule, the total over groups (what
   * `latscope pctiles --sla` prints for the same query) and each group,
   * violating groups first; beyond eight groups the rest fold away.
   */
  showSla() {
    const el = this.$('sla-summary');
    const rules = this.slaRules();
    const h0 = el.hidden ? 0 : el.offsetHeight;
    if (!rules.length || !this.pct || !this.pct.n) {
      el.hidden = true;
      el.replaceChildren();
      if (h0) this.relayout();
      return;
    }
    const doc = document;
    const q = this.pct.adaptive ? 0 : this.pct.quantum_ms;
    /** @param {any} rule @param {import('./sla.js').SlaOutcome} o @param {boolean} total */
    const line = (rule, o, total) => {
      const d = doc.createElement('div');
      d.className = `sla-line${o.violated ? ' sla-bad' : ''}`;
      d.dataset.rule = rule.text;
      d.dataset.what = rule.what;
      d.dataset.group = total ? '*' : o.group;
      d.dataset.violated = String(o.violated);
      d.dataset.evaluated = String(o.evaluated);
      d.textContent = slaSentence(rule, o, q);
      return d;
    };
    /** @type {HTMLElement[]} */
    const out = [];
    for (const ev of evaluateSla(this.pct, rules)) {
      const groups = ev.groups.slice().sort((a, b) => b.violated - a.violated || naturalCompare(a.group, b.group));
      if (groups.length > 1) out.push(line(ev.rule, ev.total, true));
      const shown = groups.length > 1 ? groups.slice(0, 8) : groups;
      for (const o of shown) out.push(line(ev.rule, o, false));
      if (groups.length > shown.length) {
        const det = doc.createElement('details');
        const sum = doc.createElement('summary');
        const bad = groups.slice(shown.length).filter((o) => o.violated).length;
        sum.textContent = `${groups.length - shown.length} more groups (${bad} with violations)`;
        det.append(sum, ...groups.slice(shown.length).map((o) => line(ev.rule, o, false)));
        out.push(det);
      }
    }
    el.replaceChildren(...out);
    el.hidden = false;
    // The charts give it the room it takes (a no-op when its height is unchanged).
    if (el.offsetHeight !== h0) this.relayout();
  }

  /**
   * A click on a group (groups view): the selection narrowed to that group
   * (hosts or files excluded, direction chosen) and its latency heat map.
   * @param {string} key engine group key ("host=a")
   */
  pickGroup(key) {
    const s = this.store.state;
    const before = this.focus ? this.focus.before : { exclude_sources: s.exclude_sources, exclude_hosts: s.exclude_hosts, directions: s.directions };
    const sel = selectionForGroup(key, this.sources.filter(isLog), before);
    this.focus = { key, before };
    const text = this.$('group-focus-text');
    text.textContent = `Showing ${key} only (files and hosts of other groups are excluded in the file table).${sel.unsupported.length ? ` The label ${sel.unsupported.join(', ')} cannot be selected this way: those series are all shown.` : ''}`;
    this.$('group-focus').hidden = false;
    this.store.set({ exclude_sources: sel.exclude_sources, exclude_hosts: sel.exclude_hosts, directions: sel.directions, yZoomNs: null, view: 'heatmap' });
    this.relayout();
  }

  /** Back from a picked group: the selection before, and the groups view. */
  clearFocus() {
    const f = this.focus;
    this.focus = null;
    this.$('group-focus').hidden = true;
    if (f) this.store.set({ ...f.before, view: 'groups' });
    this.relayout();
  }

  /** @param {[number, number] | null} r */
  setRange(r) {
    const s = this.store.state;
    this.store.set({ range: r ? snapRange(r, s.quantum_ms, this.fullExtent()) : null });
  }

  /** The time of everything loaded: a result with several levels spans its whole file, whatever slice is in the engine. */
  fullExtent() {
    return this.lod?.extent ?? timeExtent(this.pct);
  }

  resetZoom() {
    this.store.set({ range: null, yZoomNs: null });
  }

  /** @param {{zoom?: number, pan?: number}} op */
  zoom(op) {
    const ext = this.fullExtent();
    if (!ext) return;
    const s = this.store.state;
    const r = zoomRange(s.range, ext, op, s.quantum_ms);
    this.store.set({ range: r ? snapRange(r, s.quantum_ms, ext) : null });
  }

  updateRangeText() {
    const s = this.store.state;
    const abs = !!this.pct?.absolute_time;
    this.$('range-text').textContent = s.range
      ? `zoom ${formatTime(s.range[0], abs)} … ${formatTime(s.range[1], abs)} · quantum ${quantumLabel(s.quantum_ms)}`
      : `quantum ${quantumLabel(s.quantum_ms)}`;
  }

  toggleTheme() {
    this.store.set({ theme: this.store.state.theme === 'dark' ? 'light' : 'dark' });
    // Colours come from CSS variables read at draw time: redraw everything.
    for (const v of VIEWS) this.views[v].render();
  }

  // ---------------------------------------------------------------- export

  /** @param {'png'|'svg'} kind */
  async exportImage(kind) {
    const s = this.store.state;
    const view = this.views[s.view];
    // Charts drawn in slices must be complete; only the percentiles view draws in slices.
    await /** @type {{drawing?: Promise<void>}} */ (view).drawing;
    const frame = view.frame;
    const name = `latscope-${s.view}.${kind}`;
    const caption = this.exportCaption();
    if (kind === 'svg') downloadText(frame.toSVGString(caption), name, 'image/svg+xml');
    else downloadBlob(await frame.toPNGBlob(caption), name);
  }

  /** Title and context lines of an exported image (caption.js). */
  exportCaption() {
    const s = this.store.state;
    const files = this.sources
      .filter((src) => isLog(src) && !s.exclude_sources.includes(src.name) && !s.exclude_hosts.includes(src.host || src.labels?.host || LOCAL_HOST))
      .map((src) => src.name)
      .sort(naturalCompare);
    const heatRows = s.heatY === 'latency' ? 'latency' : s.heatY === 'bs' ? 'block size' : 'offset';
    return exportCaption({ view: s.view, state: s, files, extent: timeExtent(this.pct), absolute: !!this.pct?.absolute_time, groups: this.pct?.groups || [], heatRows });
  }

  /** The percentiles view as `latscope pctiles` CSV (zoomed range only when zoomed). */
  async exportPctilesCsv() {
    if (!this.engine || !this.sources.length) return;
    const s = this.store.state;
    const opts = pctilesOptions(s);
    if (s.range) Object.assign(opts, { from_ms: s.range[0], to_ms: s.range[1] });
    downloadText(await this.engine.csv(opts), 'latscope-pctiles.csv', 'text/csv');
  }

  /** CSV of the numbers the visible view shows. */
  async exportViewCsv() {
    if (!this.engine || !this.sources.length) return;
    const s = this.store.state;
    if (s.view === 'pctiles') return this.exportPctilesCsv();
    if (s.view === 'heatmap') {
      const hm = this.views.heatmap.hm;
      if (hm) downloadText(heatmapCsv(hm, s.unit, s.range), 'latscope-heatmap.csv', 'text/csv');
      return;
    }
    if (s.view === 'surface') {
      const opts = surfaceOptions(s);
      if (s.range) Object.assign(opts, { from_ms: s.range[0], to_ms: s.range[1] });
      return downloadText(await this.engine.csv(opts), 'latscope-surface.csv', 'text/csv');
    }
    const range = s.range || timeExtent(this.pct);
    if (range) downloadText(await this.engine.csv(spectrumOptions(s, range, this.sources)), 'latscope-spectrum.csv', 'text/csv');
  }
}

/**
 * The fragment's fields at their defaults: a fragment that lacks a field
 * means the default (Back to an earlier entry restores it). The theme stays
 * the viewer's unless the fragment names one.
 * @param {'light'|'dark'} theme
 */
function urlDefaults(theme) {
  const s = initialState();
  /** @type {Record<string, any>} */
  const out = {};
  for (const k of URL_KEYS) out[k] = /** @type {Record<string, any>} */ (s)[k];
  out.theme = theme;
  return out;
}

/** The state without the fields that need the data (applied after the load). @param {Record<string, any>} s */
function withoutDataFields(s) {
  const { range, exclude_sources, exclude_hosts, offsets, group_by, ...rest } = s;
  return rest;
}

/**
 * A query's options as a cache key: keys sorted, and options that are off
 * (no coordinated-omission interval, no adaptive accuracy) left out, so the
 * percentiles view's cluster query and the heat map's lines match.
 * @param {Record<string, any>} o
 */
function optionsKey(o) {
  const off = (/** @type {string} */ k) => o[k] === undefined || ((k === 'co_interval_ms' || k === 'adaptive_accuracy') && !o[k]);
  return JSON.stringify(Object.keys(o).sort().filter((k) => !off(k)).map((k) => [k, o[k]]));
}

/**
 * Stage figures for the benchmarks (web/scripts/bench-groups-chromium.mjs):
 * a query's wall time since t0, and of it the engine's when the answer says.
 * @param {string} name @param {number} t0 @param {{engine_ms?: number}} answer
 */
function measureQuery(name, t0, answer) {
  performance.measure(`latscope: ${name}`, { start: t0 });
  if (answer.engine_ms != null) performance.measure('latscope: of it in the engine', { start: t0, duration: answer.engine_ms });
}
