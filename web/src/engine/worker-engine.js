// The worker engine: the same interface as InThreadEngine, with all parsing
// and querying in Web Workers so the page never blocks.
//
//   main thread                 primary worker              parse workers (≤ N-1 more)
//   loadFiles(files) ─ file i ─▶ parseFile{export} ◀──────── or here, whichever is free
//                    ◀── encoded Source (transferred) ──
//                    ─ importSource(bytes) ─▶ primary engine  (in file order)
//   query/csv/heatmap ────────▶ primary engine
//   queryColumns/queryMatrix ──▶ primary engine (part 0) + query twin (part 1), joined
//
// Workers receive the File itself (a cheap handle, no bytes are copied) and
// read it in slices there, so the main thread does no per-byte work at all.
// Encoded Sources are imported into the primary engine in file order, so
// results do not depend on which worker finished first. The extra parse
// workers are terminated after each load: their WASM memory is returned.

import { toLoadItem } from '../load/files.js';
import { WorkerProxy } from './proxy.js';
import { Req } from './protocol.js';
import { spawnWebWorker } from './spawn.js';
import { failedSource, reducible } from './inthread.js';
import { addUsed, budgetPlan, modelBytes, shouldReduce, withResultBudget } from './budget.js';
import { withRows, joinColumns } from './columns.js';
import { joinMatrix } from './matrix.js';
import { QueryTwin } from './twin.js';
import { abortError } from '../util/abort.js';

/** @typedef {import('./inthread.js').Source} Source */
/** @typedef {import('./inthread.js').LoadOptions} LoadOptions */
/** @typedef {import('./proxy.js').Endpoint} Endpoint */

/**
 * @typedef {object} WorkerEngineOptions
 * @property {string} wasmUrl            URL of the ES-module glue
 * @property {ArrayBuffer} [wasmBinary]  the .wasm bytes (single-file page: sent to each worker, nothing fetched)
 * @property {number} [workers]          parallel parse workers (default: hardware threads, at most 8)
 * @property {() => Endpoint} [spawn]    starts one worker (tests pass a worker_threads adapter)
 * @property {number} [helperMemoryBytes]  a ceiling for each parse worker's WebAssembly memory (not the primary's)
 * @property {boolean} [twin]  a query twin (twin.js; default: with 2 or more workers)
 * @property {number} [twinMaxModelBytes]  the data above which the twin is dropped (default twin.js TWIN_MAX_MODEL_BYTES)
 * @property {number} [twinMinRows]  queries bounded below this many rows run whole (default twin.js TWIN_MIN_ROWS)
 */

export class WorkerEngine {
  /**
   * @param {WorkerEngineOptions} opts
   * @returns {Promise<WorkerEngine>}
   */
  static async create(opts) {
    const e = new WorkerEngine(opts);
    await e.primary.request(Req.INIT, e.init());
    // Not awaited: the page is ready meanwhile, and what it sends next waits its turn in the worker.
    e.primary.request(Req.WARM_UP, {}).catch(() => {});
    return e;
  }

  /** @param {WorkerEngineOptions} opts */
  constructor(opts) {
    this.wasmUrl = opts.wasmUrl;
    this.wasmBinary = opts.wasmBinary;
    this.spawn = opts.spawn ?? spawnWebWorker;
    this.helperMemoryBytes = opts.helperMemoryBytes;
    const hw = /** @type {any} */ (globalThis).navigator?.hardwareConcurrency ?? 2;
    this.maxWorkers = Math.max(1, Math.floor(opts.workers ?? Math.min(hw, 8)));
    this.primary = new WorkerProxy(this.spawn());
    /** A second engine answering half of each percentiles query (twin.js); null: none. */
    this.twin = (opts.twin ?? this.maxWorkers >= 2) ? new QueryTwin(this.spawn, () => this.init(), opts.twinMaxModelBytes, opts.twinMinRows) : null;
    /** Serialises loads: a second loadFiles waits for the first. @type {Promise<unknown>} */
    this.loading = Promise.resolve();
  }

  /**
   * The INIT payload: each worker gets its own copy of the bytes (structured clone).
   * @param {boolean} [helper] a parse worker: helperMemoryBytes applies
   */
  init(helper = false) {
    /** @type {{wasmUrl: string, wasmBinary?: ArrayBuffer, maxMemoryBytes?: number}} */
    const p = this.wasmBinary ? { wasmUrl: this.wasmUrl, wasmBinary: this.wasmBinary } : { wasmUrl: this.wasmUrl };
    if (helper && this.helperMemoryBytes) p.maxMemoryBytes = this.helperMemoryBytes;
    return p;
  }

