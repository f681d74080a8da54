// The page: one store (state.js) holding the view state and the session's,
// the session that loads (session.js), the query scheduler that feeds the
// shown view (scheduler.js) through the registry of views
// (view-registry.js), and the page's wiring: controls, tabs, keys, drop,
// resize, the URL (url-sync.js), sharing and exports. A state change
// re-queries only the views whose engine options changed, and never
// re-reads files. `window.latscope` is this object (main.js): the getters
// below are what users' scripts and the end-to-end tests read.
import { Store, initialState } from './state.js';
import { renderControls, renderViewToolbar, setGroupings, setInputChoices } from './controls.js';
import { snapRange, zoomRange, SURFACE_LEVELS, groupsBy } from './queries.js';
import { methodChoices, exactAllowed, kindsOf, kindChoices, perIoLoaded } from './methods.js';
import { budgetSettings, reducedQuantumNote } from './memory-budget.js';
import { installKeys } from './keys.js';
import { installToolbar } from './toolbar.js';
import { installSidebarResize } from './sidebar.js';
import { isLog, isWholeRun } from './sources.js';
import { reopenText, reopenMessage } from './reopen.js';
import { missingPercentiles, SlaField } from './sla.js';
import { PercentileField } from './pct-field.js';
import { showSla } from './sla-summary.js';
import { installEmbed } from './embed.js';
import { Session } from './session.js';
import { hostOfKey, drillState, drilledHost, undrillState, hostsOfSources } from './host-drill.js';
import { QueryScheduler } from './scheduler.js';
import { makeRegistry } from './view-registry.js';
import { installSessionPanels } from './session-panels.js';
import { UrlSync } from './url-sync.js';
import { installShare } from './share.js';
import { Exporter } from './exports.js';
import { ColorKeeper } from '../views/colors.js';
import { selectionForGroup } from '../views/groups-data.js';
import { timeExtent, anyFiner } from '../views/pctiles-data.js';
import { formatTime, formatQuantum } from '../util/format.js';
import { VIEW_NAMES } from '../model/state.js';

/** How long the zoom rests before the quantum that follows it is asked for: a drag or a wheel spin asks once. */
const ZOOM_REST_MS = 250;

/** @typedef {import('./state.js').ViewName} ViewName */
/** @typedef {import('./state.js').State} State */
/** @typedef {Record<ViewName, any>} Views the registry's views by name */

export class App {
  /** @param {{createEngine: (o: any) => Promise<any>}} engineApi */
  constructor(engineApi) {
    this.store = new Store(initialState());
    this.$ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
    this.registry = makeRegistry();
    // The views need the page's elements, so init() makes them; the page
    // calls nothing else before init(). (JSDoc's form of TypeScript's `views!`.)
    /** @type {Views} */
    this.views = /** @type {Views} */ (/** @type {unknown} */ (undefined));
    /** Group colours by first sight, for the page's lifetime (views/colors.js). */
    this.colors = new ColorKeeper();
    /** The quantum that follows the zoom: the pending ask, and which ask is the latest (followZoom). */
    this.zoomTimer = 0;
    this.zoomGen = 0;
    this.scheduler = new QueryScheduler({
      store: this.store,
      engine: () => this.session.levels.bounded(this.session.engine),
      views: () => this.views,
      registry: this.registry,
      colors: this.colors,
      answered: (pct) => this.answered(pct),
      noted: (pct, shown) => this.showNotes(pct, shown?.notes),
      judged: (pct, judge) => showSla(this.$('sla-summary'), this.store.state, pct, () => this.relayout(), judge),
      busy: (on) => this.setBusy(on),
      failed: (text) => this.session.say('error', text),
      hostMatrix: () => {
        /** @type {import('./host-matrix.js').HostMatrix | null} */
        const m = this.session.hostMatrix;
        /** @type {number} */
        const columns = this.views?.groups?.frame?.innerW || 1000;
        return m && { matrix: m, columns, chosen: !!this.session.quantumChosen };
      },
      hostless: () => this.session.levels.hostless(),
      wantHosts: () => {
        this.levelBusy = this.session.levels.wantHosts();
      },
    });
    /** @type {Session} */
    this.session = new Session(this.store, engineApi, budgetSettings(globalThis.location?.search ?? ''), {
      beforeLoad: (keep) => {
        this.scheduler.reset();
        this.store.stage({ placed: undefined });
        this.store.set({ focus: null });
        this.$('reopen-hint').hidden = true;
        if (!keep) this.applyState({ exclude_sources: [], exclude_hosts: [], offsets: {}, range: null, yZoomNs: null, hidden: [] });
      },
      applyState: (state) => this.applyState(state),
      offerGroupings: (groupings, groupBy) => setGroupings(this.$('controls'), groupings, groupBy),
      fitInputChoices: () => this.fitInputChoices(),
      message: (text) => this.message(text),
      refresh: (force) => this.refresh(force),
      originChanged: () => this.url.writeOrigin(),
      chartWidth: () => this.views?.pctiles?.frame?.innerW ?? 0,
    }, this.scheduler);
    /** The SLA field read by core (app/sla.js): the engine is started for it when nothing is loaded yet. */
    this.sla = new SlaField(this.store, () => this.session.ensureEngine());
    /** The percentile field and a link's p= and gp=, read by core (app/pct-field.js), the engine started for them as for the SLA field. */
    this.pcts = new PercentileField(this.store, () => this.session.ensureEngine());
    this.url = new UrlSync(this.store, this.session, {
      redraw: () => this.redraw(),
      message: (text) => this.message(text),
      reopen: (names) => this.showReopen(names),
      sla: (text) => this.setLinkSla(text),
      percentiles: (lists) => this.setLinkPercentiles(lists),
    });
    this.exporter = new Exporter(this.store, { engine: () => this.session.engine, pct: () => this.scheduler.pct, shown: () => this.scheduler.shown(), views: () => this.views, registry: this.registry, hosts: () => this.session.levels.withHosts() });
    /** The startdelay placement the file table last drew (answered). */
    this.placedKey = '{}';
    /** The level swap a zoom or quantum change started (onChange); a test or the benchmark waits for it. @type {Promise<void>} */
    this.levelBusy = Promise.resolve();
  }

