// The percentile field and a link's p= and gp= (docs/page-views.md,
// "Percentile field"): their text goes to core, which alone reads it
// (engine.parsePercentiles, core percentile_list.h: the grammar of `latscope
// --percentiles`) and answers the list sorted, one per value, or its
// sentence naming the bad item. The page keeps core's list in its state.
// The engine is started for the field when nothing is loaded yet
// (Session.ensureEngine), so a link's percentiles are read before its data.

/** @typedef {'percentiles'|'groupsP'} PercentileKey */

/**
 * @typedef {object} PercentileEngine
 * @property {(o: {presets: string, text: string}) => Promise<{percentiles: string[], values: number[]}>} parsePercentiles
 */

export class PercentileField {
  /**
   * @param {import('./state.js').Store} store
   * @param {() => Promise<PercentileEngine>} engine started on first use
   */
  constructor(store, engine) {
    this.store = store;
    this.engine = engine;
    /** Asks per key: an older answer never replaces a newer one. */
    this.asked = { percentiles: 0, groupsP: 0 };
    /** The last set()'s end (tests wait for it). @type {Promise<string>} */
    this.settled = Promise.resolve('');
  }

  /**
   * Core reads presets and text as one list; its list goes into the state
   * (percentiles; groupsP: the one percentile it must be), or its sentence
   * comes back and the state is left as it was.
   * @param {PercentileKey} key
   * @param {string} presets the page's own (checked presets, the shown list): may be ''
   * @param {string} text the field's or a link's list
   * @param {(patch: Record<string, any>) => void} [apply] how the list goes into the state (a link's: without a history entry)
   * @returns {Promise<string>} '' or core's sentence
   */
  set(key, presets, text, apply = (patch) => this.store.set(patch)) {
    const run = this.ask(key, presets, text, apply);
    this.settled = run;
    return run;
  }

  /**
   * Percentiles added to the shown list (those SLA rules name), put in order
   * by core. Not one of set()'s asks: a link's list still being read is not
   * dropped for it; this answer is dropped instead when the list changed
   * meanwhile (that change asks again).
   * @param {string} text
   * @returns {Promise<void>}
   */
  async add(text) {
    const before = this.store.state.percentiles.join(',');
    /** @type {string[]} */
    let list;
    try {
      ({ percentiles: list } = await (await this.engine()).parsePercentiles({ presets: before, text }));
    } catch {
      return;
    }
    if (this.store.state.percentiles.join(',') === before) this.store.set({ percentiles: list });
  }

  /** @param {PercentileKey} key @param {string} presets @param {string} text @param {(patch: Record<string, any>) => void} apply */
  async ask(key, presets, text, apply) {
    const me = ++this.asked[key];
    /** @type {string[]} */
    let list = [];
    let error = '';
    try {
      ({ percentiles: list } = await (await this.engine()).parsePercentiles({ presets, text }));
    } catch (e) {
      error = String(/** @type {Error} */ (e)?.message ?? e);
    }
    if (me !== this.asked[key]) return error;
    // The groups view shows one percentile (docs/page-views.md, "Groups view").
    if (!error && key === 'groupsP' && list.length !== 1) error = `the groups view shows one percentile, not ${list.length}`;
    if (error) return error;
    const value = key === 'groupsP' ? list[0] : list;
    if (JSON.stringify(value) !== JSON.stringify(this.store.state[key])) apply({ [key]: value });
    return '';
  }
}
