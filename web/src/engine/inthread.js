// The in-thread engine: the WASM engine in the calling thread. Used directly
// by unit tests and benchmarks under Node, and inside each Web Worker by
// serve.js. Same public interface as the worker engine (worker-engine.js).
//
//   JS                                   WASM (wasm/bindings.cc -> core Engine)
//   ──                                   ────
//   loadFiles(items)
//     for each file: scratch = new Engine
//       readChunks(file) ──Uint8Array──▶ scratch.append(h, bytes)   (copied into the heap)
//       scratch.finish(h) ◀──JSON──
//       scratch.exportSource(h) ◀──Uint8Array copy──  (model_io encode_source)
//     main.importSource(bytes) ──────▶ decode_source + Engine::add_source
//   query / csv / heatmap(opts) ──JSON──▶ parse options in core ──▶ JSON / CSV / {meta, Float64Array copy}
//
// Files are parsed in a scratch engine so that a file whose bytes fail in JS
// (corrupt gzip, cancel) never leaves a half-read Source in the main engine,
// and so that a worker can hand the encoded Source to the primary engine.

import { readChunks, FileFormatError } from '../load/read.js';
import { toLoadItem } from '../load/files.js';
import { EngineError } from './protocol.js';
import { matrixOf } from './matrix.js';
import { columnsOf, withRows } from './columns.js';
import { KEEP_LABELS, budgetPlan, modelBytes, shouldReduce, withResultBudget } from './budget.js';
import { yieldToEvents } from '../util/yield.js';
import { abortError } from '../util/abort.js';

// The shapes of core's answers the engine hands on (answers.js).
/** @typedef {import('./answers.js').RunPlan} RunPlan */
/** @typedef {import('./answers.js').TrustRow} TrustRow */
/** @typedef {import('./answers.js').CompareOptions} CompareOptions */
/** @typedef {import('./answers.js').PercentileList} PercentileList */
/** @typedef {import('./answers.js').SlaRule} SlaRule */
/** @typedef {import('./answers.js').SlaRules} SlaRules */
/** @typedef {import('./answers.js').SlaGroupVerdict} SlaGroupVerdict */
/** @typedef {import('./answers.js').SlaVerdict} SlaVerdict */
/** @typedef {import('./answers.js').SlaVerdicts} SlaVerdicts */

/** @typedef {import('../load/files.js').LoadItem} LoadItem */
/** @typedef {import('./protocol.js').Progress} Progress */

/**
 * A series of a Source (report.h source_json).
 * @typedef {object} SourceSeries
 * @property {string} dir          'read' | 'write' | 'trim'
 * @property {string} job
 * @property {number} segment
 * @property {number} windows
 * @property {number} samples
 * @property {boolean} repaired
 * @property {number} saturated
 * @property {number} start_ms
 * @property {number} end_ms
 * @property {'time'|'whole-run'} role  whole-run: one histogram of the run (fio json+), not in time views
 * @property {Record<string, string>} labels  the series' own labels (dir, job, tag, kind, ...); a
 *   name it lacks takes the source's value (core label_of)
 */

/**
 * One parsed file as the engine describes it (report.h source_json), plus
 * sources that failed before reaching the engine, in the same shape.
 * @typedef {object} Source
 * @property {string} name
 * @property {string} format      'fio-hist', 'fio-json', ..., 'ignored' (not a latency log), 'unknown'
 * @property {string} layout      name layout id ('' when none matched)
 * @property {string} prefix
 * @property {string} job
 * @property {string} host
 * @property {boolean} absolute_time
 * @property {number} lines
 * @property {number} records
 * @property {number} bytes
 * @property {Record<string, string>} labels  file-level labels (file, host, job, kind, prefix, run)
 * @property {string} ignored     format 'ignored': what the file looks like ("fio job file", "text"); else ''
 * @property {{ok: boolean, message: string}} status
 * @property {SourceSeries[]} series
 * @property {any[]} issues
 * @property {any[]} examples
 * @property {string} [read_error]  set by the JS reader (not the engine): the file's bytes ended early
 *   (truncated or corrupt gzip); the part read before is loaded and this says what was kept
 * @property {Reduced} [reduced]  set by the page (not the engine): the file was imported as a
 *   result at this quantum, not as its windows (memory budget, docs/page-loading.md §7)
 */

