// The engine API the views use. One interface, two implementations
//:
//
//   const engine = await createEngine({ mode: 'worker' })   // the page: Web Workers
//   const engine = await createEngine({ mode: 'inthread' }) // tests, benchmarks
//
//   await engine.loadFiles(files, { onProgress, signal })  -> Source[] (one per file)
//   await engine.query(opts)    -> pctiles JSON (report.h pctiles_json)
//   await engine.csv(opts)      -> CSV string, byte-identical to `latscope pctiles`
//   await engine.heatmap(opts)  -> {t0_ms, quantum_ms, quanta, rows, edges_ns, ..., counts: Float64Array}
//   await engine.heatmapCsv(opts, range) -> that grid as `latscope heatmap --header-units` CSV
//   await engine.queryColumns(opts) -> the same query as columns of typed arrays (columns.js)
//   await engine.queryMatrix(opts) -> the query's values as typed arrays (matrix.js)
//   await engine.encodeResult(opts) -> {bytes: Uint8Array}: the loaded data as a result file
//                                  (`latscope reduce`; opts.group_by = the labels kept)
//   await engine.assignRuns(opts) -> {runs, evidence, several}: sets each source's run label (docs/runs.md)
//   await engine.trust(accounts, exclude) -> TrustRow[]: each file's fio version, unit, account, I/Os
//                                  against fio's count, repairs, warnings (core Engine::trust)
//   await engine.defaultQuantum() -> ms or null: the quantum a load opens at when none was
//                                  chosen (core Engine::default_quantum_ms)
//   await engine.defaultQuantum({range_ms, width_px}) -> ms: the quantum a chart that wide
//                                  follows the zoom at over that visible range (core zoom_quantum_ms)
//   await engine.compareRuns(opts) -> {text, notes}: `latscope summary --compare` of the two runs
//   await engine.parsePercentiles({presets, text}) -> {percentiles, values}: the percentile
//     field and a link's p= as core reads them (percentile_list.h), sorted, one per value
//   await engine.parseSla({text, unit}) -> {rules}: the SLA field as core reads it (sla_field.h)
//   await engine.judgeSla({text, unit, opts}) -> {verdicts}: the SLA field judged by core on
//                                  the percentiles query of opts, per group, with the page's sentences
//   await engine.sources()      -> Source[]
//   await engine.reset()        -> drop every source
//   await engine.memory()       -> {wasmBytes}
//   engine.terminate()
//
// opts use options_json's names: quantum_ms, percentiles, group_by,
// directions, method, unit, offsets, exclude_sources, exclude_hosts, from_ms,
// to_ms (heat map: rows, min_ns, max_ns). Omitted options take the CLI's
// defaults, so csv({}) after a load equals `latscope pctiles FILE...`.
//
// Errors: loadFiles rejects with err.name === 'AbortError' when its signal
// aborts (files finished before that stay loaded); a bad option rejects with
// an EngineError (err.name === 'EngineError', err.message from the core). A
// file the engine cannot use does not reject: its Source has status.ok false
// and status.message says why.

import { InThreadEngine } from './inthread.js';
import { WorkerEngine } from './worker-engine.js';
import { defaultWasmUrl, loadWasmModule } from './wasm-module.js';

export { EngineError } from './protocol.js';

