// A result with several resolutions in the session (level-view.js holds
// its levels and blocks): the level and blocks the whole time needs are
// read first, then others as the zoom or the quantum asks; meanwhile the
// view is answered from what the engine holds, or from an overview engine
// holding the coarsest level whole (docs/page-loading.md §8, "Answer first,
// detail next").
import { LevelView, needsHosts } from './level-view.js';
import { isMultiple } from '../load/levels.js';
import { DEFAULT_BUDGET_BYTES } from '../engine/budget.js';
import { formatQuantum } from '../util/format.js';

export class LevelFollower {
  /**
   * @param {import('./session.js').Session} session
   * @param {import('./scheduler.js').QueryScheduler} scheduler
   */
  constructor(session, scheduler) {
    this.session = session;
    this.scheduler = scheduler;
    /** The result with several resolutions being read by ranges, or null. @type {LevelView | null} */
    this.lod = null;
    /** The level swap a zoom or quantum change started (follow). @type {Promise<void>} */
    this.busy = Promise.resolve();
    /** The running level swap, and whether another change asks to look again. @type {Promise<void> | null} */
    this.swapping = null;
    this.swapWanted = false;
    /**
     * A second engine holding the coarsest level whole (startOverview): what
     * answers first a jump outside the blocks the primary engine holds.
     * @type {{lod: LevelView, engine: import('../engine/index.js').Engine, quantum_ms: number} | null}
     */
    this.overview = null;
    /** The result whose overview is being read. @type {LevelView | null} */
    this.overviewStarting = null;
    /** wantHosts is reading the hosts' histograms. */
    this.wanting = false;
    /** Something that is no view needed the hosts' histograms (withHosts): this result keeps them. */
    this.keepHosts = false;
  }

  /** The engine to query: a slice of a result is queried within its time (level-view.js). @param {any} engine */
  bounded(engine) {
    return this.lod ? this.lod.bounded(engine) : engine;
  }

  /** Another load that is no slice of this result. */
  close() {
    this.lod = null;
    this.dropOverview();
  }

  /**
   * Opens a result with several resolutions: the level and blocks the
   * whole time needs, then others as the zoom or the quantum asks (follow).
   * @param {LevelView} lod @param {import('../load/files.js').SkippedItem[]} skipped @param {import('./session.js').LoadExtras} extras
   * @returns {Promise<void>}
   */
  async open(lod, skipped, extras) {
    this.lod = lod;
    this.keepHosts = false;
    const after = extras.after ?? {};
    const t0 = performance.now();
    const st = this.session.store.state;
    const pick = lod.pickFor(this.want({ ...st, ...after, range: after.range ?? null, quantum_ms: after.quantum_ms ?? st.quantum_ms }));
    if (!pick) {
      this.session.say('error', `${lod.src.name}: no level holds any data.`);
      return;
    }
    const item = await lod.read(pick);
    performance.measure('latscope: level read', { start: t0 });
    return this.session.load([item], skipped, { ...extras, lod, lodPick: pick });
  }

  /** @param {{range: [number, number] | null, quantum_ms: number} & Parameters<typeof needsHosts>[0]} s */
  want(s) {
    return { range: s.range, quantum_ms: this.session.quantumChosen ? s.quantum_ms : null, widthPx: this.session.page.chartWidth() || 1000, budgetBytes: this.budget(), excludeHosts: s.exclude_hosts ?? [], hosts: this.needsHosts(s), offsets: Object.values(s.offsets ?? {}) };
  }

  /**
   * Whether the state needs the hosts' own histograms (level-view.js
   * needsHosts): not for the groups view by host that the result's per-host
   * matrix answers, whose histograms are read only when something asks them.
   * @param {Parameters<typeof needsHosts>[0]} [s] the view state (default: the store's)
   */
  needsHosts(s = this.session.store.state) {
    return this.keepHosts || needsHosts(s, this.session.hostMatrix, this.lod?.file());
  }

