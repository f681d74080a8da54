#!/usr/bin/env node
// The page's side of the scale benchmark (tests/bench/scale_bench.sh): one
// result file (a merged .lsr, or ClickHouse's answer as a long table) given to
// the page's engine in real Chromium through an <input type=file>, as the page
// opens it, with the page's own engine (web/src/engine, Web Workers) and WASM.
//
//   node tests/bench/scale_page.mjs [--wasm DIR] [--workers N] FILE...
//   node tests/bench/scale_page.mjs --hosts [--wasm DIR] [--workers N] FILE...
//
// Each FILE is opened on its own. Prints one line per file:
//   PAGE <name> <bytes> <load_s> <first_s> <host_s> <quantum_s> <wasm_MiB>
// load_s: loadFiles() until the file is in; first_s: until the first answer
// (pctiles with the CLI's defaults: all hosts together, 1 s quanta); host_s:
// regrouping by host (the group view's question); quantum_s: the same with a
// 10 s quantum. wasm_MiB: the primary engine's WASM memory afterwards.
// With --hosts, each FILE is opened as the page opens a result with several
// levels (level-view.js: the level the whole time wants, read by range) and,
// when it has a per-host matrix, the groups view by host from it
// (host-matrix.js) and a drill into the middle host (its 1 s histograms of
// 10 minutes, read by range, the other hosts excluded). One line per file:
//   HOSTS <name> <bytes> <load_s> <first_s> <groups_s> <drill_s> <read_MiB> <wasm_MiB>
// load_s: levels' indexes and the first level read and loaded; first_s:
// until the first cluster-wide answer; groups_s: the groups view by host,
// what the page reads for it (level-view.js needsHosts: nothing more when
// the matrix answers it beside the level summed over hosts, else the level
// as kept that the whole time wants, read and loaded) and p99 per host from
// the matrix at the level core picks for 1000 pixel columns; drill_s: the
// slice read, loaded and answered for one host; read_MiB: bytes read of the
// file (the open, the groups view, the drill).
// DIR (default web/public/wasm) holds latscope.mjs/.wasm (web/scripts/build-wasm.sh).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = path.join(ROOT, 'web');
const args = process.argv.slice(2);
let wasmDir = path.join(WEB, 'public/wasm');
let workers = 2;
let hosts = false;
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--wasm') wasmDir = path.resolve(args[++i]);
  else if (args[i] === '--hosts') hosts = true;
  else if (args[i] === '--workers') workers = Number(args[++i]);
  else files.push(path.resolve(args[i]));
}
if (files.length === 0 || !fs.existsSync(path.join(wasmDir, 'latscope.wasm'))) {
  console.error('usage: scale_page.mjs [--wasm DIR] [--workers N] FILE...  (DIR must hold latscope.wasm: web/scripts/build-wasm.sh)');
  process.exit(2);
}

