#!/usr/bin/env node
// The page's side of the scale benchmark (tests/bench/scale_bench.sh): one
// result file (a merged .lsr, or ClickHouse's answer as a long table) given to
// the page's engine in real Chromium through an <input type=file>, as the page
// opens it, with the page's own engine (web/src/engine, Web Workers) and WASM.
//
//   node tests/bench/scale_page.mjs [--wasm DIR] [--workers N] FILE...
//
// Each FILE is opened on its own. Prints one line per file:
//   PAGE <name> <bytes> <load_s> <first_s> <host_s> <quantum_s> <wasm_MiB>
// load_s: loadFiles() until the file is in; first_s: until the first answer
// (pctiles with the CLI's defaults: all hosts together, 1 s quanta); host_s:
// regrouping by host (the group view's question); quantum_s: the same with a
// 10 s quantum. wasm_MiB: the primary engine's WASM memory afterwards.
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
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--wasm') wasmDir = path.resolve(args[++i]);
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
  if (file.endsWith('.js')) res.end(fs.readFileSync(file, 'utf8').replace(/from 'fflate'/g, `from ${FFLATE}`));
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
try {
  for (const file of files) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.setInputFiles('#f', file);
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
