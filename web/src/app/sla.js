// The SLA field (docs/page-views.md, "SLA"): its text goes to core, which
// alone parses it (engine.parseSla, core sla_field.h, the sentences of
// `latscope pctiles --sla`'s rules) and judges the rows (the queries'
// "sla" option, engine.judgeSla). The page keeps the rules core gave in its
// store and their spelling in the URL; it compares no value with a
// threshold. The engine is started for the field when nothing is loaded
// yet (Session.ensureEngine), so a link's rules are read before its data.

/** @typedef {import('../model/sla-rules.js').SlaRule} SlaRule */

/**
 * Percentiles the rules name that the list lacks (the page shows them, as
 * the CLI adds them to its query), in the list's spelling: a comparison of
 * percentile names, no value is judged here.
 * @param {SlaRule[]} rules @param {string[]} percentiles
 * @returns {string[]}
 */
export function missingPercentiles(rules, percentiles) {
  /** @type {string[]} */
  const out = [];
  for (const r of rules) {
    if (r.p === null) continue;
    const s = String(r.p);
    if (!percentiles.some((p) => Number(p) === r.p) && !out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * The field's text to the store through core: set() asks core to read it;
 * core's rules go into the store (session.slaRules) and their spelling into
 * the state (state.sla, the URL), or core's sentence comes back. The last
 * text asked wins: an older answer never replaces a newer one.
 */
export class SlaField {
  /**
   * @param {import('./state.js').Store} store
   * @param {() => Promise<{parseSla: (o: {text: string, unit: string}) => Promise<{rules: SlaRule[]}>}>} engine started on first use
   */
  constructor(store, engine) {
    this.store = store;
    this.engine = engine;
    this.asked = 0;
    /** The last set()'s end (tests and the e2e runner wait for it). @type {Promise<string>} */
    this.settled = Promise.resolve('');
  }

  /**
   * @param {string} text the field's or a link's rules ("p99 < 2ms, 500")
   * @param {{dropOnError?: boolean, apply?: (patch: {sla: string[]}) => void}} [o] dropOnError: a bad
   *   text clears the rules (a link's) instead of keeping the ones in force (the field's); apply:
   *   how the spelling goes into the state (a link's: without a history entry of its own)
   * @returns {Promise<string>} '' or core's sentence for the first bad rule
   */
  set(text, o = {}) {
    const run = this.ask(text, !!o.dropOnError, o.apply ?? ((patch) => this.store.set(patch)));
    this.settled = run;
    return run;
  }

  /** @param {string} text @param {boolean} drop @param {(patch: {sla: string[]}) => void} apply @returns {Promise<string>} */
  async ask(text, drop, apply) {
    const me = ++this.asked;
    const unit = this.store.state.unit;
    /** @type {SlaRule[]} */
    let rules = [];
    let error = '';
    if (text.trim()) {
      try {
        ({ rules } = await (await this.engine()).parseSla({ text, unit }));
      } catch (e) {
        error = String(/** @type {Error} */ (e)?.message ?? e);
      }
    }
    if (me !== this.asked) return error;
    if (error && !drop) return error;
    if (error) rules = [];
    // The rules first: the state's listeners (percentiles the rules name, the queries) read them.
    this.store.report({ slaRules: rules });
    const texts = rules.map((r) => r.text);
    if (texts.join(',') !== this.store.state.sla.join(',')) apply({ sla: texts });
    return error;
  }
}
