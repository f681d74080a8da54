#!/usr/bin/env node
// WebAssembly engine throughput in real Chromium, through the page's own
// engine modules (web/src/engine, loaded as plain ES modules: no bundler) and
// real File objects from an <input type=file>, exactly as the page reads them.
//
//   node web/scripts/bench-wasm-chromium.mjs [DIR_OR_FILE...] [--workers 1,2]
//
// Default input: bench-data/f32_s1800 (tests/bench/make_bench_data.py
// --files 32 --seconds 1800), generated when missing.
// Prints, per mode, MB/s of log text from loadFiles() start to the first
// query answered, peak WASM memory of the primary engine, and for worker
// modes the longest main-thread task seen during the load (PerformanceObserver
// 'longtask': the page must stay responsive, < 50 ms).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB = path.join(ROOT, 'web');
const args = process.argv.slice(2);
let workerCounts = [1, 2];
const inputs = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--workers') workerCounts = args[++i].split(',').map(Number);
  else inputs.push(args[i]);
}
if (inputs.length === 0) {
  const out = execFileSync(
    'python3',
    [path.join(ROOT, 'tests/bench/make_bench_data.py'), '--out', path.join(ROOT, 'bench-data'), '--files', '32', '--seconds', '1800'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  inputs.push(out.trim().split('\n').at(-1) ?? '');
}
const files = inputs.flatMap((p) =>
  fs.statSync(p).isDirectory()
    ? fs.readdirSync(p).filter((n) => !n.startsWith('.')).sort().map((n) => path.join(p, n))
    : [p],
);
const totalBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
if (!fs.existsSync(path.join(WEB, 'public/wasm/latscope.wasm'))) {
  execFileSync('sh', [path.join(WEB, 'scripts/build-wasm.sh')], { stdio: 'inherit' });
}

// A static server for web/ (so /src/engine/*.js and /public/wasm/* load as is).
const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const file = path.join(WEB, decodeURIComponent(url.pathname));
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset=utf-8><input type=file multiple id=f>');
    return;
  }
  if (!file.startsWith(WEB) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': MIME[/** @type {keyof MIME} */ (path.extname(file))] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-bench-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.setInputFiles('#f', files);
  console.log(`bench-wasm-chromium: ${files.length} files, ${(totalBytes / 1e6).toFixed(1)} MB, Chromium ${browser.browser()?.version() ?? ''}`);
  for (const mode of ['inthread', ...workerCounts.map((n) => `worker:${n}`)]) {
    const r = await page.evaluate(async (mode) => {
      const { createEngine } = await import('/src/engine/index.js');
      const [kind, n] = mode.split(':');
      const engine = await createEngine({
        mode: /** @type {any} */ (kind),
        workers: Number(n || 1),
        wasm: { url: new URL('/public/wasm/latscope.mjs', location.href).href },
      });
      /** @type {number[]} */
      const longTasks = [];
      const obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => longTasks.push(e.duration)));
      obs.observe({ entryTypes: ['longtask'] });
      const input = /** @type {HTMLInputElement} */ (document.getElementById('f'));
      const t0 = performance.now();
      const sources = await engine.loadFiles(Array.from(input.files ?? []));
      const tLoad = performance.now() - t0;
      await engine.query({});
      const tFirst = performance.now() - t0;
      obs.disconnect();
      const mem = await engine.memory();
      engine.terminate();
      return {
        ok: sources.filter((s) => s.status.ok).length,
        tLoad,
        tFirst,
        wasmBytes: mem.wasmBytes,
        maxLongTask: longTasks.length ? Math.max(...longTasks) : 0,
        longTasks: longTasks.length,
      };
    }, mode);
    const mbps = totalBytes / 1e3 / r.tLoad;
    console.log(
      `${mode.padEnd(9)} ${mbps.toFixed(0)} MB/s load (${(r.tLoad / 1000).toFixed(2)} s), first query at ${(r.tFirst / 1000).toFixed(2)} s, ` +
        `${r.ok}/${files.length} files ok, primary WASM memory ${(r.wasmBytes / 1048576).toFixed(0)} MiB, ` +
        (mode === 'inthread'
          ? '(main thread busy by design)'
          : `longest main-thread task ${r.maxLongTask.toFixed(0)} ms (${r.longTasks} over 50 ms)`),
    );
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