/**
 * @typedef {object} Reduced
 * @property {number} quantum_ms  the quantum the file's counts were added onto; 0: past the budget
 *   but kept as windows, because its quanta would not have been smaller
 * @property {number} windowsBytes  what its windows would have cost (budget.js modelBytes)
 * @property {string} format  the format it was read as (the engine now holds a result)
 */

/**
 * @typedef {object} Budget
 * @property {number} bytes  for the primary engine's model (Infinity: none)
 * @property {number} quantum_ms  the quantum files past it are reduced to
 */

/**
 * @typedef {object} LoadOptions
 * @property {(p: Progress) => void} [onProgress]
 * @property {AbortSignal} [signal]
 * @property {object} [fileOptions]  options_json file options for every file (format, repair, ...)
 * @property {number} [sliceBytes]
 * @property {Budget} [budget]  past it, files are imported reduced (docs/page-loading.md §7)
 * @property {boolean} [inPrimary]  worker engine: parse in the primary, no helper workers (an input
 *   the page has already bounded, a slice of a result with several levels: starting helpers would
 *   cost more than the parse; docs/page-loading.md §8)
 */

/** Minimum interval between two progress reports of one file. */
const PROGRESS_MS = 100;

/**
 * Unwraps a binding result: the shim returns {error: {name, message}} for
 * failures (bad options, corrupt encoded source) instead of throwing.
 * @template T
 * @param {T | {error: {name: string, message: string}}} r
 * @returns {T}
 */
function unwrap(r) {
  if (r && typeof r === 'object' && 'error' in r && r.error) {
    const e = /** @type {{error: {name: string, message: string}}} */ (r).error;
    throw new EngineError(e.message, e.name);
  }
  return /** @type {T} */ (r);
}

/**
 * A Source for a file the engine never saw (its bytes failed in JS).
 * @param {string} name
 * @param {number} bytes
 * @param {string} message
 * @returns {Source}
 */
export function failedSource(name, bytes, message) {
  return /** @type {Source} */ ({
    name,
    format: 'unknown',
    layout: '',
    prefix: '',
    job: '',
    host: '',
    absolute_time: false,
    lines: 0,
    records: 0,
    bytes,
    labels: {},
    ignored: '',
    status: { ok: false, message: `${name}: ${message}` },
    series: [],
    issues: [],
    examples: [],
  });
}

export class InThreadEngine {
  /**
   * @param {any} module the loaded Emscripten module (wasm-module.js / node.js)
   */
  constructor(module) {
    this.M = module;
    this.core = new module.Engine();
    /** The per-host matrix of the file last asked (matrixQuery). @type {any} */
    this.matrixFile = null;
    /** @type {string} */
    this.matrixKey = '';
    /** Sources whose bytes failed before reaching the engine, in load order. @type {Source[]} */
    this.failed = [];
    /** read_error of loaded sources, by name (the engine does not keep it). @type {Map<string, string>} */
    this.readErrors = new Map();
    /** Files imported reduced, by name. @type {Map<string, Reduced>} */
    this.reduced = new Map();
    /** Estimated bytes of the model (budget.js modelBytes of every import). */
    this.used = 0;
  }

  /** Size of the WASM memory. It never shrinks, so it is also the peak so far. */
  wasmBytes() {
    return this.M.HEAPU8.length;
  }

