// The query scheduler: what the shown view needs is asked of the engine
// (the percentiles query always: it gives every view its time extent) and
// handed to the view through the registry (view-registry.js). Refreshes run
// one at a time; changes arriving meanwhile coalesce into one more run, so
// a view never shows an answer older than the state it was asked for.
import { pctilesOptions, columnsAsk } from './queries.js';
import { measureQuery } from './view-registry.js';
import { timeExtent, keepTimeExtent } from '../views/pctiles-data.js';
import { naturalCompare } from '../util/natural-order.js';

/** @typedef {import('./state.js').State} State */

/**
 * What the scheduler is told by the page: the store, the views and their
 * registry, and what to do once a percentiles answer is in.
 * @typedef {object} SchedulerPage
 * @property {import('./state.js').Store} store
 * @property {() => any} engine the engine to ask (a result's slice bounded to its time, level-follow.js)
 * @property {() => Record<string, import('../views/view.js').View & {setData: Function}>} views
 * @property {ReturnType<typeof import('./view-registry.js').makeRegistry>} registry
 * @property {import('../views/colors.js').ColorKeeper} colors
 * @property {(pct: any) => void} answered a new percentiles answer is in (range text, placed files)
 * @property {(pct: any, shown: {notes?: string[]} | null) => void} [noted] after each refresh: the percentiles
 *   answer and the answer the shown view drew (shown), whose notes the page shows
 * @property {(pct: any, judge: ((text: string, unit: string) => Promise<import('../engine/inthread.js').SlaVerdicts>) | null) => Promise<void>} judged
 *   the SLA summary for the answer shown; judge: core's verdict on the rows of that very query
 *   (engine.judgeSla with its options, sla_field.h)
 * @property {(on: boolean) => void} busy
 * @property {(text: string) => void} failed a query failed (the status line says so)
 * @property {() => {matrix: import('./host-matrix.js').HostMatrix, columns: number, chosen: boolean} | null} [hostMatrix]
 *   the loaded result's per-host matrix (host-matrix.js), for the groups view by host
 * @property {() => boolean} [hostless] the engine holds a result's level summed over hosts: no host's own histograms (level-follow.js)
 * @property {() => void} [wantHosts] read the hosts' own histograms: the matrix refused what the groups view asks (level-follow.js)
 */

export class QueryScheduler {
  /** @param {SchedulerPage} page */
  constructor(page) {
    this.page = page;
    /** @type {Record<string, string>} engine options last queried, per view */
    this.keys = {};
    /** The percentiles answer shown (every view's time extent). @type {any} */
    this.pct = null;
    /** The engine and options of that answer (bandsOf asks the same). @type {{e: any, o: any} | null} */
    this.pctAsked = null;
    /** That answer keeps each pixel column's worst quantum over the run (pctColumnsAsk), or null: it holds every quantum. @type {any} */
    this.pctColumns = null;
    /** Recent percentiles answers by options (columns()). @type {Map<string, import('../engine/columns.js').ResultColumns>} */
    this.colCache = new Map();
    /** Percentiles views drawn so far (web/scripts/bench-day-chromium.mjs). */
    this.pctDraws = 0;
    /** While a view is drawn from the overview: its engine and the state it is asked with (level-follow.js). @type {{engine: any, state: State} | null} */
    this.answering = null;
    /**
     * The answer each view drew when it is its own, not the percentiles
     * answer (the groups view's matrix, the heat map's grid), by view name:
     * kept per view, as the views keep their drawings, so going back to a
     * view that needs no new query still names its own notes (shown).
     * @type {Record<string, {groups?: string[], notes: string[]}>}
     */
    this.own = {};
    /** @type {Promise<void> | null} */
    this.running = null;
    this.dirty = false;
    this.forceNext = false;
  }

  /** New data in the engine: nothing asked before stands. */
  reset() {
    this.pct = null;
    this.pctColumns = null;
    this.own = {};
    this.keys = {};
    this.colCache.clear();
  }

  /**
   * What the shown view drew, for what the page says of it (the notes under
   * the toolbar, an exported image's groups): the view's own answer, else
   * the percentiles answer.
   * @param {State} [s] @returns {{groups?: string[], notes?: string[]} | null}
   */
  shown(s = this.page.store.state) {
    return this.own[s.view] ?? this.pct;
  }

  /** After the charts changed size: the queries that depend on it are asked again. */
  forgetSized() {
    for (const e of Object.values(this.page.registry)) if (e.sized) delete this.keys[e.name];
  }

