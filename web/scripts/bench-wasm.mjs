#!/usr/bin/env node
// WebAssembly engine throughput under Node (docs/benchmarks.md).
//
//   node web/scripts/bench-wasm.mjs [DIR_OR_FILE...] [--chunk MiB] [--workers N]
//                                   [--only engine,inthread,workers] [--quantum MS]
//                                   [--passes N]
//
// Without arguments it uses (and if needed generates) the lead's benchmark
// set: tests/bench/make_bench_data.py --out bench-data --files 8 --seconds 3600
// (real fio records replayed; see that script).
//
// Three figures, MB = 10^6 bytes of log text:
//   1. engine: one WASM Engine, files read from disk into 16 MiB chunks and
//      fed with append(); only the append/finish calls are timed, like the
//      native tests/bench/bench.cc, so it is the parser's rate per core.
//      Target >= 200 MB/s per worker. --passes N parses the set N times, each
//      into a fresh Engine of the same module: pass 1 is a worker's first
//      load (V8 still tiering the code up, WASM memory touched for the
//      first time), later passes a worker that has loaded before.
//      --per-file parses each file into its own Engine, encodes it
//      (exportSource, timed apart) and deletes it, as a page's parse worker
//      does (inthread.js parseFile): the worker's memory is then reused from
//      file to file instead of growing with the set. No queries then.
//   2. loadFiles in-thread: the page's path without workers — Blob slices,
//      scratch engine, encode, import into the primary engine — wall time.
//   3. loadFiles with N worker_threads (default 2): the pool the page uses.
// Peak WASM memory is the size of the module's memory after each run (it
// never shrinks). Query time (default options, and grouped by host) is shown
// for the primary engine.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { nodeWasmSource } from '../src/engine/node.js';
import { loadWasmModule } from '../src/engine/wasm-module.js';
import { InThreadEngine } from '../src/engine/inthread.js';
import { createEngine } from '../src/engine/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
let chunkMiB = 16;
let workers = 2;
let quantum = 1000; // of the timed queries
let passes = 1; // of the engine figure
let perFile = false; // of the engine figure
/** @type {Set<string>} */
let only = new Set(['engine', 'inthread', 'workers']);
const inputs = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--chunk') chunkMiB = Number(args[++i]);
  else if (args[i] === '--workers') workers = Number(args[++i]);
  else if (args[i] === '--only') only = new Set(args[++i].split(','));
  else if (args[i] === '--quantum') quantum = Number(args[++i]);
  else if (args[i] === '--passes') passes = Math.max(1, Number(args[++i]));
  else if (args[i] === '--per-file') perFile = true;
  else inputs.push(args[i]);
}
if (inputs.length === 0) {
  const out = execFileSync(
    'python3',
    [path.join(ROOT, 'tests/bench/make_bench_data.py'), '--out', path.join(ROOT, 'bench-data'), '--files', '8', '--seconds', '3600'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  inputs.push(out.trim().split('\n').at(-1) ?? '');
}
const files = inputs.flatMap((p) =>
  fs.statSync(p).isDirectory()
    ? fs
        .readdirSync(p)
        .filter((n) => !n.startsWith('.'))
        .sort()
        .map((n) => path.join(p, n))
    : [p],
);
const totalBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
const MB = (/** @type {number} */ b) => (b / 1e6).toFixed(1);
const MiB = (/** @type {number} */ b) => (b / 1048576).toFixed(1);
console.log(`bench-wasm: ${files.length} files, ${MB(totalBytes)} MB of log text, chunks of ${chunkMiB} MiB`);

const wasm = nodeWasmSource();

// 1. The engine alone.
if (only.has('engine')) {
  const M = await loadWasmModule(wasm);
  const chunk = Buffer.allocUnsafe(chunkMiB * 1048576);
  for (let pass = 1; pass <= passes; ++pass) {
    let engine = new M.Engine();
    let engineMs = 0;
    let exportMs = 0;
    let engineCpuUs = 0;
    const cpu0 = process.cpuUsage();
    const timed = (/** @type {() => any} */ fn) => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const r = fn();
      const c = process.cpuUsage(c0);
      engineCpuUs += c.user + c.system;
      engineMs += performance.now() - t0;
      return r;
    };
    for (const f of files) {
      const fd = fs.openSync(f, 'r');
      const h = timed(() => engine.openFile(path.basename(f), '{}'));
      for (;;) {
        const n = fs.readSync(fd, chunk, 0, chunk.length, null);
        if (n === 0) break;
        const view = new Uint8Array(chunk.buffer, chunk.byteOffset, n);
        timed(() => engine.append(h, view));
      }
      fs.closeSync(fd);
      const src = JSON.parse(timed(() => engine.finish(h)));
      if (!src.status.ok) console.log(`  ${src.name}: ${src.status.message}`);
      if (perFile) {
        const t0 = performance.now();
        engine.exportSource(h);
        exportMs += performance.now() - t0;
        engine.delete();
        engine = new M.Engine();
      }
    }
    const cpu = process.cpuUsage(cpu0);
    const rate =
      `${(totalBytes / 1e3 / engineMs).toFixed(0)} MB/s wall, ` +
      `${(totalBytes / engineCpuUs).toFixed(0)} MB/s CPU ` +
      `(${(engineMs / 1000).toFixed(2)} s wall, ${(engineCpuUs / 1e6).toFixed(2)} s CPU in append/finish; ` +
      `process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s incl. reads)` +
      (perFile ? `; a scratch Engine per file, exportSource ${(exportMs / 1000).toFixed(2)} s more, WASM memory ${MiB(M.HEAPU8.length)} MiB` : '');
    if (pass < passes || perFile) {
      console.log(`engine (1 thread)${passes > 1 ? `, pass ${pass}` : ''}: ${rate}`);
      engine.delete();
      continue;
    }
    // The query as JSON text and its parse (what engine.query() costs), and
    // as columns (what the page's worker posts on a regroup).
    let t = performance.now();
    engine.query(JSON.stringify({ quantum_ms: quantum }));
    const qAll = performance.now() - t;
    t = performance.now();
    const byHost = engine.query(JSON.stringify({ quantum_ms: quantum, group_by: 'host' }));
    const qHost = performance.now() - t;
    t = performance.now();
    JSON.parse(byHost);
    const parseHost = performance.now() - t;
    // What the page's worker does since it posts columns (engine/columns.js).
    t = performance.now();
    const cols = engine.queryColumns(JSON.stringify({ quantum_ms: quantum, group_by: 'host' }));
    const qCols = performance.now() - t;
    // Without error bands: what the page asks when it does not draw them (an hour at 1 s).
    t = performance.now();
    engine.queryColumns(JSON.stringify({ quantum_ms: quantum, group_by: 'host', bands: false }));
    const qBare = performance.now() - t;
    console.log(
      `engine (1 thread)${passes > 1 ? `, pass ${pass}` : ''}: ${rate} ` +
        `peak WASM memory ${MiB(M.HEAPU8.length)} MiB; ${quantum} ms quanta: query ${qAll.toFixed(0)} ms, by host ${qHost.toFixed(0)} ms (${MB(byHost.length)} MB of JSON, parsed in ${parseHost.toFixed(0)} ms); by host as columns ${qCols.toFixed(0)} ms (${cols.t_ms.length} rows), without bands ${qBare.toFixed(0)} ms`,
    );
    engine.delete();
  }
}

/** Blobs for loadFiles (in memory: Node's disk blobs cannot cross worker_threads). */
const items = only.has('inthread') || only.has('workers') ? files.map((f) => ({ file: new Blob([fs.readFileSync(f)]), name: path.basename(f) })) : [];

// 2. loadFiles in this thread.
if (only.has('inthread')) {
  const e = new InThreadEngine(await loadWasmModule(wasm));
  const t = performance.now();
  await e.loadFiles(items, { sliceBytes: chunkMiB * 1048576 });
  const ms = performance.now() - t;
  console.log(
    `loadFiles in-thread: ${(totalBytes / 1e3 / ms).toFixed(0)} MB/s (${(ms / 1000).toFixed(2)} s), peak WASM memory ${MiB(e.wasmBytes())} MiB`,
  );
  e.terminate();
}

// 3. loadFiles with a pool of worker_threads.
if (only.has('workers')) {
  const spawn = () => {
    const w = new Worker(new URL('../src/engine/node-worker.js', import.meta.url));
    return {
      postMessage: (/** @type {any} */ m, /** @type {any[]} */ tr) => w.postMessage(m, tr),
      addEventListener: (/** @type {string} */ type, /** @type {(ev: any) => void} */ fn) => {
        if (type === 'message') w.on('message', (data) => fn({ data }));
        else if (type === 'error') w.on('error', (err) => fn({ message: err.message }));
      },
      terminate: () => void w.terminate(),
    };
  };
  const e = await createEngine({ mode: 'worker', workers, wasm, spawn });
  const t = performance.now();
  await e.loadFiles(items, { sliceBytes: chunkMiB * 1048576 });
  const ms = performance.now() - t;
  const q0 = performance.now();
  await e.query({});
  const qms = performance.now() - q0;
  const mem = await e.memory();
  console.log(
    `loadFiles ${workers} workers: ${(totalBytes / 1e3 / ms).toFixed(0)} MB/s (${(ms / 1000).toFixed(2)} s), ` +
      `primary engine WASM memory ${MiB(mem.wasmBytes)} MiB, first query ${qms.toFixed(0)} ms`,
  );
  e.terminate();
}
