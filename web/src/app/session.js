// The session: what is loaded and how. Loading (picker, folder, drop, URLs,
// a link's data, the demo, an embedded report) with progress and cancel,
// the engine that holds the sources, their runs and trust summary, and a
// result with several levels (level-follow.js). It reports through the
// store (state.js SessionState); the page draws that (session-panels.js)
// and the session touches no element. What the load changes of the view
// state, and the first drawing, go through the page it is given.
import { afterNextFrame } from '../util/yield.js';
import { rememberFiles, sameFiles } from './reopen.js';
import { formatQuantum, formatSecondsOfMs } from '../util/format.js';
import { planRuns } from './runs.js';
import { mergeItems, askReplaceOrAdd } from './add-files.js';
import { LevelFollower } from './level-follow.js';
import { LevelView } from './level-view.js';
import { HostMatrix } from './host-matrix.js';
import { loadDemoItems } from './demo.js';
import { progressText } from './progress.js';
import { loadSummary, groupingsFor } from './sources.js';
import { reducedStatus } from './memory-budget.js';
import { accountsOf } from './options.js';
import { resultOptions } from './queries.js';
import { decodeLinkData } from './link.js';
import { statItems } from '../load/files.js';
import { fetchItems, urlFileName } from '../load/remote.js';
import { blobSource, urlSource } from '../load/levels.js';

/** @typedef {import('./state.js').State} State */

/**
 * What to do once a load finished: the view state a link or a posted
 * message asked for (applied after the load's own reset), and errors of
 * URLs that failed while the others load.
 * @typedef {object} LoadExtras
 * @property {Partial<State>} [after]
 * @property {string[]} [fetchErrors]
 * @property {import('./state.js').Origin} [origin] where the data came from (kept in the fragment)
 * @property {LevelView} [lod] a result with several levels being read by ranges (items: its slice)
 * @property {import('./level-view.js').Pick} [lodPick] which level and blocks that slice holds
 * @property {boolean} [keep] another slice of the same result: the view state (zoom, exclusions, offsets) stays
 * @property {{rows: import('../engine/inthread.js').TrustRow[], dropped: number}} [inputs] the files the loaded report was made from (its embedded trust summary)
 */

/**
 * What a load asks of the page around it.
 * @typedef {object} SessionPage
 * @property {(keep: boolean) => void} beforeLoad new data comes: queries, a picked group and (unless keep) the data's view state are dropped
 * @property {(state: Partial<State>) => void} applyState view state a link or the load sets (no history entry)
 * @property {(groupings: [string, string][], groupBy: string) => void} offerGroupings the group-by choices the loaded files carry
 * @property {() => void} fitInputChoices choices the new inputs do not allow fall back
 * @property {(text: string) => void} message every view says this instead of a chart
 * @property {(force: boolean) => Promise<void>} refresh
 * @property {() => void} originChanged the fragment names where the data now comes from
 * @property {() => number} chartWidth px of the percentiles chart (a result's level is picked for it)
 */

export class Session {
  /** A quantum picked in the selector or named by a link stays (state quantumPinned); else it follows the zoom. */
  get quantumChosen() {
    return this.store.state.quantumPinned;
  }

  set quantumChosen(v) {
    this.store.state.quantumPinned = v;
  }

  /**
   * @param {import('./state.js').Store} store
   * @param {{createEngine: (o: any) => Promise<any>}} engineApi
   * @param {{budget: number, workerMemory: number, problems: string[]}} budget the memory budget and the parse workers' ceiling (memory-budget.js)
   * @param {SessionPage} page
   * @param {import('./scheduler.js').QueryScheduler} scheduler
   */
  constructor(store, engineApi, budget, page, scheduler) {
    this.store = store;
    this.engineApi = engineApi;
    this.budget = budget;
    this.page = page;
    /** @type {any} */
    this.engine = null;
    /** The engine being started (ensureEngine). @type {Promise<any> | null} */
    this.starting = null;
    this.loadGen = 0;
    /** @type {AbortController | null} */
    this.abort = null;
    /** load() is applying the new data's state; its own refresh follows (the page's onChange waits). */
    this.settingUp = false;
    /** The demo's note, said with the status once it is loaded. */
    this.demoNote = '';
    /** After a reload of local files: their names and the view to apply when they are opened again (reopen.js). @type {{names: string[], state: Partial<State>} | null} */
    this.reopen = null;
    this.levels = new LevelFollower(this, scheduler);
    /** The loaded result's per-host matrix, or null (host-matrix.js). @type {HostMatrix | null} */
    this.hostMatrix = null;
  }

