#!/usr/bin/env node
// The page with many hosts, in real Chromium: the built page (Vite, as
// `npm run build` makes it) served from 127.0.0.1, logs loaded through its
// file input, then what a user does with hundreds of hosts. A benchmark, not
// a test: it prints figures (docs/benchmarks.md, "Many groups on the page") and asserts nothing.
//
//   node web/scripts/bench-groups-chromium.mjs [DIR] [--profile]
//
// --trace: per step over 300 ms, what the renderer's main thread did by
// trace event (style, layout, paint, canvas: "(program)" in a profile).
// --profile: a CPU profile of the page per step (Chrome DevTools protocol);
// prints the functions with the most self time of each step over 500 ms,
// and the longest busy stretch with its functions by inclusive time.
// --load-only: stop after the load; --stop-after PREFIX: after the step
// whose name starts with PREFIX (e.g. regroup); --shot FILE: a screenshot of
// the page there (to look at what was drawn).
//
// Default input: bench-data/hosts200_s3600 (tests/bench/make_hosts_data.py:
// 200 hosts x 1 h, 1 s windows), generated when missing. Per step: wall time
// from the state change until no refresh runs and the view is drawn, and the
// longest main-thread task during the step (PerformanceObserver 'longtask').
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openBenchPage, startTasks, topSelf, longestStretch, startTrace, traceSummary } from './bench-page.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const profile = argv.includes('--profile');
let dir = argv.find((a) => !a.startsWith('--'));
if (!dir) {
  const out = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', path.join(ROOT, 'bench-data')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  dir = out.trim().split('\n').at(-1) ?? '';
}
const files = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort().map((n) => path.join(dir, n));
const bytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
const bench = await openBenchPage({ minify: !profile });
const context = bench.context;

/** @typedef {import('playwright-core').Page} Page */

/** @type {import('playwright-core').CDPSession | null} */
let cdp = null;
/** --trace: a Chromium trace per step, summarised by event (bench-page.mjs traceSummary). @type {import('playwright-core').CDPSession | null} */
let tcdp = null;

/** Waits for the page to settle: no refresh running, the shown view drawn. @param {Page} page */
async function settled(page) {
  await page.waitForFunction(() => !(/** @type {any} */ (window).latscope.running), null, { timeout: 600000, polling: 20 });
  await page.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.drawing);
  // One more frame: what was drawn is painted.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

/**
 * Runs a step and prints its wall time and longest task.
 * @param {Page} page @param {string} what @param {() => Promise<unknown>} act
 */
async function step(page, what, act) {
  await settled(page);
  await startTasks(page);
  await page.evaluate(() => performance.clearMeasures());
  if (cdp) await cdp.send('Profiler.start');
  const stopTrace = tcdp ? await startTrace(tcdp) : null;
  const t0 = Date.now();
  await act();
  await settled(page);
  const ms = Date.now() - t0;
  const prof = cdp ? (await cdp.send('Profiler.stop')).profile : null;
  const trace = stopTrace ? await stopTrace() : null;
  const tasks = /** @type {number[]} */ (await page.evaluate(() => /** @type {any} */ (window).__longTasks));
  const longest = tasks.length ? Math.max(...tasks) : 0;
  // The page's own stage marks (app.js performance.measure) during the step.
  const stages = /** @type {[string, number][]} */ (await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('latscope: ')).map((m) => [m.name.slice(10), m.duration])));
  await page.evaluate(() => performance.clearMeasures());
  const stageText = stages.length ? `   (${stages.map(([n, d]) => `${n} ${d.toFixed(0)}`).join(', ')})` : '';
  console.log(`${what.padEnd(52)} ${String(ms).padStart(6)} ms   longest task ${longest.toFixed(0).padStart(5)} ms (${tasks.length} over 50 ms)${stageText}`);
  if (prof && ms > 500) console.log([...topSelf(prof, 12), ...longestStretch(prof, 12)].join('\n'));
  if (trace && ms > 300) console.log(['      renderer main thread, self time by trace event:', ...traceSummary(trace, 14)].join('\n'));
  if (argv.includes('--stop-after') && what.startsWith(argv[argv.indexOf('--stop-after') + 1])) {
    if (argv.includes('--shot')) await page.screenshot({ path: argv[argv.indexOf('--shot') + 1] });
    process.exit(0);
  }
  return { ms, longest };
}

/** @param {Page} page @param {Record<string, unknown>} patch */
function set(page, patch) {
  return page.evaluate((p) => /** @type {any} */ (window).latscope.store.set(p), patch);
}