  /**
   * @param {Iterable<File | Blob | import('../load/files.js').LoadItem>} files
   * @param {LoadOptions} [opts]
   * @returns {Promise<Source[]>} one per file, in order
   */
  loadFiles(files, opts = {}) {
    const run = this.loading.then(() => this.load(Array.from(files, toLoadItem), opts));
    this.loading = run.catch(() => {});
    return run;
  }

  /**
   * @param {import('../load/files.js').LoadItem[]} items
   * @param {LoadOptions} opts
   * @returns {Promise<Source[]>}
   */
  async load(items, opts) {
    const { onProgress, signal } = opts;
    // The twin's copy of the data stays within a quarter of the memory budget.
    if (opts.budget && this.twin) this.twin.maxModelBytes = Math.min(this.twin.maxModelBytes, opts.budget.bytes / 4);
    for (const it of items) {
      onProgress?.({ file: it.name, bytesDone: 0, bytesTotal: it.file.size, bytesPerSec: 0, state: 'queued' });
    }
    if (opts.inPrimary) {
      // Parsed in the primary only: the twin would miss these sources.
      this.twin?.drop();
      /** @type {Source[]} */
      const out = [];
      for (const it of items) {
        const p = { file: it.file, name: it.name, fileOptions: withResultBudget(opts.fileOptions, opts.budget), sliceBytes: opts.sliceBytes, export: false };
        out.push((await this.primary.request(Req.PARSE_FILE, p, { onProgress, signal })).source);
      }
      return out;
    }
    // Files are parsed in helper workers only, never in the primary: a file
    // that exhausts a worker's WebAssembly memory (the engine aborts) then
    // costs that helper, which is replaced, not the primary's loaded data.
    const nhelpers = Math.max(1, Math.min(this.maxWorkers, items.length) - 1);
    /** @type {WorkerProxy[]} */
    const helpers = [];
    /** Starts a helper (also to replace one whose engine died). */
    const spawnHelper = async () => {
      const w = new WorkerProxy(this.spawn());
      helpers.push(w);
      await w.request(Req.INIT, this.init(true));
      return w;
    };
    try {
      await Promise.all(Array.from({ length: nhelpers }, spawnHelper));
      const plan = budgetPlan(opts.budget?.bytes ?? Infinity, opts.budget ? (await this.primary.request(Req.MEMORY, {})).modelBytes : 0);

      /** @type {Source[]} */
      const out = new Array(items.length);
      /** Parsed but not yet imported, by file index. @type {Map<number, {source: Source, bytes?: Uint8Array}>} */
      const parsed = new Map();
      let nextImport = 0;
      let nextFile = 0;
      /** A live helper for reductions (the first that is not dead). */
      const reducer = async () => helpers.find((w) => !w.dead) ?? spawnHelper();
      // Imports run one at a time, in file order, as soon as the next file is
      // parsed; the budget is judged in that order too, so which files are
      // reduced does not depend on which worker finished first.
      let importing = Promise.resolve();
      const drain = () => {
        importing = importing.then(async () => {
          while (parsed.has(nextImport)) {
            const i = nextImport++;
            let r = /** @type {{source: Source, bytes?: Uint8Array}} */ (parsed.get(i));
            parsed.delete(i);
            if (r.bytes) {
              const cost = modelBytes(r.source, r.bytes.length);
              /** @type {import('./inthread.js').Reduced | undefined} */
              let reduced;
              if (opts.budget && shouldReduce(plan, cost, reducible(r.source))) {
                const w = await reducer();
                try {
                  // Sent as a copy: when the quanta would not be smaller, the windows are kept.
                  const q = await w.request(Req.REDUCE_SOURCE, { bytes: r.bytes, name: r.source.name, quantum_ms: opts.budget.quantum_ms });
                  if (modelBytes(q.source, q.bytes.length) < cost) {
                    if (r.source.read_error) q.source.read_error = r.source.read_error;
                    reduced = { quantum_ms: opts.budget.quantum_ms, windowsBytes: cost, format: r.source.format };
                    r = q;
                  } else {
                    reduced = { quantum_ms: 0, windowsBytes: cost, format: r.source.format };
                  }
                } catch (e) {
                  if (/** @type {Error} */ (e).name === 'AbortError') throw e;
                  w.terminate();
                  r = { source: failedSource(r.source.name, r.source.bytes, engineFailure(e, 'reducing')) };
                }
              }
              if (r.bytes) {
                const n = r.bytes.byteLength;  // before the transfer empties it
                // For the twin the primary hands the bytes back once imported:
                // no copy of them is made.
                const giveBack = !!this.twin?.wanted;
                let back = null;
                try {
                  const got = await this.primary.request(Req.IMPORT_SOURCE, { bytes: r.bytes, readError: r.source.read_error, reduced, giveBack }, { transfer: [r.bytes.buffer] });
                  // giveBack: the contract's {source, bytes}; else the source alone.
                  const given = giveBack ? /** @type {import('./protocol.js').EncodedSource} */ (got) : null;
                  out[i] = given ? given.source : /** @type {Source} */ (got);
                  back = given ? given.bytes : null;
                } catch (e) {
                  this.twin?.drop();  // whether the primary kept it is not known
                  throw e;
                }
                addUsed(plan, modelBytes(out[i], n));
                if (back) this.twin?.mirror(Req.IMPORT_SOURCE, { bytes: back, readError: out[i].read_error, reduced }, [back.buffer], modelBytes(out[i], n));
                else this.twin?.drop();
                continue;
              }
            }
            await this.primary.request(Req.ADD_FAILED, { source: r.source });
            out[i] = r.source;
          }
        });
        return importing;
      };
      const worker = async (/** @type {WorkerProxy} */ first) => {
        let w = first;
        while (nextFile < items.length) {
          if (signal?.aborted) throw abortError();
          const i = nextFile++;
          const it = items[i];
          let r;
          try {
            r = await w.request(
              Req.PARSE_FILE,
              { file: it.file, name: it.name, fileOptions: withResultBudget(opts.fileOptions, opts.budget), sliceBytes: opts.sliceBytes, export: true },
              { onProgress, signal },
            );
          } catch (e) {
            if (/** @type {Error} */ (e).name === 'AbortError') throw e;
            // The engine in this worker aborted (out of memory) or the worker
            // died: this file fails with a sentence, a fresh helper goes on.
            r = { source: failedSource(it.name, it.file.size, engineFailure(e, 'reading')) };
            onProgress?.({ file: it.name, bytesDone: 0, bytesTotal: it.file.size, bytesPerSec: 0, state: 'error' });
            w.terminate();
            w = await spawnHelper();
          }
          parsed.set(i, r);
          // Not awaited: this worker parses its next file while the primary
          // imports; an import error surfaces at the final drain below.
          drain().catch(() => {});
        }
      };
      try {
        await Promise.all(helpers.slice().map(worker));
      } catch (e) {
        if (/** @type {Error} */ (e).name === 'AbortError') {
          for (let i = nextFile; i < items.length; ++i) {
            const it = items[i];
            onProgress?.({ file: it.name, bytesDone: 0, bytesTotal: it.file.size, bytesPerSec: 0, state: 'cancelled' });
          }
        }
        throw e;
      }
      await drain();
      return out;
    } finally {
      for (const w of helpers) w.terminate();
    }
  }