  /**
   * The hosts' own histograms in the engine before something that is no
   * view asks the engine by host (a CSV export, the result file of a link,
   * grouped by host): read now when the loaded slice is summed over hosts,
   * and kept for this result.
   * @returns {Promise<void>}
   */
  async withHosts() {
    if (!this.hostless() || !this.session.store.state.group_by.split(',').includes('host')) return;
    this.keepHosts = true;
    await this.wantHosts();
  }

  /**
   * The groups view asked what the per-host matrix refused while the engine
   * holds a level summed over hosts: the hosts' own histograms are read
   * (follow; needsHosts now says so) and the view drawn from them. Once per
   * ask: a read that fails is said, not tried again by the refresh after it.
   * @returns {Promise<void>}
   */
  wantHosts() {
    if (this.wanting || !this.lod) return this.busy;
    this.wanting = true;
    this.busy = this.follow().finally(() => {
      this.wanting = false;
    });
    return this.busy;
  }

  /** Whether the engine holds a slice summed over hosts (no host's own histograms). */
  hostless() {
    return !!this.lod?.current?.summed;
  }

  /** The bytes a result's levels may take in the engine: the page's budget, or 4 default budgets when it has none. */
  budget() {
    const b = this.session.budget.budget;
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
  follow() {
    const lod = /** @type {LevelView} */ (this.lod);
    // The opening load is still reading its first slice: its refresh draws the state as it then is.
    if (!lod.current) return Promise.resolve();
    const by = !this.swapping && this.session.store.session.sources.length > 0 ? this.answerer(lod) : null;
    const answer = !!by;
    this.swapWanted = true;
    if (this.swapping) return this.swapping;
    this.swapping = (async () => {
      try {
        if (by?.overview) await this.answerFrom(by.overview);
        else if (by) await this.scheduler.refresh(false);
        while (this.swapWanted && lod === this.lod) {
          this.swapWanted = false;
          const swapped = await this.swap();
          if (!swapped && !answer) await this.scheduler.refresh(false);
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
    const s = this.session.store.state;
    const chosen = this.session.quantumChosen ? s.quantum_ms : null;
    if (lod.current && lod.serves(s.range, chosen, s.exclude_hosts, this.needsHosts(s))) return { overview: null, quantum_ms: lod.levels[lod.current.li].level.quantum_ms };
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
    const q = this.scheduler;
    q.answering = { engine: ov.engine, state: { ...this.session.store.state, quantum_ms: ov.quantum_ms } };
    try {
      await q.refresh(true);
    } finally {
      q.answering = null;
      q.keys = {};
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
    const pick = lod.overviewPick(this.budget());
    if (!pick) return;
    this.overviewStarting = lod;
    /** @type {import('../engine/index.js').Engine | null} */
    let engine = null;
    try {
      const made = await this.session.engineApi.createEngine({ mode: 'worker', workers: 1 });
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
  reading(lod, pick) {
    const by = lod.current ? this.answerer(lod) : null;
    const meanwhile = by ? ` (showing ${formatQuantum(by.quantum_ms)} until then)` : '';
    return `Reading ${lod.src.name}: ${lod.describe(pick)}…${meanwhile}`;
  }

  /** Another level or slice when the loaded one does not serve the range. @returns {Promise<boolean>} swapped */
  async swap() {
    const lod = this.lod;
    if (!lod) return false;
    const session = this.session;
    const pick = lod.pickFor(this.want(session.store.state));
    if (!pick) return false;
    // Away from the whole coarsest level: the overview is read meanwhile, for a later jump.
    if (!(pick.whole && pick.li === lod.levels.length - 1)) this.startOverview(lod);
    // Said before the read: the view may already show the zoom from the level loaded.
    session.say('loading', this.reading(lod, pick));
    let item;
    const t0 = performance.now();
    try {
      item = await lod.read(pick);
      performance.measure('latscope: level read', { start: t0 });
    } catch (e) {
      session.say('error', `${/** @type {Error} */ (e).message}.`);
      return false;
    }
    if (lod !== this.lod) return false;
    const ss = session.store.session;
    await session.load([item], ss.skipped, { lod, lodPick: pick, keep: true, origin: ss.origin, fetchErrors: ss.fetchErrors });
    return true;
  }
}