  /**
   * Parses files one after another into this engine.
   * @param {Iterable<File | Blob | LoadItem>} files
   * @param {LoadOptions} [opts]
   * @returns {Promise<Source[]>} one per file, in order
   */
  async loadFiles(files, opts = {}) {
    const items = Array.from(files, toLoadItem);
    for (const it of items) {
      opts.onProgress?.(progress(it, 0, 0, 'queued'));
    }
    /** @type {Source[]} */
    const out = [];
    const plan = budgetPlan(opts.budget?.bytes ?? Infinity, this.used);
    for (let i = 0; i < items.length; ++i) {
      try {
        const { source, bytes } = await this.parseFile(items[i], { ...opts, fileOptions: withResultBudget(opts.fileOptions, opts.budget), export: true });
        if (bytes) {
          const cost = modelBytes(source, bytes.length);
          if (opts.budget && shouldReduce(plan, cost, reducible(source))) {
            const r = this.reduceEncoded(bytes, source.name, opts.budget.quantum_ms);
            // Quanta no smaller than the windows (a quantum near the logs' interval): the windows are kept.
            const smaller = modelBytes(r.source, r.bytes.length) < cost;
            out.push(this.importSource(smaller ? r.bytes : bytes, source.read_error, { quantum_ms: smaller ? opts.budget.quantum_ms : 0, windowsBytes: cost, format: source.format }));
          } else {
            out.push(this.importSource(bytes, source.read_error));
          }
          plan.used = this.used;  // importSource counted it
        }
        else {
          this.failed.push(source);
          out.push(source);
        }
      } catch (e) {
        if (/** @type {Error} */ (e).name === 'AbortError') {
          for (const it of items.slice(i)) opts.onProgress?.(progress(it, 0, 0, 'cancelled'));
        }
        throw e;
      }
    }
    return out;
  }

  /**
   * Reads and parses one file in a scratch engine. With opts.export the
   * encoded Source is returned (for the primary engine); without, it is added
   * to this engine. A file that fails in JS is recorded in this.failed.
   * @param {File | Blob | LoadItem} file
   * @param {LoadOptions & {export?: boolean}} [opts]
   * @returns {Promise<{source: Source, bytes?: Uint8Array}>} source.read_error says when the
   *   file's bytes ended early (what was read is in the Source)
   */
  async parseFile(file, opts = {}) {
    const it = toLoadItem(file);
    const { onProgress, signal } = opts;
    const t0 = now();
    let last = 0;
    let done = 0;
    const report = (/** @type {Progress['state']} */ state) =>
      onProgress?.(progress(it, done, (now() - t0) / 1000, state));
    report('reading');

    const scratch = new this.M.Engine();
    let readError = '';
    try {
      const h = unwrap(scratch.openFile(it.name, JSON.stringify(opts.fileOptions ?? {})));
      try {
        for await (const chunk of readChunks(it.file, {
          sliceBytes: opts.sliceBytes,
          signal,
          onBytes: (n) => {
            done = n;
          },
          onProblem: (m) => {
            readError = m;
          },
        })) {
          // false: the head showed no latency log, and the rest would only be counted (a fio data file
          // of gigabytes in a picked folder): not read (Engine::wants_bytes).
          if (!scratch.append(h, chunk)) {
            done = it.file.size;
            break;
          }
          if (now() - last >= PROGRESS_MS) {
            last = now();
            report('reading');
            // Let queued messages (a cancel, an import) run: in-memory
            // blob reads resolve as microtasks and would never yield.
            await yieldToEvents();
          }
        }
      } catch (e) {
        if (e instanceof FileFormatError) {
          const source = failedSource(it.name, it.file.size, e.message);
          report('error');
          if (!opts.export) this.failed.push(source);
          return { source };
        }
        report(/** @type {Error} */ (e).name === 'AbortError' ? 'cancelled' : 'error');
        throw e;
      }
      if (signal?.aborted) {
        report('cancelled');
        throw abortError();
      }
      /** @type {Source} */
      const source = JSON.parse(scratch.finish(h));
      if (readError) source.read_error = readError;
      const bytes = /** @type {Uint8Array} */ (unwrap(scratch.exportSource(h)));
      done = it.file.size;
      report(source.status.ok ? 'done' : 'error');
      if (opts.export) return { source, bytes };
      return { source: this.importSource(bytes, readError) };
    } finally {
      scratch.delete();
    }
  }

  /**
   * An encoded Source turned into a result at quantum_ms keeping the labels
   * the page groups by (budget.js KEEP_LABELS), then read back as the file
   * `name`: the encoded Source of that result, for importSource. As `latscope
   * reduce --quantum Q --keep host,job,dir,file,tag,kind` of the one file
   * (docs/page-loading.md §7). Both scratch engines are freed before returning.
   * @param {Uint8Array} bytes  from exportSource
   * @param {string} name
   * @param {number} quantumMs
   * @returns {{source: Source, bytes: Uint8Array}}
   */
  reduceEncoded(bytes, name, quantumMs) {
    let result;
    const scratch = new this.M.Engine();
    try {
      unwrap(scratch.importSource(bytes));
      result = /** @type {Uint8Array} */ (unwrap(scratch.encodeResult(JSON.stringify({ quantum_ms: quantumMs, group_by: KEEP_LABELS }))));
    } finally {
      scratch.delete();
    }
    const reader = new this.M.Engine();
    try {
      const h = unwrap(reader.openFile(name, '{}'));
      reader.append(h, result);
      /** @type {Source} */
      const source = JSON.parse(reader.finish(h));
      if (!source.status.ok) throw new EngineError(source.status.message, 'Internal');
      return { source, bytes: /** @type {Uint8Array} */ (unwrap(reader.exportSource(h))) };
    } finally {
      reader.delete();
    }
  }