/**
 * @typedef {object} Engine
 * @property {(files: Iterable<File | Blob | import('../load/files.js').LoadItem>, opts?: import('./inthread.js').LoadOptions) => Promise<import('./inthread.js').Source[]>} loadFiles
 * @property {(opts?: object) => Promise<any>} query
 * @property {(opts?: object) => Promise<string>} csv
 * @property {(opts?: object) => Promise<any>} heatmap
 * @property {(opts: object, range?: [number, number] | null) => Promise<string>} heatmapCsv
 * @property {(opts: object, quantum: number, row: number) => Promise<import('./protocol.js').DensityCell>} densityCell
 * @property {(opts?: object) => Promise<import('./columns.js').ResultColumns>} queryColumns
 * @property {(opts?: object) => Promise<import('./matrix.js').ResultMatrix>} queryMatrix
 * @property {(ask: import('./protocol.js').MatrixAsk) => Promise<import('./protocol.js').MatrixAnswer>} matrixQuery
 * @property {(opts?: object) => Promise<{bytes: Uint8Array}>} encodeResult
 * @property {(opts?: object) => Promise<import('./inthread.js').RunPlan>} assignRuns
 * @property {(accounts?: string[], exclude?: string[]) => Promise<import('./inthread.js').TrustRow[]>} trust
 * @property {(view?: {range_ms: number, width_px: number}) => Promise<number | null>} defaultQuantum
 * @property {(opts: import('./inthread.js').CompareOptions) => Promise<{text: string, notes: string[]}>} compareRuns
 * @property {(o: {presets: string, text: string}) => Promise<{percentiles: string[], values: number[]}>} parsePercentiles
 * @property {(o: {text: string, unit: string}) => Promise<{rules: any[]}>} parseSla
 * @property {(o: {text: string, unit: string, opts?: object}) => Promise<{verdicts: any[]}>} judgeSla
 * @property {() => Promise<import('./inthread.js').Source[]>} sources
 * @property {() => Promise<void>} reset
 * @property {() => Promise<{wasmBytes: number, modelBytes: number}>} memory
 * @property {() => void} terminate
 */

/**
 * @typedef {object} CreateOptions
 * @property {'worker' | 'inthread'} [mode]  default 'worker'
 * @property {number} [workers]  worker mode: parallel parse workers (default hardware threads, max 8)
 * @property {import('./wasm-module.js').WasmSource} [wasm]  where the module is (default: page's wasm/)
 * @property {() => import('./proxy.js').Endpoint} [spawn]  worker mode: how to start a worker
 * @property {ArrayBuffer} [wasmBinary]  worker mode: the .wasm bytes, sent to each worker (single-file page)
 * @property {number} [helperMemoryBytes]  worker mode: a ceiling for each parse worker's WebAssembly memory
 */

/**
 * @param {CreateOptions} [opts]
 * @returns {Promise<Engine>}
 */
export async function createEngine(opts = {}) {
  const wasm = opts.wasm ?? { url: defaultWasmUrl() };
  if ((opts.mode ?? 'worker') === 'inthread') {
    return asyncFacade(new InThreadEngine(await loadWasmModule(wasm)));
  }
  return WorkerEngine.create({ wasmUrl: wasm.url, workers: opts.workers, spawn: opts.spawn, wasmBinary: opts.wasmBinary, helperMemoryBytes: opts.helperMemoryBytes });
}

/**
 * The in-thread engine answers synchronously; the facade makes every method
 * return a promise so callers cannot tell the implementations apart.
 * @param {InThreadEngine} e
 * @returns {Engine}
 */
function asyncFacade(e) {
  let loading = Promise.resolve();
  return {
    loadFiles(files, o) {
      const run = loading.then(() => e.loadFiles(files, o));
      loading = run.then(
        () => {},
        () => {},
      );
      return run;
    },
    query: async (o) => e.query(o),
    csv: async (o) => e.csv(o),
    heatmap: async (o) => e.heatmap(o),
    heatmapCsv: async (o, r) => e.heatmapCsv(o, r),
    densityCell: async (o, q, r) => e.densityCell(o, q, r),
    queryColumns: async (o) => e.queryColumns(o),
    queryMatrix: async (o) => e.queryMatrix(o),
    matrixQuery: async (a) => e.matrixQuery(a),
    encodeResult: async (o) => e.encodeResult(o),
    assignRuns: async (o) => {
      await loading;
      return e.assignRuns(o);
    },
    trust: async (a, x) => {
      await loading;
      return e.trust(a, x);
    },
    defaultQuantum: async (v) => {
      await loading;
      return e.defaultQuantum(v);
    },
    compareRuns: async (o) => e.compareRuns(o),
    parsePercentiles: async (o) => e.parsePercentiles(o),
    parseSla: async (o) => e.parseSla(o),
    judgeSla: async (o) => {
      await loading;
      return e.judgeSla(o);
    },
    sources: async () => e.sources(),
    reset: async () => {
      await loading;
      e.reset();
    },
    memory: async () => e.memory(),
    terminate: () => e.terminate(),
  };
}
