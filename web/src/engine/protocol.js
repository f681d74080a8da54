// The one worker protocol, shared by the worker side
// (serve.js) and the main-thread side (proxy.js).
//
//   main thread                                   worker
//   ───────────                                   ──────
//   {id, type, payload}            ───────────▶   handler(type)(payload)
//                                  ◀───────────   {id, ok: true, result}
//                                  ◀───────────   {id, ok: false, error: {name, message}}
//                                  ◀───────────   {type: 'progress', id, ...}  (unsolicited,
//                                                  any number, before the reply of request id)
//
// * Exactly one reply per request, including 'cancel' (which also makes the
//   cancelled request reply {ok: false, error: {name: 'AbortError'}}).
// * Every message that carries bytes names them in an explicit transfer list;
//   nothing posted is ever a view of the WASM heap (that would clone the whole
//   heap): results are copied out of the heap once and the copy is transferred.

/**
 * Query options as the engine's options_json reads them (app/queries.js
 * builds them; core/include docs each key). Passed through, never read here.
 * @typedef {object} QueryOptions
 */

/**
 * A heat map: counts[q * rows + r] (transferred) and its grid.
 * @typedef {object} HeatmapGrid
 * @property {number} t0_ms
 * @property {number} quantum_ms
 * @property {boolean} absolute_time
 * @property {number} quanta
 * @property {number} rows
 * @property {number[]} edges_ns
 * @property {number} below
 * @property {number} above
 * @property {string[]} notes the engine's notes on this grid (kinds left out, ...), not the percentiles query's
 * @property {Float64Array} counts
 * @property {number} [groups] a density (options density_by): the groups the query found
 * @property {number} [max_column] a density: the most groups with a value in one quantum
 */

/**
 * The groups of one density cell (core Engine::density_cell), sorted by
 * value then name; values in `unit` (docs/page-views.md, "Host density").
 * @typedef {object} DensityCell
 * @property {string} unit
 * @property {{group: string, value: number}[]} members
 */

/** @typedef {import('./inthread.js').Source} Source */
/** @typedef {{wasmUrl: string, wasmBinary?: ArrayBuffer, maxMemoryBytes?: number}} InitPayload the engine's code for a worker */
/**
 * A per-host question for a file's matrix (matrixQuery): key names the file
 * (a new key drops the last file's matrix); pages: [offset, bytes] read from
 * it; columns: the chart's pixel columns; chosen: the quantum was chosen by
 * the user (then only a level of exactly that quantum answers).
 * @typedef {{key: string, size: number, pages: [number, Uint8Array][], opts: QueryOptions, columns: number, chosen: boolean, rows?: boolean}} MatrixAsk
 *   rows: the answer as queryColumns' (the percentiles chart's rows) instead of the groups view's matrix
 */
/** @typedef {import('./matrix.js').ResultMatrix | import('./columns.js').ResultColumns | {need: [number, number][]} | {refused: string}} MatrixAnswer */
/** @typedef {{source: Source, bytes: Uint8Array}} EncodedSource a source with its encoded bytes (transferred) */