  /**
   * Adds an encoded Source (from exportSource, possibly in another worker).
   * @param {Uint8Array} bytes
   * @param {string} [readError] the parse's source.read_error, kept with the source
   * @param {Reduced} [reduced] set when bytes are the file reduced (reduceEncoded)
   * @returns {Source}
   */
  importSource(bytes, readError = '', reduced = undefined) {
    const json = unwrap(this.core.importSource(bytes));
    /** @type {Source} */
    const source = JSON.parse(json);
    this.used += modelBytes(source, bytes.length);
    if (readError) {
      source.read_error = readError;
      this.readErrors.set(source.name, readError);
    }
    if (reduced) {
      source.reduced = reduced;
      this.reduced.set(source.name, reduced);
    }
    return source;
  }

  /**
   * Records a failed file (from another worker) so that sources() lists it.
   * @param {Source} source
   */
  addFailed(source) {
    this.failed.push(source);
  }

  /** @returns {Source[]} engine sources then files that failed in JS */
  sources() {
    /** @type {Source[]} */
    const list = JSON.parse(this.core.sources());
    for (const s of list) {
      const e = this.readErrors.get(s.name);
      if (e) s.read_error = e;
      const r = this.reduced.get(s.name);
      if (r) s.reduced = r;
    }
    return [...list, ...this.failed];
  }

  /**
   * Puts the loaded sources into runs and sets each one's "run" label
   * (core Engine::assign_runs, docs/runs.md).
   * @param {object} [opts] {by?: 'auto'|'folder'|'prefix'|'json'|'none', patterns?: {name: string, glob: string}[]}
   * @returns {RunPlan}
   */
  assignRuns(opts = {}) {
    return JSON.parse(unwrap(this.core.assignRuns(JSON.stringify(opts))));
  }

  /**
   * The trust summary of the loaded files (core Engine::trust, docs/folders.md).
   * Ask it after assignRuns: that settles the unit of per-I/O logs whose
   * columns do not say it, and the rows say what was decided.
   * @param {string[]} [accounts] [] (per-I/O logs where a job has both), ['hist'] or ['per-io']:
   *   the query option "accounts", so the rows name the files the queries leave out
   * @param {string[]} [exclude] the query option "exclude_sources": an unticked file accounts for nothing
   * @returns {TrustRow[]}
   */
  trust(accounts = [], exclude = []) {
    return JSON.parse(unwrap(this.core.trust(JSON.stringify(accounts), JSON.stringify(exclude))));
  }

  /**
   * The quantum a load opens at when none was chosen (core Engine::default_quantum_ms:
   * the longest logging interval among the loaded time series, rounded to the nearest
   * preset; docs/page-views.md "Default quantum").
   * With `view`, the quantum a chart `width_px` wide over a visible `range_ms` follows
   * the zoom at (core zoom_quantum_ms, docs/page-views.md "Quantum follows the zoom").
   * @param {{range_ms: number, width_px: number}} [view]
   * @returns {number | null} ms; null when no series has an interval (per-I/O logs, json+ alone)
   */
  defaultQuantum(view) {
    const q = Number(view ? this.core.zoomQuantum(view.range_ms, view.width_px) : this.core.defaultQuantum());
    return q > 0 ? q : null;
  }

  /**
   * The last assignRuns' two runs side by side, computed by the CLI's own
   * code (`latscope summary --compare`, core latscope/summary.h): the
   * same text for the same files and options.
   * @param {CompareOptions} opts
   * @returns {Promise<{text: string, notes: string[]}>}
   */
  async compareRuns(opts) {
    // The account of every job's I/Os, as the queries (docs/folders.md).
    const accounts = JSON.stringify(Array.isArray(opts.accounts) ? opts.accounts : []);
    const r = unwrap(this.core.compareRuns(String(opts.percentiles ?? '50,99'), String(opts.unit ?? 'us'), opts.format === 'json' ? 'json' : 'csv', accounts));
    return { text: r.text, notes: JSON.parse(r.notes) };
  }

