// The page controller: loading (picker, folder, drop, demo) with progress
// and cancel, the file table, and the four linked views. Queries go to the
// engine (a Web Worker by default); a state change re-queries only the views
// whose engine options changed, and never re-reads files.
import { Store, initialState } from './state.js';
import { renderControls, renderViewToolbar, quantumLabel, setGroupings } from './controls.js';
import { renderFileTable } from './file-table.js';
import { pctilesOptions, clusterOptions, surfaceOptions, heatmapOptions, spectrumOptions, snapRange, zoomRange, SURFACE_LEVELS } from './queries.js';
import { downloadBlob, downloadText } from './download.js';
import { installKeys } from './keys.js';
import { loadDemoItems } from './demo.js';
import { progressText } from './progress.js';
import { loadSummary, groupingsFor } from './sources.js';
import { itemsFromFileList, itemsFromDataTransfer } from '../load/files.js';
import { PercentilesView } from '../views/pctiles-view.js';
import { HeatmapView } from '../views/heatmap-view.js';
import { SurfaceView } from '../views/surface-view.js';
import { SpectrumView } from '../views/spectrum-view.js';
import { timeExtent } from '../views/pctiles-data.js';
import { heatmapCsv } from '../views/heatmap-data.js';
import { clipTopNs } from '../views/scales.js';
import { formatTime } from '../views/time-axis.js';

/** @typedef {import('./state.js').ViewName} ViewName */
/** @typedef {{pctiles: PercentilesView, heatmap: HeatmapView, surface: SurfaceView, spectrum: SpectrumView}} Views */

/** @type {ViewName[]} */
export const VIEWS = ['pctiles', 'heatmap', 'surface', 'spectrum'];

export class App {
  /** @param {{createEngine: (o: any) => Promise<any>}} engineApi */
  constructor(engineApi) {
    this.engineApi = engineApi;
    this.store = new Store(initialState());
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
    this.loadGen = 0;
    /** @type {Promise<void> | null} */
    this.running = null;
    this.dirty = false;
    this.forceNext = false;
    /** @type {AbortController | null} */
    this.abort = null;
    this.$ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
    // The views need the page's elements, so init() makes them; the page
    // calls nothing else before init(). (JSDoc's form of TypeScript's `views!`.)
    /** @type {Views} */
    this.views = /** @type {Views} */ (/** @type {unknown} */ (undefined));
  }