/**
 * The worker contract: for each request name, its payload and its result.
 * The proxy (proxy.js) and the server (serve.js) are typed by it, so a
 * request sent with the wrong payload, or a handler answering the wrong
 * shape, fails `tsc -p web/jsconfig.json`.
 * @typedef {object} Requests
 * @property {{payload: InitPayload, result: {version: number}}} init
 *   maxMemoryBytes: a ceiling for this worker's WebAssembly memory (wasm-module.js capMemory).
 *   wasmBinary: the engine's bytes when the page carries them (the single-file page,
 *   docs/page-loading.md); then the worker's own bundled glue is used and nothing is fetched.
 * @property {{payload: {}, result: void}} warmUp
 *   the engine's code run on made-up logs in a scratch engine, so that the browser optimises
 *   it before the user's first queries (warmup.js). Sent after init to the workers that answer queries.
 * @property {{payload: {file: Blob, name: string, fileOptions?: object, export?: boolean, sliceBytes?: number}, result: {source: Source, bytes?: Uint8Array}}} parseFile
 *   with export, the file is parsed in a scratch engine and its encoded Source is returned
 *   (transferred); without, it is added to the worker's engine. Progress notes precede the reply.
 * @property {{payload: {bytes: Uint8Array, readError?: string, reduced?: import('./inthread.js').Reduced, giveBack?: boolean}, result: Source | EncodedSource}} importSource
 *   bytes transferred; reduced: the bytes are the file as a result (reduceSource), kept with the
 *   source; giveBack: the bytes come back (transferred) with the source, for the query twin (twin.js)
 * @property {{payload: {bytes: Uint8Array, name: string, quantum_ms: number}, result: EncodedSource}} reduceSource
 *   the file (an encoded Source, transferred) as a result at quantum_ms (InThreadEngine.reduceEncoded),
 *   encoded for importSource; the memory budget, docs/page-loading.md §7
 * @property {{payload: {source: Source}, result: null}} addFailed  lists a file that failed in another worker's JS
 * @property {{payload: {opts: QueryOptions}, result: string}} query  pctiles JSON text (parsed by the caller: cheaper than cloning rows)
 * @property {{payload: {opts: QueryOptions}, result: import('./columns.js').ResultColumns}} queryColumns
 *   the query as typed arrays (transferred) and its meta; what the percentiles view and the
 *   SLA summary read, for any number of groups; with the option "sla", core's verdicts and its
 *   marks of the rows that break them (sla, sla_marks; docs/page-views.md "SLA")
 * @property {{payload: {opts: QueryOptions}, result: import('./matrix.js').ResultMatrix}} queryMatrix
 *   the query's values as typed arrays (transferred), built in the worker; for results of hundreds
 *   of thousands of rows, whose JSON would block the main thread; with the option "sla", core's
 *   marks of the cells that break its rules (sla, sla_marks)
 * @property {{payload: MatrixAsk, result: MatrixAnswer}} matrixQuery
 *   a per-host question answered from a version 4 file's matrix (core matrix_answer.h): the
 *   answer as queryMatrix's, or the byte ranges to send first, or why the histograms answer instead
 * @property {{payload: {opts: QueryOptions}, result: number}} queryRowsBound  a bound on the query's rows (0: not on fixed quanta); twin.js asks it
 * @property {{payload: {opts: QueryOptions}, result: string}} csv  byte-identical to `latscope pctiles`
 * @property {{payload: {opts: QueryOptions}, result: HeatmapGrid}} heatmap
 * @property {{payload: {opts: QueryOptions, range: [number, number] | null}, result: string}} heatmapCsv
 *   the grid heatmap gives as `latscope heatmap --header-units` writes it, the quanta of range only
 *   with density_by in opts: groups counted by their percentile instead of I/Os
 * @property {{payload: {opts: QueryOptions, quantum: number, row: number}, result: DensityCell}} densityCell
 *   the groups of one cell of that density (quantum and row: indices in its counts)
 * @property {{payload: {opts: QueryOptions}, result: {bytes: Uint8Array}}} encodeResult  the loaded data as a result file (transferred)
 * @property {{payload: {opts: {by?: string, patterns?: {name: string, glob: string}[]}}, result: import('./inthread.js').RunPlan}} assignRuns
 *   puts the loaded sources into runs and sets their "run" label (docs/runs.md)
 * @property {{payload: {accounts: string[], exclude?: string[]}, result: import('./inthread.js').TrustRow[]}} trust
 *   what each loaded file is, its fio version and unit, the account used for its jobs' I/Os
 *   (accounts: [] for the default, ['hist'] or ['per-io'], the query option "accounts"), its I/Os
 *   against fio's json+ count, repairs and warnings (core Engine::trust, docs/folders.md). Asked
 *   after assignRuns, which settles the units of per-I/O logs that do not say theirs.
 * @property {{payload: {view?: {range_ms: number, width_px: number}}, result: number | null}} defaultQuantum
 *   the quantum a load opens at when none was chosen, ms (core Engine::default_quantum_ms:
 *   the longest logging interval, rounded to the nearest preset; docs/page-views.md
 *   "Default quantum"); null when no series has an interval
 * @property {{payload: import('./inthread.js').CompareOptions, result: {text: string, notes: string[]}}} compareRuns
 *   the last assignRuns' two runs as `latscope summary --compare` prints them (fio's exact N, min,
 *   mean, max from the json sources' figures, core model.h FioFigures)
 * @property {{payload: {presets: string, text: string}, result: import('./inthread.js').PercentileList}} parsePercentiles
 *   the page's percentiles as core reads them (percentile_list.h): presets and field, sorted, one per value
 * @property {{payload: {text: string, unit: string}, result: import('./inthread.js').SlaRules}} parseSla
 *   the SLA field as core reads it (sla_field.h)
 * @property {{payload: {text: string, unit: string, opts?: QueryOptions}, result: import('./inthread.js').SlaVerdicts}} judgeSla
 *   the SLA field judged on every row of the percentiles query of opts, per group and summed, with
 *   the sentences the page shows (core sla_field.h)
 * @property {{payload: {}, result: Source[]}} sources
 * @property {{payload: {}, result: null}} reset  drops every source
 * @property {{payload: {}, result: {wasmBytes: number, modelBytes: number}}} memory
 *   the WASM memory (it never shrinks: also the peak) and the model's estimated share of it (budget.js)
 * @property {{payload: {id: number}, result: null}} cancel  the request to cancel; it then replies {ok: false, error: AbortError}
 */

/** @typedef {keyof Requests} RequestName */
/** @template {RequestName} K @typedef {Requests[K]['payload']} PayloadOf */
/** @template {RequestName} K @typedef {Requests[K]['result']} ResultOf */