  /**
   * The page's percentiles as core reads them (core percentile_list.h, the
   * grammar of `--percentiles`): the checked presets and the field's text,
   * sorted, one per value. Throws core's sentence naming a bad item.
   * @param {{presets: string, text: string}} o
   * @returns {PercentileList}
   */
  parsePercentiles(o) {
    return JSON.parse(unwrap(this.core.parsePercentiles(String(o.presets), String(o.text))));
  }

  /**
   * The page's SLA field as core reads it (core sla_field.h).
   * @param {{text: string, unit: string}} o unit: the shown unit (a threshold without one is in it)
   * @returns {SlaRules}
   */
  parseSla(o) {
    return JSON.parse(unwrap(this.core.parseSla(String(o.text), String(o.unit))));
  }

  /**
   * The SLA field judged by core on every row of the percentiles query of
   * `opts`, per group and summed, with the sentences the page shows
   * (core sla_field.h; `latscope pctiles --sla` judges a row the same way).
   * @param {{text: string, unit: string, opts?: object}} o
   * @returns {SlaVerdicts}
   */
  judgeSla(o) {
    return JSON.parse(unwrap(this.core.judgeSla(String(o.text), String(o.unit), JSON.stringify(o.opts ?? {}))));
  }

  /**
   * Percentiles over time.
   * @param {object} [opts] options_json query options
   * @returns {any} parsed pctiles JSON (report.h pctiles_json)
   */
  query(opts = {}) {
    return JSON.parse(this.queryText(opts));
  }

  /**
   * The same as query(), as JSON text: what a worker posts, because a string
   * crosses postMessage in one copy while an object graph of thousands of
   * rows costs the receiving main thread hundreds of ms to deserialize.
   * @param {object} [opts] @returns {string}
   */
  queryText(opts = {}) {
    return unwrap(this.core.query(JSON.stringify(opts)));
  }

  /**
   * The percentiles CSV, byte-identical to `latscope pctiles` with the same options.
   * @param {object} [opts]
   * @returns {string}
   */
  csv(opts = {}) {
    return unwrap(this.core.pctilesCsv(JSON.stringify(opts)));
  }

  /**
   * The loaded data as a result file (docs/result-format.md), as `latscope
   * reduce` writes it: the selection of opts, its quantum_ms, and group_by =
   * the labels kept (the others are added together).
   * @param {object} [opts]
   * @returns {{bytes: Uint8Array}} a copy owned by JS
   */
  encodeResult(opts = {}) {
    return { bytes: /** @type {Uint8Array} */ (unwrap(this.core.encodeResult(JSON.stringify(opts)))) };
  }

  /**
   * The query as columns (columns.js): what the worker posts for the
   * percentiles view instead of JSON text (report.h pctiles_columns).
   * @param {object} [opts] @returns {import('./columns.js').ResultColumns}
   */
  queryColumns(opts = {}) {
    const t0 = performance.now();
    const c = withRows(columnsOf(unwrap(this.core.queryColumns(JSON.stringify(opts)))));
    // Where the time of a regroup goes (web/scripts/bench-groups-chromium.mjs).
    c.engine_ms = performance.now() - t0;
    return c;
  }

  /**
   * A bound on the query's rows from its plan alone (Engine::query_rows_bound):
   * whether it is worth cutting into parts (twin.js). 0: not on fixed quanta.
   * @param {object} [opts] @returns {number}
   */
  queryRowsBound(opts = {}) {
    return this.core.queryRowsBound(JSON.stringify(opts));
  }

  /**
   * The query's values as typed arrays (matrix.js): what the worker posts
   * for the groups view instead of JSON text.
   * @param {object} [opts] @returns {import('./matrix.js').ResultMatrix}
   */
  queryMatrix(opts = {}) {
    const t0 = performance.now();
    const m = matrixOf(unwrap(this.core.queryMatrix(JSON.stringify(opts))));
    m.engine_ms = performance.now() - t0;
    return m;
  }

