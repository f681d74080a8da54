// The bands the percentiles view's shown answer left out (columns.js bands:
// the app asks for them with the answer only when the whole extent shows
// them; docs/page-speed.md "Bands when drawn"): answers over parts of its
// time, and the ranges asked for. Kept while the answer is shown (a redraw,
// a zoom, a legend click), dropped with it.

/** Band answers kept: the last zooms' and the last hovered quanta's. */
const KEPT = 8;

export class BandCache {
  /**
   * @param {object | null} of the answer shown
   * @param {((range: [number, number]) => Promise<import('../engine/columns.js').ResultColumns>) | undefined} ask
   */
  constructor(of, ask) {
    this.of = of;
    this.ask = ask;
    /** @type {{range: [number, number], key: string, cols: import('../engine/columns.js').ResultColumns}[]} */
    this.answers = [];
    /** @type {Set<string>} */
    this.asked = new Set();
    // One asked at a time: a pointer swept over the chart crosses hundreds
    // of quanta, and a query each would queue in the worker ahead of the
    // next regroup; the callers turned away meanwhile run when it is back
    // and ask again for where they are then.
    this.busy = false;
    /** @type {Set<() => void>} */
    this.waiting = new Set();
    /** False once the answer is no longer shown: what comes then calls no one. */
    this.live = true;
  }

  /**
   * The bands of `range` for answer `r`: from an answer of their own already
   * here, else null, and asked for once; when it comes, `then` runs (if the
   * answer is still shown).
   * @param {import('../engine/columns.js').ResultColumns} r
   * @param {[number, number]} range @param {() => void} then
   * @returns {import('../engine/columns.js').ResultColumns | null}
   */
  get(r, range, then) {
    if (this.of !== r) return null;
    const have = this.answers.find((b) => b.range[0] <= range[0] && b.range[1] >= range[1]);
    if (have) return have.cols;
    const key = `${range[0]}|${range[1]}`;
    if (!this.ask || this.asked.has(key)) return null;
    if (this.busy) {
      this.waiting.add(then);
      return null;
    }
    this.asked.add(key);
    this.busy = true;
    const done = () => {
      this.busy = false;
      const waiting = [...this.waiting];
      this.waiting.clear();
      if (!this.live) return;
      for (const f of new Set([then, ...waiting])) f();
    };
    this.ask(range).then(
      (cols) => {
        this.answers.push({ range, key, cols });
        if (this.answers.length > KEPT) this.asked.delete(/** @type {{key: string}} */ (this.answers.shift()).key);
        done();
      },
      (err) => {
        this.asked.delete(key);
        console.error(err);
        done();
      },
    );
    return null;
  }
}
