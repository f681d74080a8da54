// Worker side of the protocol (protocol.js): answers requests with an
// InThreadEngine. Shared by the Web Worker entry (worker.js) and the Node
// worker_threads entry used by the unit tests (node-worker.js).

import { InThreadEngine } from './inthread.js';
import { warmUp } from './warmup.js';
import { Note, Req, serializeError, transferablesOf } from './protocol.js';
import { abortError } from '../util/abort.js';

/**
 * @typedef {object} Port
 * @property {(msg: any, transfer?: Transferable[]) => void} postMessage
 * @property {(type: 'message', fn: (ev: {data: any}) => void) => void} addEventListener
 */

/**
 * @param {Port} port
 * @param {(init: {wasmUrl: string, wasmBinary?: ArrayBuffer, maxMemoryBytes?: number}) => Promise<any>} loadModule  loads the Emscripten module
 */
export function serveEngine(port, loadModule) {
  /** @type {InThreadEngine | null} */
  let engine = null;
  /** Running cancellable requests. @type {Map<number, AbortController>} */
  const running = new Map();

  const need = () => {
    if (!engine) throw new Error('engine not initialised: send init first');
    return engine;
  };

  /**
   * One handler per request of the contract (protocol.js Requests), typed by it.
   * @type {{[K in import('./protocol.js').RequestName]: (payload: import('./protocol.js').PayloadOf<K>, id: number) => import('./protocol.js').ResultOf<K> | Promise<import('./protocol.js').ResultOf<K>>}}
   */
  const handlers = {
    async [Req.INIT](p) {
      if (!engine) engine = new InThreadEngine(await loadModule(p));
      return { version: 1 };
    },
    // Made-up logs queried in a scratch engine (warmup.js); the engine's data is untouched.
    [Req.WARM_UP]: () => warmUp(InThreadEngine, need().M),
    async [Req.PARSE_FILE](p, id) {
      const ctl = new AbortController();
      running.set(id, ctl);
      try {
        const item = { file: p.file, name: p.name };
        const r = await need().parseFile(item, {
          fileOptions: p.fileOptions,
          sliceBytes: p.sliceBytes,
          export: p.export,
          signal: ctl.signal,
          onProgress: (prog) => port.postMessage({ type: Note.PROGRESS, id, ...prog }),
        });
        return r;
      } finally {
        running.delete(id);
      }
    },
    [Req.IMPORT_SOURCE]: (p) => {
      const source = need().importSource(p.bytes, p.readError, p.reduced);
      // giveBack: the bytes return (transferred) for the query twin, uncopied.
      return p.giveBack ? { source, bytes: p.bytes } : source;
    },
    [Req.REDUCE_SOURCE]: (p) => need().reduceEncoded(p.bytes, p.name, p.quantum_ms),
    [Req.ADD_FAILED]: (p) => {
      need().addFailed(p.source);
      return null;
    },
    [Req.QUERY]: (p) => need().queryText(p.opts),
    [Req.QUERY_COLUMNS]: (p) => need().queryColumns(p.opts),
    [Req.QUERY_MATRIX]: (p) => need().queryMatrix(p.opts),
    [Req.QUERY_ROWS_BOUND]: (p) => need().queryRowsBound(p.opts),
    [Req.MATRIX_QUERY]: (p) => need().matrixQuery(p),
    [Req.CSV]: (p) => need().csv(p.opts),
    [Req.HEATMAP]: (p) => need().heatmap(p.opts),
    [Req.HEATMAP_CSV]: (p) => need().heatmapCsv(p.opts, p.range),
    [Req.DENSITY_CELL]: (p) => need().densityCell(p.opts, p.quantum, p.row),
    [Req.ENCODE_RESULT]: (p) => need().encodeResult(p.opts),
    [Req.ASSIGN_RUNS]: (p) => need().assignRuns(p.opts),
    [Req.TRUST]: (p) => need().trust(p.accounts, p.exclude),
    [Req.DEFAULT_QUANTUM]: (p) => need().defaultQuantum(p.view),
    [Req.COMPARE_RUNS]: (p) => need().compareRuns(p),
    [Req.PARSE_PERCENTILES]: (p) => need().parsePercentiles(p),
    [Req.PARSE_SLA]: (p) => need().parseSla(p),
    [Req.JUDGE_SLA]: (p) => need().judgeSla(p),
    [Req.SOURCES]: () => need().sources(),
    [Req.RESET]: () => {
      need().reset();
      return null;
    },
    [Req.MEMORY]: () => need().memory(),
    [Req.CANCEL]: (p) => {
      running.get(p.id)?.abort(abortError());
      return null;
    },
  };

  port.addEventListener('message', async (ev) => {
    const { id, type, payload } = ev.data ?? {};
    if (typeof id !== 'number') return;
    try {
      // Only the contract's own names (not what an object inherits, e.g. toString).
      const h = Object.hasOwn(handlers, type) ? /** @type {(p: unknown, id: number) => unknown} */ (handlers[/** @type {import('./protocol.js').RequestName} */ (type)]) : undefined;
      if (!h) throw new TypeError(`unknown request type ${JSON.stringify(type)}`);
      const result = await h(payload ?? {}, id);
      port.postMessage({ id, ok: true, result }, transferablesOf(result));
    } catch (e) {
      port.postMessage({ id, ok: false, error: serializeError(e) });
    }
  });
}
