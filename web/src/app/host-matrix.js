// A result's per-host percentile matrix on the page (docs/page-views.md,
// "Groups from the matrix"; the file: docs/result-format.md, "Per-host
// percentile matrix (version 4)"). The groups view grouped by host is
// answered from it instead of folding every host's histograms: core (the
// worker's MatrixFile, core matrix_answer.h) decides whether the matrix
// holds the question, picks the level for the range and quantum shown and
// names the byte ranges it needs; this file only reads those ranges from
// the file (Blob.slice or HTTP range requests, as load/levels.js) and
// hands them over.

const WITH_MATRIX = 'LSWITHMX';

export class HostMatrix {
  /** @param {import('../load/levels.js').ByteSource} src */
  constructor(src) {
    this.src = src;
    // One file per key in the worker: another file (or the same name
    // picked again) starts afresh.
    this.key = `${src.name}\u0000${src.size}\u0000${HostMatrix.opened++}`;
    /** Why the last question went to the histograms ('' when the matrix answered). */
    this.why = '';
  }

  /**
   * A HostMatrix when `src` is a version 4 result (its last bytes say so), else null.
   * @param {import('../load/levels.js').ByteSource} src
   */
  static async open(src) {
    if (src.size < 64) return null;
    const t = await src.read(src.size - 8, src.size);
    for (let i = 0; i < 8; i++) if (t[i] !== WITH_MATRIX.charCodeAt(i)) return null;
    return new HostMatrix(src);
  }

  /**
   * The groups view's matrix from the file's per-host matrix, or null when
   * core says the matrix does not hold the question (this.why: its reason;
   * the histograms answer it then).
   * @param {{matrixQuery: (a: import('../engine/protocol.js').MatrixAsk) => Promise<import('../engine/protocol.js').MatrixAnswer>}} engine
   * @param {object} opts the groups query's engine options (queries.js groupsOptions, with the range shown)
   * @param {number} columns the chart's pixel columns
   * @param {boolean} chosen whether the user chose the quantum
   * @returns {Promise<import('../engine/matrix.js').ResultMatrix | null>}
   */
  async answer(engine, opts, columns, chosen) {
    return /** @type {Promise<import('../engine/matrix.js').ResultMatrix | null>} */ (this.ask(engine, { opts, columns, chosen }));
  }

  /**
   * The percentiles chart's rows by host from the matrix (docs/page-views.md,
   * "Worst quantum per column"): with "columns" in opts, each pixel column's
   * worst, made by core of the matrix's cells, so no histogram is folded.
   * Only the level of the query's own quantum answers (the chart drew that
   * quantum); null when core says the matrix does not hold the question
   * (this.why), and the histograms answer it.
   * @param {{matrixQuery: (a: import('../engine/protocol.js').MatrixAsk) => Promise<import('../engine/protocol.js').MatrixAnswer>}} engine
   * @param {any} opts the percentiles query's engine options with the columns asked (queries.js columnsAsk)
   * @returns {Promise<import('../engine/columns.js').ResultColumns | null>}
   */
  async rows(engine, opts) {
    return /** @type {Promise<import('../engine/columns.js').ResultColumns | null>} */ (this.ask(engine, { opts, columns: opts.columns ?? 1000, chosen: true, rows: true }));
  }

  /**
   * One question to core, the ranges it names read and handed over until it answers.
   * @param {{matrixQuery: (a: import('../engine/protocol.js').MatrixAsk) => Promise<import('../engine/protocol.js').MatrixAnswer>}} engine
   * @param {{opts: any, columns: number, chosen: boolean, rows?: boolean}} q
   */
  async ask(engine, q) {
    const { opts, columns, chosen, rows } = q;
    /** @type {[number, Uint8Array][]} */
    let pages = [];
    // The matrix's and the histograms' heads take a few rounds each (each read names the next); blocks one.
    for (let round = 0; round < 64; round++) {
      const r = await engine.matrixQuery({ key: this.key, size: this.src.size, pages, opts, columns, chosen, rows });
      if ('need' in r) {
        pages = await this.read(r.need);
        continue;
      }
      if ('refused' in r) {
        this.why = r.refused;
        return null;
      }
      this.why = '';
      return r;
    }
    throw new Error(`${this.src.name}: the per-host matrix asked for more ranges than its parts hold`);
  }

  /**
   * The ranges core named, adjacent ones read at once (a level's blocks of
   * one time range lie side by side).
   * @param {[number, number][]} need [offset, length]
   * @returns {Promise<[number, Uint8Array][]>}
   */
  async read(need) {
    const want = [...need].sort((a, b) => a[0] - b[0]);
    /** @type {[number, number, [number, number][]][]} */
    const runs = [];
    for (const [at, n] of want) {
      const last = runs[runs.length - 1];
      if (last && at <= last[1]) {
        last[1] = Math.max(last[1], at + n);
        last[2].push([at, n]);
      } else runs.push([at, at + n, [[at, n]]]);
    }
    /** @type {[number, Uint8Array][]} */
    const pages = [];
    for (const [a, b, parts] of runs) {
      const bytes = await this.src.read(a, b);
      for (const [at, n] of parts) pages.push([at, bytes.slice(at - a, at - a + n)]); // a copy: a posted view clones its whole buffer
    }
    return pages;
  }
}
HostMatrix.opened = 0;