  init() {
    const st = this.store;
    const saved = localStorage.getItem('latscope-theme');
    const dark = saved ? saved === 'dark' : window.matchMedia?.('(prefers-color-scheme: dark)').matches;
    st.set({ theme: dark ? 'dark' : 'light' });
    document.documentElement.dataset.theme = st.state.theme;
    renderControls(this.$('controls'), st);

    const ctx = {
      store: st,
      extent: () => timeExtent(this.pct),
      onRange: (/** @type {[number, number] | null} */ r) => this.setRange(r),
      onYZoom: (/** @type {[number, number] | null} */ y) => st.set({ yZoomNs: y, clipOutliers: false }),
    };
    this.views = {
      pctiles: new PercentilesView(this.$('view-pctiles'), ctx),
      heatmap: new HeatmapView(this.$('view-heatmap'), ctx),
      surface: new SurfaceView(this.$('view-surface'), ctx),
      spectrum: new SpectrumView(this.$('view-spectrum'), ctx),
    };
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
    this.$('demo-button').addEventListener('click', () => this.loadDemo());
    this.$('cancel-button').addEventListener('click', () => this.abort?.abort());
    this.$('theme-button').addEventListener('click', () => this.toggleTheme());
    const help = /** @type {HTMLDialogElement} */ (this.$('help'));
    this.$('help-button').addEventListener('click', () => help.showModal());
    this.installDrop();
    installKeys(this, help);

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
    if (location.hash === '#demo') this.loadDemo();
    window.addEventListener('hashchange', () => location.hash === '#demo' && this.loadDemo());
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
      if (e.dataTransfer) itemsFromDataTransfer(e.dataTransfer).then((sel) => this.loadSelection(sel));
    });
  }

  async loadDemo() {
    this.setStatus('loading', 'Fetching the demo logs…');
    try {
      const { items, note } = await loadDemoItems();
      this.demoNote = note;
      await this.load(items);
    } catch (e) {
      this.setStatus('error', `Demo data unavailable: ${/** @type {Error} */ (e).message}`);
    }
  }

  /**
   * Loads what a picker or a drop gave; says so when everything was left out
   * (never silently nothing).
   * @param {import('../load/files.js').ItemSelection} sel
   */
  loadSelection(sel) {
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
   */
  async load(items, skipped = []) {
    if (!items.length) return;
    this.skipped = skipped;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const gen = ++this.loadGen;
    const total = items.reduce((a, it) => a + it.file.size, 0);
    this.pending = new Map(items.map((it) => [it.name, { state: 'queued', bytesDone: 0, bytesTotal: it.file.size }]));
    this.sources = [];
    this.pct = null;
    this.keys = {};
    this.store.set({ exclude_sources: [], exclude_hosts: [], offsets: {}, range: null, yZoomNs: null });
    this.setStatus('loading', `Reading ${items.length} file${items.length > 1 ? 's' : ''}…`);
    const prog = this.$('progress');
    prog.hidden = false;
    this.renderFiles();
    const t0 = performance.now();
    let raf = 0;
    const paint = () => {
      raf = 0;
      let done = 0;
      for (const p of this.pending.values()) done += p.state === 'done' || p.state === 'error' ? p.bytesTotal : p.bytesDone;
      const secs = (performance.now() - t0) / 1000;
      /** @type {HTMLElement} */ (this.$('progress-fill')).style.width = `${total ? (100 * done) / total : 0}%`;
      const files = [...this.pending.values()];
      this.$('progress-text').textContent = progressText(done, total, secs, files.filter((p) => p.state === 'done' || p.state === 'error').length, files.length);
      // The table is rebuilt at most 3 times a second: DOM work competes
      // with the main thread's responsiveness during a big load.
      const now = performance.now();
      if (now - lastTable > 330) {
        lastTable = now;
        this.renderFiles();
      }
    };
    let lastTable = 0;
    try {
      if (!this.engine) this.engine = await this.engineApi.createEngine({ mode: 'worker', workers: Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)) });
      else if (this.engine.reset) await this.engine.reset();
      const sources = await this.engine.loadFiles(items, {
        signal: abort.signal,
        onProgress: (/** @type {any} */ p) => {
          if (gen !== this.loadGen) return;
          this.pending.set(p.file, { ...this.pending.get(p.file), ...p });
          if (!raf) raf = requestAnimationFrame(paint);
        },
      });
      if (gen !== this.loadGen) return;
      this.sources = sources;
      for (const s of sources) this.pending.set(s.name, { state: s.status?.ok === false ? 'error' : 'done', bytesDone: s.bytes, bytesTotal: s.bytes, message: s.status?.message });
      paint();
      prog.hidden = true;
      this.renderFiles();
      const sum = loadSummary(sources, this.skipped);
      // Group-by offers the labels these logs carry; a choice they lack falls back to the cluster.
      const groupings = groupingsFor(sources);
      const group_by = groupings.some(([v]) => v === this.store.state.group_by) ? this.store.state.group_by : 'all';
      setGroupings(this.$('controls'), groupings, group_by);
      if (group_by !== this.store.state.group_by) this.store.set({ group_by });
      if (!sum.logs) {
        this.setStatus('error', sum.text);
        for (const v of VIEWS) this.views[v].frame.message('No readable latency logs');
        return;
      }
      await this.refresh(true);
      if (gen !== this.loadGen) return;
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      this.setStatus('ready', `${loadSummary(sources, this.skipped, `in ${secs} s`).text}${this.demoNote ? ` — ${this.demoNote}` : ''}`);
      this.demoNote = '';
    } catch (e) {
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

  /** @param {'idle'|'loading'|'ready'|'error'} state @param {string} text */
  setStatus(state, text) {
    const el = this.$('status');
    el.dataset.state = state;
    el.textContent = text;
  }

  renderFiles() {
    const sum = loadSummary(this.sources, this.skipped);
    this.$('file-count').textContent = this.sources.length ? `(${sum.logs} of ${sum.logs + sum.broken} logs usable)` : this.pending.size ? `(${this.pending.size})` : '';
    renderFileTable(this.$('file-table'), this.$('host-table'), this.$('file-errors'), {
      sources: this.sources,
      skipped: this.skipped,
      pending: this.pending,
      state: this.store.state,
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
    });
  }

  // ---------------------------------------------------------------- views

  /** @param {Set<string>} changed */
  onChange(changed) {
    const s = this.store.state;
    if (changed.has('theme')) {
      document.documentElement.dataset.theme = s.theme;
      localStorage.setItem('latscope-theme', s.theme);
    }
    if (changed.has('view')) this.showView(s.view);
    if (changed.has('exclude_sources') || changed.has('exclude_hosts') || changed.has('offsets')) this.renderFiles();
    if (changed.has('yZoomNs') || changed.has('clipOutliers') || changed.has('view')) renderViewToolbar(this.$('view-toolbar'), this.store, { surfaceLevels: () => SURFACE_LEVELS });
    if (changed.has('range') || changed.has('quantum_ms')) this.updateRangeText();
    if (!this.sources.length) return;
    this.refresh(false);
  }

  /** @param {ViewName} v */
  showView(v) {
    for (const name of VIEWS) {
      this.$(`view-${name}`).hidden = name !== v;
      document.querySelector(`.tabs [data-view="${name}"]`)?.setAttribute('aria-selected', String(name === v));
    }
    renderViewToolbar(this.$('view-toolbar'), this.store, { surfaceLevels: () => SURFACE_LEVELS });
    const view = this.views?.[v];
    if (view && view.frame.resize()) view.render();
  }

  onResize() {
    for (const v of VIEWS) this.views[v].frame.resize();
    this.keys = {};
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
      }
    })();
    return this.running;
  }

  /** @param {boolean} force */
  async refreshOnce(force) {
    const s = this.store.state;
    const e = this.engine;
    /** @param {string} key @param {any} opts */
    const changed = (key, opts) => {
      const k = JSON.stringify(opts);
      if (this.keys[key] === k) return false;
      this.keys[key] = k;
      return true;
    };
    try {
      const po = pctilesOptions(s);
      if (changed('pctiles', po)) {
        try {
          this.pct = await e.query(po);
        } catch (err) {
          delete this.keys.pctiles;
          throw err;
        }
        force = true;
        this.updateRangeText();
      }
      if (s.view === 'pctiles') {
        const view = this.views.pctiles;
        view.setData(this.pct);
        await view.drawing; // "ready" means drawn
      } else if (s.view === 'heatmap') {
        const view = this.views.heatmap;
        const rows = view.wantedRows();
        let yNs = s.yZoomNs;
        const co = clusterOptions(s);
        if (force || changed('heatmap', [heatmapOptions(s, rows, yNs), s.clipOutliers, co])) {
          let hm = await e.heatmap(heatmapOptions(s, rows, yNs));
          if (s.clipOutliers && !yNs && hm.quanta) {
            // The full range first, then again up to the 99.9th percentile row.
            yNs = [hm.edges_ns[0], clipTopNs(hm, 0.001)];
            hm = await e.heatmap(heatmapOptions(s, rows, yNs));
          }
          const lines = s.group_by === 'all' ? this.pct : await e.query(co);
          view.setData(hm, lines);
        } else view.render();
      } else if (s.view === 'surface') {
        const view = this.views.surface;
        const so = surfaceOptions(s);
        if (changed('surface', so) || force) view.setData(await e.query(so));
        else view.render();
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
      for (const k of ['heatmap', 'surface', 'spectrum']) delete this.keys[k];
      console.error(err);
      this.setStatus('error', `Query failed: ${/** @type {Error} */ (err).message}`);
    }
  }

  /** @param {[number, number] | null} r */
  setRange(r) {
    const s = this.store.state;
    this.store.set({ range: r ? snapRange(r, s.quantum_ms, timeExtent(this.pct)) : null });
  }

  resetZoom() {
    this.store.set({ range: null, yZoomNs: null });
  }

  /** @param {{zoom?: number, pan?: number}} op */
  zoom(op) {
    const ext = timeExtent(this.pct);
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
    if (kind === 'svg') downloadText(frame.toSVGString(), name, 'image/svg+xml');
    else downloadBlob(await frame.toPNGBlob(), name);
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