  // What users' scripts and the end-to-end tests read (main.js).
  get engine() {
    return this.session.engine;
  }
  get sources() {
    return this.store.session.sources;
  }
  get skipped() {
    return this.store.session.skipped;
  }
  get pct() {
    return this.scheduler.pct;
  }
  /** A refresh runs, or the zoom's quantum is about to be asked for (followZoom): the page is not settled. */
  get running() {
    return this.scheduler.running ?? (this.zoomTimer ? true : null);
  }
  get pctDraws() {
    return this.scheduler.pctDraws;
  }
  get lod() {
    return this.session.levels.lod;
  }
  get overview() {
    return this.session.levels.overview;
  }
  resultFile() {
    return this.session.resultFile();
  }
  /** @param {{file: Blob, name: string}[]} items @param {import('../load/files.js').SkippedItem[]} [skipped] @param {import('./session.js').LoadExtras} [extras] */
  load(items, skipped, extras) {
    return this.session.load(items, skipped, extras);
  }
  /** @param {Partial<State>} [after] */
  loadDemo(after) {
    return this.session.loadDemo(after);
  }
  /** @param {Partial<State>} state */
  applyState(state) {
    this.url.applyState(state);
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
    renderControls(this.$('controls'), st, this.sla, this.pcts);

    const ctx = {
      store: st,
      extent: () => this.fullExtent(),
      onRange: (/** @type {[number, number] | null} */ r) => this.setRange(r),
      onYZoom: (/** @type {[number, number] | null} */ y) => st.set({ yZoomNs: y, clipOutliers: false }),
      colors: this.colors,
      slaRules: () => st.session.slaRules,
      bands: (/** @type {[number, number]} */ range) => this.scheduler.bandsOf(range),
      onPickGroup: (/** @type {string} */ key) => this.pickGroup(key),
      // A reloaded page of local files (reopen.js): what an empty view says until they are opened again.
      emptyText: () => (this.session.reopen && !this.sources.length ? reopenMessage(this.session.reopen.names) : ''),
    };
    /** @type {Record<string, any>} */
    const views = {};
    for (const v of VIEW_NAMES) views[v] = this.registry[v].make(this.$(`view-${v}`), ctx);
    this.views = /** @type {Views} */ (views);
    this.$('group-focus-clear').addEventListener('click', () => this.clearFocus());
    this.$('host-drill-back').addEventListener('click', () => this.undrill());
    this.$('reopen-open').addEventListener('click', () => this.$('file-input').click());
    this.showView(st.state.view);
    this.message('Load fio histogram logs to begin');

    document.querySelectorAll('.tabs [data-view]').forEach((b) =>
      b.addEventListener('click', () => this.store.set({ view: /** @type {ViewName} */ (/** @type {HTMLElement} */ (b).dataset.view) })),
    );
    this.$('reset-zoom').addEventListener('click', () => this.resetZoom());
    const session = this.session;
    const help = installToolbar(this.$, session, { toggleTheme: () => this.toggleTheme(), exporter: this.exporter });
    installKeys(this, help);
    installSidebarResize(this.$('sidebar'), this.$('sidebar-handle'), () => this.onResize());


    installSessionPanels(st, this.$, { engine: () => session.engine, budget: session.budget, colors: this.colors });
    st.subscribe((changed) => this.onChange(changed));
    let rt = 0;
    window.addEventListener('resize', () => {
      clearTimeout(rt);
      rt = window.setTimeout(() => this.onResize(), 120);
    });
    installShare(st, session, this.url, this.$, () => this.fullExtent());
    this.url.install();
    installEmbed(this);
  }

