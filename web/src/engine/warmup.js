// A worker's first queries, run on made-up logs before the user's: so that
// the engine's code is optimised before the user waits on it.
//
// Chromium compiles WebAssembly twice: at once with a fast baseline
// compiler (Liftoff), then function by function with the optimising one
// (TurboFan), but only for functions that have run enough ("dynamic
// tiering"). A function that has not is baseline code, about half as fast,
// and a loop inside one call never changes tier while it runs. So the first
// query of each kind (the first switch to the groups view, the heat map)
// ran mostly as baseline code: the groups view at 10 s with 200 hosts took
// 0.51-0.55 s, against 0.32 s with every function optimised from the start
// (Chromium's --no-wasm-dynamic-tiering, which the page cannot set).
// docs/page-speed.md "Warming the engine".

/** Hosts and seconds of the made-up logs: a few thousand rows per query. */
const HOSTS = 8;
const SECONDS = 600;
/** fio 3's histogram bins, written with log_hist_coarseness=4 (116 a line). */
const BINS = 1856 >> 4;

/**
 * Made-up fio histogram logs, as fio's client mode names them (one per
 * host): each second a read and a write window of 64 I/Os each, spread
 * over a few bins around a host's own median. Deterministic.
 * @returns {{file: Blob, name: string}[]}
 */
export function warmupItems() {
  /** @type {{file: Blob, name: string}[]} */
  const out = [];
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216;
  for (let h = 0; h < HOSTS; h++) {
    const lines = [];
    const counts = new Array(BINS).fill(0);
    for (let s = 1; s <= SECONDS; s++) {
      const t = s * 1000 + Math.floor(rnd() * 3);
      for (const dir of [0, 1]) {
        counts.fill(0);
        const mid = 40 + h + dir * 3 + Math.floor(rnd() * 4);
        for (let k = 0; k < 64; k++) counts[Math.min(BINS - 1, mid + Math.floor(rnd() * rnd() * 24))]++;
        lines.push(`${t}, ${dir}, 4096, ${counts.join(', ')}\n`);
      }
    }
    out.push({ file: new Blob([lines.join('')]), name: `warm_clat_hist.1.log.w${h}` });
  }
  return out;
}

/**
 * Loads the made-up logs into a scratch engine and asks what the page asks
 * (percentiles as columns per host with bands and for the cluster, the
 * groups view's matrix and ranking, the spectrum's one-quantum query, the
 * heat map), then drops it. The scratch engine shares the module, so its
 * code, not its data, is what stays.
 * @param {{new (module: any): import('./inthread.js').InThreadEngine}} Engine  InThreadEngine
 * @param {any} module the loaded Emscripten module
 */
export async function warmUp(Engine, module) {
  const e = new Engine(module);
  try {
    await e.loadFiles(warmupItems());
    const whole = { quantum_ms: SECONDS * 1000, from_ms: 0, to_ms: SECONDS * 1000 };
    for (const q of [1000, 10000]) {
      e.queryColumns({ quantum_ms: q, group_by: 'host' });
      e.queryColumns({ quantum_ms: q, group_by: 'all', bands: false });
      e.queryMatrix({ quantum_ms: q, group_by: 'host', percentiles: ['99'] });
      e.heatmap({ quantum_ms: q });
    }
    e.queryText({ ...whole, group_by: 'host', percentiles: ['99'], bands: false });
    e.queryText({ ...whole, percentiles: Array.from({ length: 80 }, (_, i) => String(100 - 100 / (1 + i))), bands: false });
  } finally {
    e.terminate();
  }
}