// A static server: /src/* from web/src, /wasm/* from DIR, /node_modules/*.
// The engine imports the bare name 'fflate' (Vite resolves it for the page);
// served modules get it rewritten to fflate's browser build, which also
// reaches the Web Workers (import maps do not).
const FFLATE = "'/node_modules/fflate/esm/browser.js'";
const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/__d3.js') {
    // The page's number formatting (util/format.js, reached through load/read.js) imports d3 by its bare name: its UMD build sets globalThis.d3.
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end("import '/node_modules/d3/dist/d3.min.js'; export const { format, utcFormat } = globalThis.d3;");
    return;
  }
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset=utf-8><input type=file id=f>');
    return;
  }
  const p = decodeURIComponent(url.pathname);
  const base = p.startsWith('/wasm/') ? wasmDir : p.startsWith('/node_modules/') ? ROOT : WEB;
  const file = path.join(base, p.startsWith('/wasm/') ? p.slice('/wasm/'.length) : p);
  if (!file.startsWith(base) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': MIME[/** @type {keyof MIME} */ (path.extname(file))] ?? 'application/octet-stream' });
  if (file.endsWith('.js')) res.end(fs.readFileSync(file, 'utf8').replace(/from 'fflate'/g, `from ${FFLATE}`).replace(/from 'd3'/g, "from '/__d3.js'"));
  else fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-scale-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let failed = false;

/** In the page: the --hosts run (see the head). @param {number} workers */
async function hostsRun(workers) {
  const { createEngine } = await import('/src/engine/index.js');
  const { HostMatrix } = await import('/src/app/host-matrix.js');
  const { blobSource, readLevels, readLevelIndex, chooseLevel, sliceLevel } = await import('/src/load/levels.js');
  const engine = await createEngine({ mode: 'worker', workers, wasm: { url: new URL('/wasm/latscope.mjs', location.href).href } });
  const input = /** @type {HTMLInputElement} */ (document.getElementById('f'));
  const file = /** @type {File} */ ((input.files ?? [])[0]);
  const budget = 4 * 512 * 1048576;
  const t0 = performance.now();
  const src = blobSource(file, file.name);
  // What level-view.js does (it imports the page's formatting, which needs d3): the levels' indexes, the level and blocks the range wants.
  const dir = await readLevels(src);
  if (!dir) throw new Error('not a result with several levels');
  const every = await Promise.all(dir.map((lv) => readLevelIndex(src, lv)));
  // The levels as kept, and in their place the levels summed over hosts for a state that needs no host (level-view.js pickFor).
  const levels = every.filter((ix) => !ix.level.summed);
  const open = levels.map((l) => every.find((x) => x.level.summed && x.level.quantum_ms === l.level.quantum_ms) ?? l);
  const top = levels[levels.length - 1];
  const extent = [top.blocks[0].first * top.level.quantum_ms, (top.blocks[top.blocks.length - 1].last + 1) * top.level.quantum_ms];
  const choose = (/** @type {number[]} */ r, /** @type {string[]} */ excludeHosts = [], from = levels) => ({ ...(/** @type {any} */ (chooseLevel(from, { from: r[0], to: r[1], maxQuanta: 2000, maxCells: budget / 512, maxBytes: budget, excludeHosts }))), from });
  const read = async (/** @type {any} */ p) => ({ name: file.name, file: new Blob([await sliceLevel(src, p.from[p.li], p.a, p.b, p.chunks)]) });
  const pick = choose(extent, [], open);
  await engine.loadFiles([await read(pick)]);
  const q = levels[pick.li].level.quantum_ms;
  const tLoad = performance.now();
  await engine.query({ quantum_ms: q });
  const tFirst = performance.now();
  let groups = -1;
  let drill = -1;
  let note = `level ${q} ms${open[pick.li].level.summed ? ' summed over hosts' : ''}`;
  /** @type {string[]} */
  let names = [];
  const hm = await HostMatrix.open(src);
  if (hm) {
    // The groups view by host as the page shows it (heat map, in name order): whether the
    // state needs the hosts' own histograms, and if so the level as kept the whole time wants.
    const { needsHosts } = await import('/src/app/level-view.js');
    const fG = src.fetched;
    let kept = !open[pick.li].level.summed;
    if (open[pick.li].level.summed && needsHosts({ group_by: 'host', view: 'groups', groupsMode: 'heat', groupsSort: 'name', sla: [], exclude_hosts: [], offsets: {} }, hm)) {
      const kp = choose(extent);
      await engine.reset();
      await engine.loadFiles([await read(kp)]);
      kept = true;
      note += `; groups by host read the ${levels[kp.li].level.quantum_ms} ms level as kept (${((src.fetched - fG) / 1048576).toFixed(1)} MiB)`;
    } else note += '; groups by host read no level as kept';
    const a = /** @type {any} */ (await hm.answer(/** @type {any} */ (engine), { quantum_ms: q, group_by: 'host', percentiles: ['99'] }, 1000, false));
    if (!a) throw new Error(`the matrix did not answer: ${hm.why}`);
    groups = (performance.now() - tFirst) / 1000;
    // Asked again (another percentile): the head and index are held, only blocks are read.
    const tA = performance.now();
    await hm.answer(/** @type {any} */ (engine), { quantum_ms: q, group_by: 'host', percentiles: ['99.9'] }, 1000, false);
    note += `; again for p99.9: ${((performance.now() - tA) / 1000).toFixed(2)} s`;
    // The same question folded from the hosts' histograms, as without the matrix (when the engine holds them).
    if (kept) {
      const tH = performance.now();
      await engine.queryMatrix({ quantum_ms: q, group_by: 'host', percentiles: ['99'] });
      note += `; groups from the histograms instead: ${((performance.now() - tH) / 1000).toFixed(2)} s`;
    }
    names = a.groups.map((/** @type {string} */ g) => g.replace(/^host=/, ''));
    note += `; groups: ${a.groups.length} hosts x ${a.times.length} quanta of ${a.quantum_ms} ms from the matrix`;
  }
  // The zoom (a cluster file) or the drill (a file with hosts): 10 minutes in the middle of the time at the finest level the range wants, into a fresh engine.
  const host = names.length ? names[names.length >> 1] : '';
  const mid = (extent[0] + extent[1]) / 2;
  const range = /** @type {[number, number]} */ ([mid - 300000, mid + 300000]);
  // The drill leaves the other hosts out: a level cut by host gives only that host's blocks (level-view.js).
  const excluded = host ? names.filter((n) => n !== host) : [];
  const dp = choose(range, excluded);
  if (hm) {
    // The groups view of that zoom at 1 s: from the matrix (its 1 s blocks of the range) ...
    const tZ = performance.now();
    const z = /** @type {any} */ (await hm.answer(/** @type {any} */ (engine), { quantum_ms: 1000, group_by: 'host', percentiles: ['99'], from_ms: range[0], to_ms: range[1] }, 1000, true));
    note += `; groups of the 10 min zoom at 1 s from the matrix: ${((performance.now() - tZ) / 1000).toFixed(2)} s (${z?.groups.length} x ${z?.times.length})`;
  }
  const slice = await createEngine({ mode: 'worker', workers, wasm: { url: new URL('/wasm/latscope.mjs', location.href).href } });
  const fD = src.fetched;
  const tD = performance.now();
  await slice.loadFiles([await read(dp)]);
  const tDL = performance.now();
  const dq = levels[dp.li].level.quantum_ms;
  const rows = /** @type {any} */ (await slice.query({ quantum_ms: dq, from_ms: range[0], to_ms: range[1], ...(host ? { exclude_hosts: excluded } : {}) }));
  drill = (performance.now() - tD) / 1000;
  note += `; ${host ? `drill into ${host}` : 'zoom'}: ${dp.whole ? 'the whole' : 'a slice of the'} ${dq} ms level${dp.chunks ? `, ${dp.chunks.size} host's blocks,` : ''} read (${((src.fetched - fD) / 1048576).toFixed(2)} MiB) and loaded in ${((tDL - tD) / 1000).toFixed(2)} s, ${rows.rows?.length ?? "?"} rows`;
  slice.terminate();
  // What the page reads: the open, the matrix and the zoom or drill (not the bench's extra read below).
  const readMiB = src.fetched / 1048576;
  if (host) {
    // ... and the groups from the histograms: every host's blocks of the range read, loaded and asked (what the view does without a matrix).
    const all = await createEngine({ mode: 'worker', workers, wasm: { url: new URL('/wasm/latscope.mjs', location.href).href } });
    const tR = performance.now();
    await all.loadFiles([await read(choose(range))]);
    const tG = performance.now();
    await all.queryMatrix({ quantum_ms: dq, group_by: 'host', percentiles: ['99'], from_ms: range[0], to_ms: range[1] });
    note += `; from the slice's histograms: ${((tG - tR) / 1000).toFixed(2)} s to read and load every host's blocks + ${((performance.now() - tG) / 1000).toFixed(2)} s`;
    all.terminate();
  }
  const mem = await engine.memory();
  engine.terminate();
  return { load: (tLoad - t0) / 1000, first: (tFirst - t0) / 1000, groups, drill, read: readMiB, wasm: mem.wasmBytes / 1048576, note };
}

try {
  for (const file of files) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.setInputFiles('#f', file);
    if (hosts) {
      try {
        const h = await page.evaluate(hostsRun, workers);
        console.log(`HOSTS ${path.basename(file)} ${fs.statSync(file).size} ${h.load.toFixed(2)} ${h.first.toFixed(2)} ${h.groups < 0 ? '-' : h.groups.toFixed(2)} ${h.drill < 0 ? '-' : h.drill.toFixed(2)} ${h.read.toFixed(1)} ${h.wasm.toFixed(0)}  (${h.note})`);
      } catch (e) {
        failed = true;
        console.log(`HOSTS ${path.basename(file)} ${fs.statSync(file).size} FAILED ${String(e).split('\n')[0]}`);
      }
      await page.close();
      continue;
    }
    /** @type {any} */
    let r;
    try {
      r = await page.evaluate(async (workers) => {
      const { createEngine } = await import('/src/engine/index.js');
      const engine = await createEngine({ mode: 'worker', workers, wasm: { url: new URL('/wasm/latscope.mjs', location.href).href } });
      const input = /** @type {HTMLInputElement} */ (document.getElementById('f'));
      const t0 = performance.now();
      const sources = await engine.loadFiles(Array.from(input.files ?? []));
      const tLoad = performance.now();
      const first = await engine.query({});
      const tFirst = performance.now();
      const byHost = await engine.query({ group_by: 'host' });
      const tHost = performance.now();
      const coarse = await engine.query({ group_by: 'host', quantum_ms: 10000 });
      const tQuantum = performance.now();
      const mem = await engine.memory();
      engine.terminate();
      return {
        status: sources.map((s) => (s.status.ok ? 'ok' : s.status.message)).join('; '),
        load: (tLoad - t0) / 1000,
        first: (tFirst - t0) / 1000,
        host: (tHost - tFirst) / 1000,
        quantum: (tQuantum - tHost) / 1000,
        wasm: mem.wasmBytes / 1048576,
        sizes: [JSON.stringify(first).length, JSON.stringify(byHost).length, JSON.stringify(coarse).length],
      };
      }, workers);
    } catch (e) {
      // The engine can abort (WASM memory is at most 4 GiB): say so, go on.
      failed = true;
      console.log(`PAGE ${path.basename(file)} ${fs.statSync(file).size} FAILED ${String(e).split('\n')[0]}`);
      await page.close();
      continue;
    }
    if (r.status !== 'ok') failed = true;
    console.log(
      `PAGE ${path.basename(file)} ${fs.statSync(file).size} ${r.load.toFixed(2)} ${r.first.toFixed(2)} ${r.host.toFixed(2)} ${r.quantum.toFixed(2)} ${r.wasm.toFixed(0)}` +
        `  (status ${r.status}; answers ${r.sizes.join('/')} B of JSON)`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