  /**
   * The engine, started now if nothing has been loaded yet: the SLA field
   * asks core to read its rules before any file (app/sla.js); the first
   * load then uses the same engine.
   * @returns {Promise<any>}
   */
  ensureEngine() {
    if (this.engine) return Promise.resolve(this.engine);
    if (!this.starting) {
      this.starting = this.engineApi
        .createEngine({ mode: 'worker', workers: Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)), helperMemoryBytes: this.budget.workerMemory || undefined })
        .then((e) => (this.engine = e))
        .finally(() => {
          this.starting = null;
        });
    }
    return /** @type {Promise<any>} */ (this.starting);
  }

  /** @param {'idle'|'loading'|'ready'|'error'} state @param {string} text */
  say(state, text) {
    this.store.report({ status: { state, text } });
  }

  /** The progress bar hidden; its fill and line stay as they were. */
  hideProgress() {
    this.store.report({ progress: { ...this.store.session.progress, shown: false, text: undefined } });
  }

  /**
   * Fetches the URLs a link names (#url=) and loads what they hold; the
   * file table lists each while it downloads, and URLs that fail are said
   * under Files while the others load.
   * @param {string[]} urls @param {Partial<State>} [after]
   */
  async loadUrls(urls, after) {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const gen = ++this.loadGen;
    const n = urls.length;
    const store = this.store;
    this.say('loading', `Fetching ${n === 1 ? urlFileName(urls[0]) : `${n} URLs`}…`);
    store.report({ progress: { shown: true, fraction: 0 } });
    /** @type {Map<string, {done: number, total: number}>} */
    const got = new Map(urls.map((u) => [u, { done: 0, total: 0 }]));
    const t0 = performance.now();
    // The file table lists each URL while it downloads (as files while they are read).
    store.report({ sources: [], resultHosts: null, skipped: [], fetchErrors: [], pending: new Map(urls.map((u) => [u, { state: 'queued', bytesDone: 0, bytesTotal: 0 }])) });
    let lastTable = 0;
    // One .lsr URL with several resolutions is read by range requests
    // (level-view.js); anything else, or a server without ranges, whole.
    if (n === 1 && /\.lsr$/i.test(new URL(urls[0]).pathname)) {
      try {
        const src = await urlSource(urls[0], urlFileName(urls[0]), { signal: abort.signal });
        const lod = src && (await LevelView.open(src));
        if (gen !== this.loadGen) return;
        this.hostMatrix = src && (await HostMatrix.open(src));
        if (lod) {
          store.stage({ pending: new Map() });
          this.hideProgress();
          return this.levels.open(lod, [], { after, origin: { urls, data: '', demo: false } });
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
          store.report({ progress: { shown: store.session.progress.shown, fraction: total ? done / total : 0, text: `fetching: ${progressText(done, total, (performance.now() - t0) / 1000, ready, urls.length)}` } });
          store.session.pending.set(p.url, { state: p.state === 'done' ? 'fetched' : 'fetching', bytesDone: p.bytesDone, bytesTotal: p.bytesTotal });
          if (p.state === 'done' || performance.now() - lastTable > 330) {
            lastTable = performance.now();
            store.report({ pending: store.session.pending });
          }
        },
      });
      if (gen !== this.loadGen) return;
      const origin = { urls, data: '', demo: false };
      if (!r.items.length) {
        this.hideProgress();
        store.report({ origin, fetchErrors: r.errors, sources: [], resultHosts: null, pending: new Map(), skipped: r.skipped });
        // The sentences (CORS, HTTP status) are under Files; the status line stays short.
        this.say('error', r.errors.length ? `Nothing loaded: ${r.errors.length === 1 ? 'the URL' : `all ${r.errors.length} URLs`} failed (see the message under Files).` : 'Nothing to read at the URL.');
        this.page.message('Nothing loaded from the URL');
        return;
      }
      await this.load(r.items, r.skipped, { after, fetchErrors: [...r.errors, ...r.notes], origin });
    } catch (e) {
      if (gen !== this.loadGen) return;
      this.hideProgress();
      const err = /** @type {Error} */ (e);
      this.say('error', err.name === 'AbortError' ? 'Loading cancelled.' : `Loading failed: ${err.message}`);
    }
  }

  /**
   * Opens the data of a "link with data" (d=).
   * @param {string} data @param {Partial<State>} [after]
   */
  async loadLinkData(data, after) {
    let r;
    try {
      r = decodeLinkData(data);
    } catch (e) {
      this.say('error', `The link's data cannot be read: ${/** @type {Error} */ (e).message}.`);
      return;
    }
    await this.load([{ name: r.name, file: new Blob([/** @type {BlobPart} */ (r.bytes)]) }], [], { after, origin: { urls: [], data, demo: false } });
  }

  /** @param {Partial<State>} [after] view state a link asked for */
  async loadDemo(after) {
    this.say('loading', 'Fetching the demo logs…');
    try {
      const { items, note } = await loadDemoItems();
      this.demoNote = note;
      await this.load(items, [], { after, origin: { urls: [], data: '', demo: true } });
    } catch (e) {
      this.say('error', `Demo data unavailable: ${/** @type {Error} */ (e).message}`);
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
    const ss = this.store.session;
    if (mode === 'ask' && sel.items.length && ss.items.length) {
      const choice = await askReplaceOrAdd(document, ss.items.length, sel.items.length);
      if (!choice) return;
      mode = choice;
    }
    const reopen = this.reopen;
    this.reopen = null;
    // Files added to a report's result: the result is still there, and so are its inputs.
    if (mode === 'add' && sel.items.length && ss.items.length) {
      const items = mergeItems(ss.items, sel.items);
      await this.load(items, [...ss.skipped, ...sel.skipped], { inputs: ss.reportInputs ?? undefined });
      return rememberFiles(globalThis.sessionStorage, items.map((it) => it.name));
    }
    if (sel.items.length) {
      const names = sel.items.map((it) => it.name);
      // The files a reloaded page named (reopen.js): the view the fragment kept comes back with them.
      await this.load(sel.items, sel.skipped, reopen && sameFiles(reopen.names, names) ? { after: reopen.state } : {});
      return rememberFiles(globalThis.sessionStorage, names);
    }
    if (!sel.skipped.length) return;
    this.store.report({ skipped: sel.skipped, sources: [], resultHosts: null, pending: new Map() });
    this.say('error', `Nothing to read: ${sel.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}.`);
  }

  /**
   * @param {{file: Blob, name: string}[]} items
   * @param {import('../load/files.js').SkippedItem[]} [skipped] left out before loading (listed as ignored)
   * @param {LoadExtras} [extras]
   * @returns {Promise<void>}
   */
  async load(items, skipped = [], extras = {}) {
    if (!items.length) return;
    const store = this.store;
    const ss = store.session;
    if (!extras.lod) {
      // One result with several resolutions is read by ranges (level-view.js).
      this.levels.close();
      this.hostMatrix = null;
      if (items.length === 1 && /\.lsr$/i.test(items[0].name)) {
        try {
          const src = blobSource(items[0].file, items[0].name);
          // Its per-host matrix answers the groups view by host (host-matrix.js).
          this.hostMatrix = await HostMatrix.open(src);
          const lod = await LevelView.open(src);
          if (lod) {
            // "Add files" later adds to the file, not to the slice shown.
            lod.original = items[0];
            return this.levels.open(lod, skipped, extras);
          }
        } catch (e) {
          this.say('error', `${/** @type {Error} */ (e).message}.`);
          return;
        }
      }
    }
    const origin = extras.origin ?? { urls: [], data: '', demo: false };
    const originChanged = JSON.stringify(origin) !== JSON.stringify(ss.origin);
    store.stage({ skipped, fetchErrors: extras.fetchErrors ?? [], origin });
    // Files picked here replace what a link named: the fragment stops naming it.
    if (originChanged) this.page.originChanged();
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const gen = ++this.loadGen;
    const total = await statItems(items);
    if (gen !== this.loadGen) return;
    // Another load replaces the report's result (another slice of it keeps it).
    const reportInputs = extras.inputs ?? (extras.keep ? ss.reportInputs : null);
    store.stage({ pending: new Map(items.map((it) => [it.name, { state: 'queued', bytesDone: 0, bytesTotal: it.file.size }])), sources: [], resultHosts: null, trust: null, reportInputs });
    store.report({ runPlan: null });
    this.page.beforeLoad(!!extras.keep);
    this.say('loading', extras.lod && extras.lodPick ? this.levels.reading(extras.lod, extras.lodPick) : `Reading ${items.length} file${items.length > 1 ? 's' : ''}…`);
    store.report({ progress: { shown: true, fraction: 0 } });
    store.report({ pending: ss.pending });
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
      for (const p of ss.pending.values()) done += p.state === 'done' || p.state === 'error' ? p.bytesTotal : p.bytesDone;
      const secs = (performance.now() - t0) / 1000;
      const files = [...ss.pending.values()];
      store.report({ progress: { shown: ss.progress.shown, fraction: total ? done / total : 0, text: progressText(done, total, secs, files.filter((p) => p.state === 'done' || p.state === 'error').length, files.length) } });
      const now = performance.now();
      if (now - lastTable > tableEvery) {
        lastTable = now;
        store.report({ pendingTick: ss.pendingTick + 1 });
      }
    };
    let lastTable = 0;
    try {
      const tEngine = performance.now();
      if (!this.engine) await this.ensureEngine();
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
        budget: { bytes: this.budget.budget, quantum_ms: extras.after?.quantum_ms ?? store.state.quantum_ms },
        onProgress: (/** @type {any} */ p) => {
          if (gen !== this.loadGen) return;
          const was = ss.pending.get(p.file);
          ss.pending.set(p.file, { ...was, ...p });
          // A file's first part read shows in its row at once when the load
          // has few files: read between two of the table's ticks, a fast
          // file went from "queued" to "done" and never said how far it was.
          // In place and once per file (many files keep the tick alone).
          const first = p.state === 'reading' && p.bytesDone > 0 && p.bytesDone < p.bytesTotal && !((was?.bytesDone ?? 0) > 0);
          if (first && items.length <= 32) store.report({ pendingTick: ss.pendingTick + 1 });
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
      store.stage({ runPlan: planned.plan });
      // After the runs: assigning them settles the unit of per-I/O logs
      // that do not say theirs, which the summary reports.
      store.stage({ trust: await this.fetchTrust() });
      if (gen !== this.loadGen) return;
      // The quantum this load opens at unless one was chosen (selector, link):
      // core's rule, the logs' interval (Engine::default_quantum_ms,
      // docs/page-views.md "Default quantum"), applied with the rest below.
      const q = this.quantumChosen || !this.engine?.defaultQuantum ? null : await this.engine.defaultQuantum();
      if (gen !== this.loadGen) return;
      // A level summed over hosts names none: the host table lists the file's hosts from its finest level's header.
      store.stage({ items: extras.lod?.original ? [extras.lod.original] : items, sources, resultHosts: extras.lod && extras.lodPick?.summed ? extras.lod.hosts() : null });
      // The state this load applies below (groupings, quantum, a link's view)
      // is drawn by the one refresh at its end, not by each change (onChange).
      this.settingUp = true;
      for (const s of sources) ss.pending.set(s.name, { state: s.status?.ok === false ? 'error' : 'done', bytesDone: s.bytes, bytesTotal: s.bytes, message: s.status?.message });
      // The progress line's last figures; the table is rebuilt once, below.
      lastTable = performance.now();
      paint();
      this.hideProgress();
      store.report({ sources, pending: ss.pending });
      // The new file table is laid out in a frame of its own, not in this
      // task by the chart's size read below (docs/page-views.md "The load's longest task").
      await afterNextFrame();
      if (gen !== this.loadGen) return;
      this.showMemory();
      const sum = loadSummary(sources, ss.skipped);
      // Group-by offers the labels these logs carry; a choice they lack falls back to the cluster.
      const groupings = groupingsFor(sources);
      const after = extras.after ?? {};
      const want = after.group_by ?? store.state.group_by;
      const group_by = groupings.some(([v]) => v === want) ? want : 'all';
      this.page.offerGroupings(groupings, group_by);
      // A link's state: what depends on the data is applied now that it is here.
      if (extras.after) this.page.applyState({ ...after, group_by });
      else if (group_by !== store.state.group_by) store.set({ group_by });
      // Unless a quantum was chosen (selector, link): the logs' interval, asked above.
      if (q && q !== store.state.quantum_ms) this.page.applyState({ quantum_ms: q });
      store.report({ runPlan: ss.runPlan });
      this.page.fitInputChoices();
      this.settingUp = false;
      if (!sum.logs) {
        this.say('error', sum.text);
        this.page.message('No readable latency logs');
        return;
      }
      await this.page.refresh(true);
      if (gen !== this.loadGen) return;
      const secs = formatSecondsOfMs(performance.now() - t0);
      this.page.originChanged();
      const reduced = reducedStatus(sources, this.budget.budget);
      const lod = this.levels.lod;
      this.say('ready', `${loadSummary(sources, ss.skipped, `in ${secs} s`).text}${reduced ? ` — ${reduced}` : ''}${lod ? ` — ${lod.note()}` : ''}${this.demoNote ? ` — ${this.demoNote}` : ''}`);
      this.demoNote = '';
    } catch (e) {
      this.settingUp = false;
      if (gen !== this.loadGen) return;
      this.hideProgress();
      const err = /** @type {Error} */ (e);
      if (err.name === 'AbortError') {
        this.say('error', 'Loading cancelled.');
        for (const [k, p] of ss.pending) if (p.state !== 'done') ss.pending.set(k, { ...p, state: 'cancelled' });
        store.report({ pending: ss.pending });
      } else {
        this.say('error', `Loading failed: ${err.message}`);
        console.error(e);
      }
    }
  }

  /** The engine's memory, for the line under the file table. */
  async showMemory() {
    if (!this.engine?.memory) return;
    this.store.report({ memory: await this.engine.memory() });
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
    this.store.report({ trust: t });
  }

  /**
   * The loaded data as a result file at the page's quantum, keeping the
   * labels it groups by (queries.js resultOptions), or as a link's plan
   * asks (queries.js linkPlans), with a display name.
   * @param {{quantum_ms: number, labels: string[]} | null} [plan]
   * @returns {Promise<{name: string, bytes: Uint8Array}>}
   */
  async resultFile(plan = null) {
    // The labels it keeps are the engine's: by host, the hosts' own histograms (level-follow.js).
    await this.levels.withHosts();
    const s = this.store.state;
    const ss = this.store.session;
    const { bytes } = await this.engine.encodeResult(resultOptions(s, plan));
    const logs = loadSummary(ss.sources, ss.skipped).logs;
    const q = plan?.quantum_ms ?? s.quantum_ms;
    const name = !plan && ss.sources.length === 1 && /\.lsr$/.test(ss.sources[0].name) ? ss.sources[0].name : `latscope-${logs}-log${logs === 1 ? '' : 's'}-${formatQuantum(q).replace(/\s+/g, '')}.lsr`;
    return { name, bytes };
  }
}