  /**
   * A link's SLA rules: core's spelling into the state, or core's sentence
   * where the field shows its errors (and the console, as the link's other
   * notes); a bad link leaves no rules.
   * @param {string} text
   * @returns {Promise<void>}
   */
  async setLinkSla(text) {
    const err = await this.sla.set(text, { dropOnError: true, apply: (patch) => this.url.applyState(patch) });
    const el = this.$('sla-error');
    if (el) el.textContent = err;
    if (err) console.warn(`latscope: link: sla=${text} ignored: ${err}`);
  }

  /**
   * A link's or a posted view's percentiles (p=, gp=): core's list into the
   * state, or the default with core's sentence where the field shows its
   * errors (p=) and in the console, as the link's other notes.
   * @param {import('./url-sync.js').LinkList[]} lists
   * @returns {Promise<void>}
   */
  async setLinkPercentiles(lists) {
    for (const { key, text } of lists) {
      const apply = (/** @type {Record<string, any>} */ patch) => this.url.applyState(patch);
      const err = await this.pcts.set(key, '', text, apply);
      if (key === 'percentiles' && this.$('pct-error')) this.$('pct-error').textContent = err;
      if (!err) continue;
      console.warn(`latscope: link: ${key === 'percentiles' ? 'p' : 'gp'}=${text} ignored: ${err}`);
      apply({ [key]: initialState()[key] });
    }
  }

  /** Every view says this instead of a chart. @param {string} text */
  message(text) {
    for (const v of VIEW_NAMES) this.views[v].frame.message(text);
  }