  /**
   * Queries what the visible view needs and redraws.
   * @param {boolean} force redraw even when no engine option changed
   * @returns {Promise<void>}
   */
  refresh(force) {
    this.forceNext = this.forceNext || force;
    if (this.running) {
      this.dirty = true;
      return this.running;
    }
    this.page.busy(true);
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
        this.page.busy(false);
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
   * its columns (docs/page-speed.md "Bands when drawn"). The view asks for
   * the bands of what it shows when zoomed in or hovered (bandsOf).
   * @param {any} po pctilesOptions
   */
  withBands(po) {
    const ext = timeExtent(this.pct);
    const pctiles = /** @type {import('../views/pctiles-view.js').PercentilesView} */ (/** @type {unknown} */ (this.page.views().pctiles));
    if (po.adaptive_accuracy > 0 || !ext || pctiles.bandsAtExtent(ext, po.quantum_ms)) return po;
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
   * The columns the percentiles query asks when the percentiles view is shown
   * and the run holds more quanta than it draws (queries.js columnsAsk), over
   * the run's extent from the last answer; null on the first answer (no
   * extent yet) and for the other views (the heat map's lines, the groups
   * view's extent read the percentiles answer as every quantum).
   * @param {State} s
   */
  pctColumnsAsk(s) {
    if (s.view !== 'pctiles' || this.answering) return null;
    const pctiles = /** @type {any} */ (this.page.views().pctiles);
    return columnsAsk({ ...s, range: null }, timeExtent(this.pct), pctiles?.frame?.innerW ?? 0);
  }

  /** @param {boolean} force */
  async refreshOnce(force) {
    const page = this.page;
    const s = this.answering?.state ?? page.store.state;
    const e = this.answering ? this.answering.engine : page.engine();
    /** @param {string} key @param {any} opts */
    const changed = (key, opts) => {
      const k = JSON.stringify(opts);
      if (this.keys[key] === k) return false;
      this.keys[key] = k;
      return true;
    };
    // Grouped by host on a level summed over hosts: the groups view is drawn
    // from the per-host matrix (level-view.js needsHosts), and the
    // percentiles query, which gives it the run's extent, is the cluster's.
    const hostless = !this.answering && !!page.hostless?.();
    try {
      const po = hostless && s.group_by.split(',').includes('host') ? { ...pctilesOptions(s), group_by: 'all' } : pctilesOptions(s);
      // The groups and density views have their own query (one percentile per group); the
      // percentiles query per group costs as much again (hundreds of groups:
      // seconds), so it waits until a view or the SLA summary needs it.
      const lazy = (s.view === 'groups' || s.view === 'density') && !s.sla.length && this.pct;
      // The percentiles view over more quanta than it can draw asks core for each pixel column's
      // worst quantum over the run instead of every quantum (docs/page-views.md "Worst quantum per column").
      const ask = this.pctColumnsAsk(s);
      if (!lazy && changed('pctiles', ask ? { ...po, ...ask } : po)) {
        try {
          const t0 = performance.now();
          const ext = timeExtent(this.pct);
          const r = await this.columns(e, ask ? { ...po, ...ask } : this.withBands(po));
          if (ask && ext) keepTimeExtent(r, ext);
          this.pct = r;
          this.pctColumns = ask ? { ...ask, quanta: (ask.to_ms - ask.from_ms) / s.quantum_ms } : null;
          this.pctAsked = { e, o: po };
          measureQuery('percentiles query', t0, this.pct);
        } catch (err) {
          delete this.keys.pctiles;
          throw err;
        }
        force = true;
        page.answered(this.pct);
        page.colors.see([...this.pct.groups].sort(naturalCompare));
      }
      const asked = this.pctAsked;
      // Awaited: the page is not ready before its verdict is (core's judge asks its own query).
      await page.judged(this.pct, asked ? (text, unit) => asked.e.judgeSla({ text, unit, opts: asked.o }) : null);
      const entry = page.registry[s.view];
      /** @type {import('./view-registry.js').Feed} */
      const feed = {
        engine: e,
        changed,
        columns: (o) => this.columns(e, o),
        pct: this.pct,
        pctColumns: this.pctColumns,
        sources: page.store.session.sources,
        colors: page.colors,
        drawn: () => this.pctDraws++,
        hostMatrix: this.answering ? null : (page.hostMatrix?.() ?? null),
        hostless,
        wantHosts: () => page.wantHosts?.(),
        own: (r) => {
          this.own[s.view] = r;
        },
      };
      await entry.feed(page.views()[s.view], feed, s, force);
      page.noted?.(this.pct, this.shown(s));
    } catch (err) {
      // A failed query must be retried next time, not remembered as done
      // (the percentiles key is dropped above, where its query failed).
      for (const k of Object.keys(this.keys)) if (k !== 'pctiles') delete this.keys[k];
      console.error(err);
      page.failed(`Query failed: ${/** @type {Error} */ (err).message}`);
    }
  }
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