  /**
   * Heat-map grid: counts[q * rows + r], a copy owned by JS.
   * @param {object} [opts] options_json heat-map options
   * @returns {any} {t0_ms, quantum_ms, absolute_time, quanta, rows, edges_ns, below, above, counts: Float64Array}
   */
  heatmap(opts = {}) {
    const r = unwrap(this.core.heatmap(JSON.stringify(opts)));
    const meta = JSON.parse(r.meta);
    return { ...meta, counts: r.counts };
  }

  /**
   * The heat map's cells as CSV, written by core as `latscope heatmap
   * --header-units` writes them (report.h heatmap_csv): the page's export.
   * @param {object} opts heat-map options (with the unit of the values)
   * @param {[number, number] | null} [range] only the quanta overlapping it
   * @returns {string}
   */
  heatmapCsv(opts, range = null) {
    return unwrap(this.core.heatmapCsv(JSON.stringify(opts), range ? range[0] : NaN, range ? range[1] : NaN));
  }

  /**
   * The groups of one cell of a density (heatmap with density_by):
   * asked on a click, so no cell keeps a list (docs/page-views.md, "Host density").
   * @param {object} opts the density's options @param {number} quantum @param {number} row
   * @returns {import('./protocol.js').DensityCell}
   */
  densityCell(opts, quantum, row) {
    return JSON.parse(unwrap(this.core.densityCell(JSON.stringify(opts), quantum, row)));
  }

  /**
   * A per-host question answered from a version 4 file's matrix (wasm
   * MatrixFile, core matrix_answer.h; docs/page-views.md "Groups from the
   * matrix"): the file's bytes arrive by ranges (pages), the matrix is kept
   * per key between calls. The answer, or the ranges core needs first, or
   * why the matrix cannot answer (then the histograms do).
   * @param {import('./protocol.js').MatrixAsk} p
   * @returns {import('./protocol.js').MatrixAnswer}
   */
  matrixQuery(p) {
    if (this.matrixKey !== p.key) {
      this.matrixFile?.delete();
      this.matrixFile = new this.M.MatrixFile(p.size);
      this.matrixKey = p.key;
    }
    for (const [at, bytes] of p.pages) this.matrixFile.add(at, bytes);
    const t0 = performance.now();
    const r = unwrap(this.matrixFile.query(JSON.stringify(p.opts), p.columns, p.chosen, !!p.rows));
    if (r.need) return { need: JSON.parse(r.need) };
    if (r.refused !== undefined) return { refused: r.refused };
    if (p.rows) {
      // The percentiles chart's rows (queryColumns' form), from the matrix.
      const c = columnsOf(r);
      c.engine_ms = performance.now() - t0;
      return c;
    }
    const m = matrixOf(r);
    m.engine_ms = performance.now() - t0;
    return m;
  }

  /** Drops every source. */
  reset() {
    this.core.delete();
    this.core = new this.M.Engine();
    this.failed = [];
    this.readErrors.clear();
    this.reduced.clear();
    this.used = 0;
  }

  /** @returns {{wasmBytes: number, modelBytes: number}} the WASM memory, and the model's estimated share (budget.js) */
  memory() {
    return { wasmBytes: this.wasmBytes(), modelBytes: this.used };
  }

  terminate() {
    this.matrixFile?.delete();
    this.matrixFile = null;
    this.core?.delete();
    this.core = null;
  }
}

/**
 * Whether a parsed file can be reduced: a log with time series. fio json+
 * (one whole-run histogram per job) and results (quanta already) are kept as they are.
 * @param {Source} source
 */
export function reducible(source) {
  return source.status.ok && source.format !== 'result' && source.format !== 'fio-json' && (source.series ?? []).some((s) => s.role !== 'whole-run');
}


function now() {
  return globalThis.performance?.now() ?? Date.now();
}

/**
 * @param {LoadItem} it
 * @param {number} done
 * @param {number} seconds
 * @param {Progress['state']} state
 * @returns {Progress}
 */
function progress(it, done, seconds, state) {
  return {
    file: it.name,
    bytesDone: done,
    bytesTotal: it.file.size,
    bytesPerSec: seconds > 0 ? done / seconds : 0,
    state,
  };
}
