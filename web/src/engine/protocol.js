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

/** Request types and their payloads / results. */
export const Req = Object.freeze({
  /**
   * payload {wasmUrl: string, wasmBinary?: ArrayBuffer, maxMemoryBytes?: number} -> {version: number}.
   * maxMemoryBytes: a ceiling for this worker's WebAssembly memory (wasm-module.js capMemory).
   * wasmBinary: the engine's bytes when the page carries them (the
   * single-file page, docs/page-loading.md); then the worker's own bundled
   * glue is used and nothing is fetched.
   */
  INIT: 'init',
  /**
   * payload none -> null: the engine's code run on made-up logs in a scratch
   * engine, so that the browser optimises it before the user's first
   * queries (warmup.js). Sent after INIT to the workers that answer queries.
   */
  WARM_UP: 'warmUp',
  /**
   * payload {file: Blob, name: string, fileOptions?: object, export?: boolean, sliceBytes?: number}
   * -> {source: Source, bytes?: Uint8Array}. With export, the file is parsed
   * in a scratch engine and its encoded Source is returned (transferred);
   * without, it is added to the worker's engine.
   */
  PARSE_FILE: 'parseFile',
  /**
   * payload {bytes: Uint8Array (transferred), readError?: string, reduced?: Reduced, giveBack?: boolean} -> Source;
   * reduced: the bytes are the file as a result (REDUCE_SOURCE), kept with the source;
   * giveBack: -> {source: Source, bytes: Uint8Array (transferred back)}, for the query twin (twin.js)
   */
  IMPORT_SOURCE: 'importSource',
  /**
   * payload {bytes: Uint8Array (transferred, an encoded Source), name: string, quantum_ms: number}
   * -> {source: Source, bytes: Uint8Array}: the file as a result at quantum_ms
   * (InThreadEngine.reduceEncoded), encoded for IMPORT_SOURCE; the memory budget, docs/page-loading.md §7
   */
  REDUCE_SOURCE: 'reduceSource',
  /** payload {source: Source} -> null: lists a file that failed in another worker's JS */
  ADD_FAILED: 'addFailed',
  /** payload {opts} -> pctiles JSON text (parsed by the caller: cheaper than cloning rows) */
  QUERY: 'query',
  /**
   * payload {opts} -> ResultColumns (columns.js): the query as typed arrays
   * (transferred) and its meta; what the percentiles view and the SLA
   * summary read, for any number of groups.
   */
  QUERY_COLUMNS: 'queryColumns',
  /**
   * payload {opts} -> ResultMatrix (matrix.js): the query's values as typed
   * arrays (transferred), built in the worker; for results of hundreds of
   * thousands of rows, whose JSON would block the main thread.
   */
  QUERY_MATRIX: 'queryMatrix',
  /** payload {opts} -> number: a bound on the query's rows (0: not on fixed quanta); twin.js asks it */
  QUERY_ROWS_BOUND: 'queryRowsBound',
  /** payload {opts} -> CSV string (byte-identical to `latscope pctiles`) */
  CSV: 'csv',
  /** payload {opts} -> {meta..., counts: Float64Array} (counts transferred) */
  HEATMAP: 'heatmap',
  /** payload {opts} -> {bytes: Uint8Array} (transferred): the loaded data as a result file */
  ENCODE_RESULT: 'encodeResult',
  /**
   * payload {opts: {by?, patterns?: [{name, glob}]}} -> {runs: [{name, how, files}], evidence: string[], several: boolean}:
   * puts the loaded sources into runs and sets their "run" label (docs/runs.md)
   */
  ASSIGN_RUNS: 'assignRuns',
  /**
   * payload {accounts: string[]} -> TrustRow[] (inthread.js): what each loaded
   * file is, its fio version and unit, the account used for its jobs' I/Os
   * (accounts: [] for the default, ['hist'] or ['per-io'], the query option
   * "accounts"), its I/Os against fio's json+ count, repairs and warnings
   * (core Engine::trust, docs/folders.md). Asked after ASSIGN_RUNS, which
   * settles the units of per-I/O logs that do not say theirs.
   */
  TRUST: 'trust',
  /**
   * payload {percentiles: string, unit: string, format?: 'csv'|'json', accounts?: string[]}
   * -> {text: string, notes: string[]}: the last ASSIGN_RUNS' two runs as
   * `latscope summary --compare` prints them (fio's exact N, min, mean, max
   * from the json sources' figures, core model.h FioFigures)
   */
  COMPARE_RUNS: 'compareRuns',
  /** payload {text, unit} -> {rules}: the SLA field as core reads it (sla_field.h) */
  PARSE_SLA: 'parseSla',
  /** payload {text, unit, opts} -> {verdicts}: the SLA field judged on the percentiles query of opts */
  JUDGE_SLA: 'judgeSla',
  /** payload {} -> Source[] */
  SOURCES: 'sources',
  /** payload {} -> null: drops every source */
  RESET: 'reset',
  /**
   * payload {} -> {wasmBytes: number, modelBytes: number}: the WASM memory (it never
   * shrinks: also the peak) and the model's estimated share of it (budget.js)
   */
  MEMORY: 'memory',
  /** payload {id: number} (request to cancel) -> null */
  CANCEL: 'cancel',
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

/** @returns {Error} the error a cancelled operation rejects with */
export function abortError() {
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
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
