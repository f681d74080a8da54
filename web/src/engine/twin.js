// The query twin: a second engine worker holding the same data as the
// primary, so that a percentiles query (columns or matrix) runs in two
// halves at once, each worker answering one part of the quanta (the options'
// "part", docs/page-speed.md "The query in two workers"). The parts' rows,
// concatenated, are the whole query's (tests/query_parts_test.cc), so the
// answer does not depend on whether the twin took part.
//
// The twin gets every change the primary gets (imports, runs, reset), in
// the same order, through one queue. It costs a second copy of the data, so
// it is only kept while the data is small (maxModelBytes), and it is dropped
// for good (until the next reset) when anything goes wrong in it: a query
// then runs whole in the primary, as without a twin.

import { WorkerProxy } from './proxy.js';
import { Req } from './protocol.js';

/** The data above which no twin is kept (the model's estimated bytes, budget.js). */
export const TWIN_MAX_MODEL_BYTES = 256 * 1024 * 1024;

/**
 * Queries bounded below this many rows run whole in the primary: a part
 * saves little there. It was 200,000 while each worker's first query of a
 * kind ran as unoptimised code (warmup.js); with both warmed, cutting from
 * 20,000 rows made the 32-log set's per-host query at 1 s (28,800 rows)
 * 0.79-0.81 s against 1.05-1.50 s, its groups heat map at 1 s 0.52-0.53 s
 * against 0.77-1.11 s, and the 200 hosts' groups view at 10 s (72,200 rows)
 * 0.31-0.37 s against 0.38-0.41 s, the other steps unchanged
 * (bench-groups-chromium.mjs, alternated runs; docs/page-speed.md "The
 * query in two workers").
 */
export const TWIN_MIN_ROWS = 20000;

export class QueryTwin {
  /**
   * @param {() => import('./proxy.js').Endpoint} spawn @param {() => import('./protocol.js').InitPayload} init the INIT payload
   * @param {number} [maxModelBytes] @param {number} [minRows] TWIN_MIN_ROWS
   */
  constructor(spawn, init, maxModelBytes = TWIN_MAX_MODEL_BYTES, minRows = TWIN_MIN_ROWS) {
    this.spawn = spawn;
    this.init = init;
    this.maxModelBytes = maxModelBytes;
    this.minRows = minRows;
    /** @type {WorkerProxy | null} */
    this.worker = null;
    /** The changes sent so far, in order; settles when the twin has them all. @type {Promise<void>} */
    this.queue = Promise.resolve();
    /** The primary's data since the last reset, in model bytes. */
    this.model = 0;
    /** Whether the twin has missed a change since the last reset (then it stays away). */
    this.behind = false;
  }

  /** Whether a load may start (or go on) mirroring into a twin. */
  get wanted() {
    return !this.behind && this.model <= this.maxModelBytes;
  }

  /**
   * Sends one change to the twin after the ones before it; starts the twin
   * on the first change after a reset. `modelBytes`: what the change adds
   * to the primary's data.
   * @template {'importSource' | 'assignRuns'} K
   * @param {K} type @param {import('./protocol.js').PayloadOf<K>} payload @param {Transferable[]} [transfer] @param {number} [modelBytes]
   */
  mirror(type, payload, transfer = [], modelBytes = 0) {
    this.model += modelBytes;
    if (!this.wanted) return this.drop();
    if (!this.worker) {
      const w = new WorkerProxy(this.spawn());
      this.worker = w;
      // Warmed before its first part of a query (warmup.js); a failed warm-up costs nothing more.
      this.queue = w.request(Req.INIT, this.init()).then(() => w.request(Req.WARM_UP, {}).catch(() => {}));
    }
    const w = this.worker;
    this.queue = this.queue
      .then(() => w.request(type, payload, { transfer }))
      .then(
        () => {},
        // Only this worker's failure drops the twin: one stopped by a reset
        // fails its pending changes, and the next twin must not pay for it.
        () => {
          if (this.worker === w) this.drop();
        },
      );
  }

  /** The twin has missed a change: it is stopped (its memory freed) until the next reset. */
  drop() {
    this.behind = true;
    this.worker?.terminate();
    this.worker = null;
  }

  /** After the primary's reset: no data, a twin may start again with the next load. */
  reset() {
    this.worker?.terminate();
    this.worker = null;
    this.queue = Promise.resolve();
    this.model = 0;
    this.behind = false;
  }

  /**
   * One query in two parts, the primary's and the twin's, joined; the whole
   * query in the primary when there is no twin, the query is not on fixed
   * quanta or bounded under minRows, or the twin fails. The bound is asked
   * first, so a small query never waits for the twin to catch up.
   * @template {'queryColumns' | 'queryMatrix'} K
   * @param {WorkerProxy} primary @param {K} type QUERY_COLUMNS or QUERY_MATRIX @param {import('./protocol.js').QueryOptions & {adaptive_accuracy?: number, compat?: unknown}} opts
   * @param {(a: import('./protocol.js').ResultOf<K>, b: import('./protocol.js').ResultOf<K>) => import('./protocol.js').ResultOf<K> | Promise<import('./protocol.js').ResultOf<K>>} join
   * @returns {Promise<import('./protocol.js').ResultOf<K>>}
   */
  async query(primary, type, opts, join) {
    const whole = () => primary.request(type, { opts });
    if (!this.worker || (opts.adaptive_accuracy ?? 0) > 0 || opts.compat) return whole();
    if ((await primary.request(Req.QUERY_ROWS_BOUND, { opts })) < this.minRows) return whole();
    await this.queue;  // the twin has every change sent so far
    const twin = this.worker;
    if (this.behind || !twin) return whole();
    const [a, b] = await Promise.allSettled([primary.request(type, { opts: { ...opts, part: [0, 2] } }), twin.request(type, { opts: { ...opts, part: [1, 2] } })]);
    if (a.status === 'rejected') throw a.reason;
    if (b.status === 'rejected') {
      // The twin is gone (out of memory, terminated): the primary answers whole.
      if (this.worker === twin) this.drop();
      return whole();
    }
    return join(a.value, b.value);
  }

  terminate() {
    this.drop();
  }
}
