// What the page benchmarks in Chromium share (bench-groups, bench-day,
// bench-raster): the page built as `npm run build` makes it, served from
// 127.0.0.1 with the engine's WebAssembly, a headless Chromium at 1440 x 900,
// and the main thread's long tasks. Benchmarks print figures; none asserts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { serveStatic } from '../test/e2e/server.mjs';

const WEB = fileURLToPath(new URL('../', import.meta.url));

/**
 * Builds and serves the page, starts Chromium. LATSCOPE_WASM_DIR: take the
 * engine from another build (built here when missing); CHROMIUM: the browser;
 * LATSCOPE_BENCH_FLAGS: more Chromium switches, space-separated (e.g.
 * "--js-flags=--no-wasm-dynamic-tiering": docs/page-speed.md "Warming the engine").
 * @param {{minify?: boolean, deviceScaleFactor?: number}} [o]
 * @returns {Promise<{url: string, context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 */
export async function openBenchPage(o = {}) {
  const wasmDir = process.env.LATSCOPE_WASM_DIR || path.join(WEB, 'public/wasm');
  if (!fs.existsSync(path.join(wasmDir, 'latscope.wasm'))) execFileSync('sh', [path.join(WEB, 'scripts/build-wasm.sh')], { stdio: 'inherit' });
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-bench-dist-'));
  await build({ configFile: path.join(WEB, 'vite.config.js'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: true, minify: o.minify ?? true } });
  fs.mkdirSync(path.join(dist, 'wasm'), { recursive: true });
  for (const f of ['latscope.mjs', 'latscope.wasm']) fs.copyFileSync(path.join(wasmDir, f), path.join(dist, 'wasm', f));
  const server = await serveStatic(dist);
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-bench-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: o.deviceScaleFactor ?? 1,
    args: [...(process.env.LATSCOPE_BENCH_FLAGS?.split(' ').filter(Boolean) ?? []), '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    url: server.url,
    context,
    async close() {
      await context.close();
      await server.close();
      fs.rmSync(profileDir, { recursive: true, force: true });
      fs.rmSync(dist, { recursive: true, force: true });
    },
  };
}

/** Starts collecting the page's long tasks afresh. @param {import('playwright-core').Page} page */
export function startTasks(page) {
  return page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__longTasks = [];
    if (!w.__obs) {
      w.__obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__longTasks.push(e.duration)));
      w.__obs.observe({ entryTypes: ['longtask'] });
    }
  });
}

/**
 * Self time per function of a CPU profile, the top n, as text lines.
 * @param {any} prof Profiler.Profile @param {number} n
 */
export function topSelf(prof, n) {
  /** @type {Map<number, any>} */
  const byId = new Map(prof.nodes.map((/** @type {any} */ x) => [x.id, x]));
  /** @type {Map<string, number>} */
  const self = new Map();
  const dt = prof.timeDeltas;
  for (let i = 0; i < prof.samples.length; i++) {
    const node = byId.get(prof.samples[i]);
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + (dt[i] || 0) / 1000);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `      ${ms.toFixed(0).padStart(6)} ms  ${k}`);
}

/**
 * The longest busy stretch of a CPU profile (consecutive samples that are
 * not idle: about the longest task) and the functions it spent most time
 * in, counting each function once per sample with it on the stack.
 * @param {any} prof Profiler.Profile @param {number} n
 */
export function longestStretch(prof, n) {
  /** @type {Map<number, any>} */
  const byId = new Map(prof.nodes.map((/** @type {any} */ x) => [x.id, x]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const x of prof.nodes) for (const c of x.children || []) parent.set(c, x.id);
  const dt = prof.timeDeltas;
  let best = [0, 0, 0];
  let a = -1;
  let ms = 0;
  for (let i = 0; i <= prof.samples.length; i++) {
    const idle = i === prof.samples.length || byId.get(prof.samples[i]).callFrame.functionName === '(idle)';
    if (!idle) {
      if (a < 0) (a = i), (ms = 0);
      ms += (dt[i] || 0) / 1000;
    } else if (a >= 0) {
      if (ms > best[2]) best = [a, i, ms];
      a = -1;
    }
  }
  /** @type {Map<string, number>} */
  const incl = new Map();
  for (let i = best[0]; i < best[1]; i++) {
    const seen = new Set();
    for (let id = prof.samples[i]; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id).callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) || 0) + (dt[i] || 0) / 1000);
    }
  }
  return [`      longest busy stretch ${best[2].toFixed(0)} ms, by inclusive time:`, ...[...incl.entries()].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, v]) => `      ${v.toFixed(0).padStart(6)} ms  ${k}`)];
}

/**
 * Starts a Chromium trace of the page's renderer (timeline categories),
 * for traceSummary: what the main thread did outside JavaScript (style,
 * layout, paint, canvas), which a CPU profile shows only as "(program)".
 * @param {import('playwright-core').CDPSession} cdp
 */
export async function startTrace(cdp) {
  /** @type {any[]} */
  const events = [];
  const onData = (/** @type {any} */ e) => events.push(...e.value);
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { categories: `devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,gpu${process.env.LATSCOPE_TRACE_INVALIDATIONS ? ',disabled-by-default-devtools.timeline.invalidationTracking' : ''}`, transferMode: 'ReportEvents' });
  return async () => {
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', onData);
    // LATSCOPE_TRACE_DUMP=FILE: the raw events too (chrome://tracing, Perfetto UI).
    if (process.env.LATSCOPE_TRACE_DUMP) fs.writeFileSync(process.env.LATSCOPE_TRACE_DUMP, JSON.stringify({ traceEvents: events }));
    return events;
  };
}

/**
 * Self time per trace event name on the renderer's main thread (the thread
 * running RunTask the most), the top n, as text lines. Nested events are
 * subtracted from their parent, so the figures add up to the busy time.
 * @param {any[]} events @param {number} n
 */
export function traceSummary(events, n) {
  /** @type {Map<string, number>} */
  const busy = new Map();
  for (const e of events) if (e.name === 'RunTask' && e.ph === 'X') busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) || 0) + (e.dur || 0));
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return ['      (no trace events)'];
  const xs = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur > 0).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const count = new Map();
  /** @type {{end: number, name: string}[]} */
  const stack = [];
  for (const e of xs) {
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) || 0) - e.dur);
    self.set(e.name, (self.get(e.name) || 0) + e.dur);
    count.set(e.name, (count.get(e.name) || 0) + 1);
    stack.push({ end: e.ts + e.dur, name: e.name });
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `      ${(us / 1000).toFixed(0).padStart(6)} ms  ${k} (${count.get(k)}x)`);
}