/**
 * Request names, for callers: Req.QUERY is 'query' (the contract above says
 * its payload and result); every name of the contract, and no other.
 * @satisfies {Record<string, RequestName>}
 */
export const Req = Object.freeze({
  INIT: /** @type {'init'} */ ('init'),
  WARM_UP: /** @type {'warmUp'} */ ('warmUp'),
  PARSE_FILE: /** @type {'parseFile'} */ ('parseFile'),
  IMPORT_SOURCE: /** @type {'importSource'} */ ('importSource'),
  REDUCE_SOURCE: /** @type {'reduceSource'} */ ('reduceSource'),
  ADD_FAILED: /** @type {'addFailed'} */ ('addFailed'),
  QUERY: /** @type {'query'} */ ('query'),
  QUERY_COLUMNS: /** @type {'queryColumns'} */ ('queryColumns'),
  QUERY_MATRIX: /** @type {'queryMatrix'} */ ('queryMatrix'),
  QUERY_ROWS_BOUND: /** @type {'queryRowsBound'} */ ('queryRowsBound'),
  MATRIX_QUERY: /** @type {'matrixQuery'} */ ('matrixQuery'),
  CSV: /** @type {'csv'} */ ('csv'),
  HEATMAP: /** @type {'heatmap'} */ ('heatmap'),
  HEATMAP_CSV: /** @type {'heatmapCsv'} */ ('heatmapCsv'),
  DENSITY_CELL: /** @type {'densityCell'} */ ('densityCell'),
  ENCODE_RESULT: /** @type {'encodeResult'} */ ('encodeResult'),
  ASSIGN_RUNS: /** @type {'assignRuns'} */ ('assignRuns'),
  TRUST: /** @type {'trust'} */ ('trust'),
  DEFAULT_QUANTUM: /** @type {'defaultQuantum'} */ ('defaultQuantum'),
  COMPARE_RUNS: /** @type {'compareRuns'} */ ('compareRuns'),
  PARSE_PERCENTILES: /** @type {'parsePercentiles'} */ ('parsePercentiles'),
  PARSE_SLA: /** @type {'parseSla'} */ ('parseSla'),
  JUDGE_SLA: /** @type {'judgeSla'} */ ('judgeSla'),
  SOURCES: /** @type {'sources'} */ ('sources'),
  RESET: /** @type {'reset'} */ ('reset'),
  MEMORY: /** @type {'memory'} */ ('memory'),
  CANCEL: /** @type {'cancel'} */ ('cancel'),
});

/** Unsolicited message types. */
export const Note = Object.freeze({ PROGRESS: 'progress' });

/**
 * @typedef {object} Progress
 * @property {string} file          file name
 * @property {number} bytesDone     bytes of the file read so far (compressed bytes for .gz)
 * @property {number} bytesTotal    file size in bytes
 * @property {number} bytesPerSec   average since the file started
 * @property {'queued'|'reading'|'done'|'error'|'cancelled'} state
 */

/**
 * @typedef {object} SerializedError
 * @property {string} name      'AbortError', 'EngineError', 'TypeError', ...
 * @property {string} message
 * @property {string} [code]    EngineError: the core ErrorCode name
 */

/** @param {unknown} err @returns {SerializedError} */
export function serializeError(err) {
  if (err && typeof err === 'object' && 'message' in err) {
    const e = /** @type {{name?: string, message: string, code?: unknown}} */ (err);
    /** @type {SerializedError} */
    const out = { name: String(e.name || 'Error'), message: String(e.message) };
    if (typeof e.code === 'string' && e.code) out.code = e.code;
    return out;
  }
  return { name: 'Error', message: String(err) };
}

/**
 * Rebuilds an Error on the receiving side; AbortError stays recognisable
 * (err.name === 'AbortError') as with fetch() and AbortSignal.
 * @param {SerializedError} e
 * @returns {Error}
 */
export function deserializeError(e) {
  if (e.name === 'EngineError') return new EngineError(e.message, e.code);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/** An error the engine reported (bad option, unusable input, ...). */
export class EngineError extends Error {
  /**
   * @param {string} message
   * @param {string} [code] core ErrorCode name, e.g. 'InvalidArgument'
   */
  constructor(message, code = '') {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}


/**
 * The buffers of a result that must be transferred rather than cloned.
 * Each must own its whole buffer (a copy out of the heap), never a heap view.
 * @param {unknown} result
 * @returns {Transferable[]}
 */
export function transferablesOf(result) {
  /** @type {Transferable[]} */
  const list = [];
  if (result && typeof result === 'object') {
    for (const v of Object.values(result)) {
      if (ArrayBuffer.isView(v) && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength) {
        list.push(/** @type {ArrayBuffer} */ (v.buffer));
      }
    }
  }
  return list;
}