  /** @returns {Promise<Source[]>} */
  sources() {
    return this.primary.request(Req.SOURCES, {});
  }

  /** @param {import('./protocol.js').QueryOptions} [opts] @returns {Promise<any>} parsed pctiles JSON */
  query(opts = {}) {
    // The worker replies with JSON text (see InThreadEngine.queryText).
    return this.primary.request(Req.QUERY, { opts }).then((text) => JSON.parse(text));
  }

  /** @param {object} [opts] @returns {Promise<string>} CSV equal to `latscope pctiles` */
  csv(opts = {}) {
    return this.primary.request(Req.CSV, { opts });
  }

  /** @param {object} [opts] @returns {Promise<any>} {meta..., counts: Float64Array} */
  heatmap(opts = {}) {
    return this.primary.request(Req.HEATMAP, { opts });
  }

  /** @param {object} opts @param {[number, number] | null} [range] @returns {Promise<string>} the heat map as `latscope heatmap --header-units` CSV */
  heatmapCsv(opts, range = null) {
    return this.primary.request(Req.HEATMAP_CSV, { opts, range });
  }

  /** @param {object} opts @param {number} quantum @param {number} row @returns {Promise<import('./protocol.js').DensityCell>} the groups of one density cell */
  densityCell(opts, quantum, row) {
    return this.primary.request(Req.DENSITY_CELL, { opts, quantum, row });
  }

  /** @param {object} [opts] @returns {Promise<import('./columns.js').ResultColumns>} the query as columns (typed arrays transferred from the worker) */
  queryColumns(opts = {}) {
    if (!this.twin) return this.primary.request(Req.QUERY_COLUMNS, { opts }).then(withRows);
    return this.twin.query(this.primary, Req.QUERY_COLUMNS, opts, joinColumns).then(withRows);
  }

  /** @param {object} [opts] @returns {Promise<import('./matrix.js').ResultMatrix>} the query as typed arrays, built in the worker */
  queryMatrix(opts = {}) {
    if (!this.twin) return this.primary.request(Req.QUERY_MATRIX, { opts });
    return this.twin.query(this.primary, Req.QUERY_MATRIX, opts, joinMatrix);
  }

  /** @param {import('./protocol.js').MatrixAsk} ask @returns {Promise<import('./protocol.js').MatrixAnswer>} from a file's per-host matrix (the primary worker keeps it) */
  matrixQuery(ask) {
    return this.primary.request(Req.MATRIX_QUERY, ask);
  }