/** Redraw of the shown view alone (no query): render() and its drawing. @param {Page} page @param {string} view */
function redraw(page, view) {
  return page.evaluate(async (v) => {
    const a = /** @type {any} */ (window).latscope;
    a.views[v].render();
    await a.views[v].drawing;
  }, view);
}

try {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
  if (argv.includes('--trace')) tcdp = await context.newCDPSession(page);
  if (profile) {
    cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  }
  // The steps' quanta are chosen (pinned): a quantum that follows the zoom would coarsen the hour (docs/page-views.md "Quantum follows the zoom").
  await page.goto(`${bench.url}#v=1&q=1000`);
  console.log(`bench-groups-chromium: ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB (${path.basename(dir)}), Chromium ${context.browser()?.version() ?? ''}, ${os.cpus().length} cores`);
  await startTasks(page);
  if (cdp) await cdp.send('Profiler.start');
  const stopTrace = tcdp ? await startTrace(tcdp) : null;
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=file-input]', files);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('[data-testid=status]')?.getAttribute('data-state') || ''), null, { timeout: 600000, polling: 50 });
  await settled(page);
  const tasks = /** @type {number[]} */ (await page.evaluate(() => /** @type {any} */ (window).__longTasks));
  console.log(`${'load (files to percentiles drawn, cluster)'.padEnd(52)} ${String(Date.now() - t0).padStart(6)} ms   longest task ${(tasks.length ? Math.max(...tasks) : 0).toFixed(0).padStart(5)} ms (${tasks.length} over 50 ms)`);
  if (stopTrace) console.log(['      renderer main thread, self time by trace event:', ...traceSummary(await stopTrace(), 14)].join('\n'));
  if (cdp) {
    const prof = (await cdp.send('Profiler.stop')).profile;
    console.log([...topSelf(prof, 12), ...longestStretch(prof, 25)].join('\n'));
  }
  if (argv.includes('--load-only')) process.exit(0);
  // An hour of 200 hosts is read at 10 s first (360 quanta x 200 hosts); the
  // 1 s grid per host (720,000 rows) comes last, it is the costly one.
  await step(page, 'quantum 1 s -> 10 s (cluster)', () => set(page, { quantum_ms: 10000, quantumPinned: true }));
  await step(page, 'regroup to per host (10 s, percentiles view)', () => set(page, { group_by: 'host' }));
  await step(page, 'redraw percentiles view (per host)', () => redraw(page, 'pctiles'));
  for (const v of ['heatmap', 'surface', 'spectrum']) {
    await step(page, `switch to ${v} (query + draw)`, () => set(page, { view: v }));
    await step(page, `redraw ${v}`, () => redraw(page, v));
  }
  for (const mode of ['heat', 'top', 'multiples']) {
    await step(page, `groups view, ${mode} (query + draw)`, () => set(page, { view: 'groups', groupsMode: mode }));
    await step(page, `redraw groups, ${mode}`, () => redraw(page, 'groups'));
  }
  await step(page, 'groups heat map, percentile p99 -> p99.9', () => set(page, { groupsMode: 'heat', groupsP: '99.9' }));
  await step(page, 'SLA p99<400us, 200 hosts (percentiles view)', () => set(page, { view: 'pctiles', sla: ['p99<400us'] }));
  await step(page, 'SLA rules cleared', () => set(page, { sla: [] }));
  await step(page, 'groups heat map, quantum 10 s -> 1 s', () => set(page, { view: 'groups', quantum_ms: 1000, quantumPinned: true }));
  await step(page, 'redraw groups, heat (1 s)', () => redraw(page, 'groups'));
  await step(page, 'percentiles view per host at 1 s (query + draw)', () => set(page, { view: 'pctiles' }));
  await step(page, 'redraw percentiles view (per host, 1 s)', () => redraw(page, 'pctiles'));
  await step(page, 'SLA p99<400us at 1 s (summary of 720,000 rows)', () => set(page, { sla: ['p99<400us'] }));
  const mem = await page.evaluate(async () => (await /** @type {any} */ (window).latscope.engine.memory?.()) ?? {});
  const mib = (/** @type {number} */ b) => `${(b / 1048576).toFixed(0)} MiB`;
  if (mem.wasmBytes) console.log(`primary engine WASM memory ${mib(mem.wasmBytes)}${mem.twinBytes ? `, query twin ${mib(mem.twinBytes)}` : ''}`);
} finally {
  await bench.close();
}