  /** Every view drawn again (colours come from CSS variables read at draw time). */
  redraw() {
    for (const v of VIEW_NAMES) this.views[v].render();
  }

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
    if (changed.has('focus') || changed.has('view')) this.showFocus();
    if (changed.has('exclude_hosts')) this.showDrill();
    if ((changed.has('account') || changed.has('exclude_sources')) && this.sources.length) this.session.refreshTrust();
    if (changed.has('exclude_sources') || changed.has('exclude_hosts') || changed.has('method') || changed.has('kinds')) this.updateInputChoices();
    if (changed.has('sla') && this.store.session.slaRules.map((r) => r.text).join(',') !== s.sla.join(',')) {
      // Rules set straight in the store (a script, the embedding API): core reads them too, so the store's rules follow the state's.
      this.sla.set(s.sla.join(','), { dropOnError: true });
    }
    if (changed.has('sla') || changed.has('percentiles')) {
      // The rules' percentiles are shown (the CLI adds them to its query the same way).
      const add = missingPercentiles(this.store.session.slaRules, s.percentiles);
      if (add.length) {
        // Core puts them in order in the list (app/pct-field.js); its answer comes back here as a change.
        this.pcts.add(add.join(','));
        return;
      }
    }
    if (['yZoomNs', 'clipOutliers', 'view', 'heatY', 'co_interval_ms', 'groupsMode', 'percentiles', 'group_by', 'adaptive'].some((k) => changed.has(k))) {
      renderViewToolbar(this.$('view-toolbar'), this.store, this.toolbarInfo());
      this.relayout();
    }
    if (changed.has('range') || changed.has('quantum_ms') || changed.has('quantumPinned')) this.updateRangeText();
    if (this.session.settingUp) return;
    // Hosts left out change which blocks of a level cut by host are needed (docs/page-loading.md §8, "Some hosts");
    // a level summed over hosts serves no state that needs a host's own histograms (level-view.js needsHosts: a view,
    // an offset, the groups view's order or SLA rules may ask them).
    const levels = this.session.levels;
    if (this.lod && (changed.has('range') || changed.has('quantum_ms') || changed.has('quantumPinned') || changed.has('exclude_hosts') || changed.has('group_by') || (levels.hostless() && levels.needsHosts()))) {
      this.levelBusy = this.session.levels.follow();
      return;
    }
    if (!this.sources.length) return;
    if (changed.has('range') && this.follows()) {
      // The zoom moves now, from what is drawn; what it shows is asked once it rests at its own quantum
      // (no query at the old quantum over the new range first: zoomed out, it would be columns of it).
      this.views[s.view].render();
      this.followZoom(true);
      return;
    }
    if (changed.has('quantumPinned')) this.followZoom();
    this.refresh(false);
  }

  /** Whether the quantum follows the zoom (docs/page-views.md "Quantum follows the zoom"): not pinned, no levels, fixed quanta. */
  follows() {
    const s = this.store.state;
    return !s.quantumPinned && !this.lod && !(s.adaptive > 0);
  }

  /**
   * A quantum not pinned follows the zoom (docs/page-views.md "Quantum
   * follows the zoom"): once the zoom rests, core's rule (zoom_quantum_ms,
   * asked as engine.defaultQuantum({range_ms, width_px})) picks it for the
   * visible range and the chart's width; the answer on screen stays until
   * the new quantum's is in (the scheduler swaps answers whole). A result
   * with several levels picks its own (level-follow.js), so it is left alone.
   * @param {boolean} [refreshSame] the range changed: refresh it even when the quantum stays
   */
  followZoom(refreshSame = false) {
    clearTimeout(this.zoomTimer);
    this.zoomTimer = 0;
    if (!this.follows() || !this.sources.length) return;
    const gen = ++this.zoomGen;
    this.zoomTimer = window.setTimeout(async () => {
      try {
        const st = this.store.state;
        const r = st.range ?? this.fullExtent();
        const e = this.session.engine;
        const q = r && e?.defaultQuantum ? await e.defaultQuantum({ range_ms: r[1] - r[0], width_px: this.views.pctiles.frame.innerW || 1000 }) : null;
        if (gen !== this.zoomGen || !this.follows()) return;
        // A new quantum refreshes through onChange; the same one is refreshed for the new range here.
        if (q && q !== this.store.state.quantum_ms) this.store.set({ quantum_ms: q });
        else if (refreshSame) this.refresh(false);
      } catch (err) {
        // The quantum stays; the new range is still drawn.
        console.error(err);
        if (gen === this.zoomGen) this.refresh(false);
      } finally {
        if (gen === this.zoomGen) this.zoomTimer = 0;
      }
    }, ZOOM_REST_MS);
  }

  /** @param {boolean} force @returns {Promise<void>} */
  refresh(force) {
    return this.scheduler.refresh(force);
  }

  /** A new percentiles answer is in: the range line, the files placed by startdelay (its notes: showNotes, once the view is drawn). @param {any} pct */
  answered(pct) {
    this.updateRangeText();
    // The first answer gives the run's extent: the whole run's quantum for the chart's width.
    if (!this.store.state.range) this.followZoom();
    // Files the engine placed by their job's startdelay: the table shows
    // the shift, drawn again when it differs from the shift last drawn.
    const placed = pct?.placed;
    const key = JSON.stringify(placed ?? {});
    if (key === this.placedKey) return this.store.stage({ placed });
    this.placedKey = key;
    this.store.report({ placed });
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
    /** @type {Partial<State>} */
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
   * @param {any} r the percentiles answer
   * @param {string[]} [own] the notes of the answer the view drew (scheduler.js shown), r's by default
   */
  showNotes(r, own = r?.notes) {
    const finer = this.$('quantum-finer');  // beside the quantum selector (docs/quanta.md)
    if (finer) finer.hidden = !anyFiner(r);
    const el = this.$('query-notes');
    const reducedNote = reducedQuantumNote(this.sources, this.store.state.quantum_ms);
    const notes = /** @type {string[]} */ ([...(own || []), ...(reducedNote ? [reducedNote] : [])]);
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
    // Only a sized view's query depends on the chart's size (the heat map's
    // rows); the others are redrawn from what they have (re-asking them
    // costs seconds with hundreds of groups).
    this.scheduler.forgetSized();
    // Another width: another quantum for the zoom, when it follows it.
    this.followZoom();
    if (this.sources.length) this.refresh(true);
    else view.render();
  }

  /** @param {ViewName} v */
  showView(v) {
    for (const name of VIEW_NAMES) {
      this.$(`view-${name}`).hidden = name !== v;
      document.querySelector(`.tabs [data-view="${name}"]`)?.setAttribute('aria-selected', String(name === v));
    }
    renderViewToolbar(this.$('view-toolbar'), this.store, this.toolbarInfo());
    const view = this.views?.[v];
    if (view && view.frame.resize()) view.render();
  }

  onResize() {
    for (const v of VIEW_NAMES) this.views[v].frame.resize();
    this.scheduler.forgetSized();
    // Another width: another quantum for the zoom, when it follows it.
    this.followZoom();
    if (this.sources.length) this.refresh(true);
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

  /**
   * A click on a group (groups view): that group's latency heat map. The
   * focus narrows the heat map's own queries only (queries.js focused): the
   * page's selection, the file table and the other views keep every file.
   * @param {string} key engine group key ("host=a")
   */
  pickGroup(key) {
    // A result with a per-host matrix: the host's own detail (host-drill.js).
    const host = hostOfKey(key);
    if (host !== null && this.session.hostMatrix) {
      this.store.set(drillState(host, this.hostsOfResult()));
      return;
    }
    const logs = this.sources.filter((/** @type {any} */ x) => isLog(x) && !isWholeRun(x));
    this.store.set({ focus: selectionForGroup(key, logs, this.store.state.directions), yZoomNs: null, view: 'heatmap' });
  }

  /**
   * A reload of local files: which to open again (reopen.js), over the
   * views and in them; the button opens the file picker.
   * @param {string[]} names
   */
  showReopen(names) {
    this.$('reopen-text').textContent = reopenText(names);
    this.$('reopen-hint').hidden = false;
    this.message(reopenMessage(names));
    this.relayout();
  }

  /**
   * Every host of the loaded result: its levels' header when read by levels
   * (a slice summed over hosts names none), else the loaded series'.
   * @returns {string[]}
   */
  hostsOfResult() {
    const fromLevels = this.lod?.hosts() ?? [];
    return fromLevels.length ? fromLevels : hostsOfSources(this.sources);
  }

  /** The bar naming the host drilled into (host-drill.js), with the way back. */
  showDrill() {
    const hosts = this.hostsOfResult();
    const host = this.session.hostMatrix ? drilledHost(this.store.state, hosts) : null;
    const bar = this.$('host-drill');
    if (bar.hidden !== !host) {
      bar.hidden = !host;
      this.relayout();
    }
    if (host) this.$('host-drill-text').textContent = `Host ${host} only: its percentiles from the result's histograms of that host (the other ${hosts.length - 1} hosts left out).`;
  }

  /** Back from a host's detail: every host, the groups view by host. */
  undrill() {
    this.store.set(undrillState());
  }

  /** Back from a picked group: the heat map of every group, and the groups view. */
  clearFocus() {
    this.store.set({ focus: null, view: 'groups' });
  }

  /** The bar over the views naming the focused group (shown with the heat map only: the other views are not narrowed). */
  showFocus() {
    const s = this.store.state;
    const f = s.focus;
    const bar = this.$('group-focus');
    const show = !!f && s.view === 'heatmap';
    if (show !== !bar.hidden) {
      bar.hidden = !show;
      this.relayout();
    }
    if (!f) return;
    this.$('group-focus-text').textContent = `Heat map of ${f.key} only (the other groups' logs are left out of this heat map; the file table and the other views keep every file).${f.unsupported.length ? ` The label ${f.unsupported.join(', ')} cannot be selected this way: those series are all shown.` : ''}`;
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
    const q = `quantum ${formatQuantum(s.quantum_ms)}${s.quantumPinned || this.lod ? '' : ' · follows the zoom'}`;
    this.$('range-text').textContent = s.range ? `zoom ${formatTime(s.range[0], abs)} … ${formatTime(s.range[1], abs)} · ${q}` : q;
  }

  toggleTheme() {
    this.store.set({ theme: this.store.state.theme === 'dark' ? 'light' : 'dark' });
    // Colours come from CSS variables read at draw time: redraw everything.
    this.redraw();
  }
}