  /** @param {object} [opts] @returns {Promise<{bytes: Uint8Array}>} the loaded data as a result file */
  encodeResult(opts = {}) {
    return this.primary.request(Req.ENCODE_RESULT, { opts });
  }

  /**
   * Puts the loaded files into runs (after any running load).
   * @param {object} [opts] {by?: 'auto'|'folder'|'prefix'|'json'|'none', patterns?: {name: string, glob: string}[]}
   * @returns {Promise<import('./inthread.js').RunPlan>}
   */
  assignRuns(opts = {}) {
    const run = this.loading.then(async () => {
      const r = await this.primary.request(Req.ASSIGN_RUNS, { opts });
      this.twin?.mirror(Req.ASSIGN_RUNS, { opts });
      return r;
    });
    this.loading = run.catch(() => {});
    return run;
  }

  /**
   * The trust summary (after any running load or run assignment: units are
   * settled by assignRuns). The primary alone: it holds every source.
   * @param {string[]} [accounts] [] , ['hist'] or ['per-io'] (the query option "accounts")
   * @param {string[]} [exclude] the query option "exclude_sources"
   * @returns {Promise<import('./inthread.js').TrustRow[]>}
   */
  trust(accounts = [], exclude = []) {
    return this.loading.then(() => this.primary.request(Req.TRUST, { accounts, exclude }));
  }

  /**
   * The quantum a load opens at when none was chosen (core Engine::default_quantum_ms),
   * after any running load. The primary alone: it holds every source.
   * With `view`: the quantum the zoom asks for (inthread.js defaultQuantum).
   * @param {{range_ms: number, width_px: number}} [view]
   * @returns {Promise<number | null>} ms; null when no series has an interval
   */
  defaultQuantum(view) {
    return this.loading.then(() => this.primary.request(Req.DEFAULT_QUANTUM, view ? { view } : {}));
  }

  /**
   * @param {import('./inthread.js').CompareOptions} opts
   * @returns {Promise<{text: string, notes: string[]}>} `latscope summary --compare` of the two runs
   */
  compareRuns(opts) {
    return this.primary.request(Req.COMPARE_RUNS, opts);
  }

  /**
   * @param {{presets: string, text: string}} o
   * @returns {Promise<import('./inthread.js').PercentileList>} the page's percentiles as core reads them
   */
  parsePercentiles(o) {
    return this.primary.request(Req.PARSE_PERCENTILES, o);
  }

  /**
   * @param {{text: string, unit: string}} o
   * @returns {Promise<{rules: any[]}>} the SLA field as core reads it
   */
  parseSla(o) {
    return this.primary.request(Req.PARSE_SLA, o);
  }

  /**
   * The primary alone: it holds every source, so its query's rows are all
   * the rows (no parts to join).
   * @param {{text: string, unit: string, opts?: object}} o
   * @returns {Promise<{verdicts: any[]}>} the SLA field judged by core
   */
  judgeSla(o) {
    return this.loading.then(() => this.primary.request(Req.JUDGE_SLA, o));
  }

  /** Drops every source (after any running load). @returns {Promise<void>} */
  reset() {
    const run = this.loading.then(async () => {
      await this.primary.request(Req.RESET, {});
      this.twin?.reset();
    });
    this.loading = run.catch(() => {});
    return run;
  }

  /**
   * @returns {Promise<{wasmBytes: number, modelBytes: number, twinBytes?: number}>} the primary
   *   engine's WASM memory and its model's estimated share; twinBytes: the query twin's WASM memory
   */
  async memory() {
    /** @type {{wasmBytes: number, modelBytes: number, twinBytes?: number}} */
    const m = await this.primary.request(Req.MEMORY, {});
    const w = this.twin?.worker;
    if (w) m.twinBytes = await w.request(Req.MEMORY, {}).then((t) => t.wasmBytes, () => undefined);
    return m;
  }

  terminate() {
    this.primary.terminate();
    this.twin?.terminate();
  }
}

/**
 * The sentence for a file whose worker engine failed (docs/page-loading.md §7):
 * an Emscripten abort is how running out of WebAssembly memory shows
 * (malloc fails, operator new aborts; "Aborted()" in a release build).
 * @param {unknown} e @param {'reading'|'reducing'} what
 */
export function engineFailure(e, what) {
  const msg = String(/** @type {Error} */ (e)?.message ?? e).split('\n')[0];
  const aborted = /Aborted|out of memory|enlarge memory|bad_alloc/i.test(msg) || /** @type {Error} */ (e)?.name === 'RuntimeError';
  return aborted
    ? `the engine aborted while ${what} this file, most likely out of memory (its worker's WebAssembly memory is limited); the file is left out, the other files are loaded`
    : `the engine's worker failed while ${what} this file (${msg}); the file is left out, the other files are loaded`;
}
