#!/usr/bin/env node
// A cluster day in the page, in real Chromium: a result with
// several resolutions (tests/bench/make_cluster_day.sh) served with range
// requests from a second origin and opened by #url=, then what a user does
// with it: zoom to an hour, to ten minutes, pan, another percentile, a
// chosen quantum, reset. A benchmark, not a test: it prints figures (docs/benchmarks.md,
// "A cluster day in the page") and asserts nothing. Per step: the first
// answer (the view redrawn from what is loaded, when that serves the new
// range) and the detail (the level the range wants, read and drawn).
//
//   node web/scripts/bench-day-chromium.mjs [FILE.lsr] [--profile]
//
// --profile: a CPU profile of the page's main thread per step (unminified build).
//
// Default: bench-data/cluster-day.lsr, made when missing. Per step: wall
// time from the action until the page is ready and the view drawn, the
// longest main-thread task, and the bytes read so far by range requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openBenchPage, startTasks, topSelf, longestStretch } from './bench-page.mjs';
import { serveStatic } from '../test/e2e/server.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const profile = argv.includes('--profile');
const file = path.resolve(argv.filter((a) => !a.startsWith('--'))[0] ?? path.join(ROOT, 'bench-data/cluster-day.lsr'));
if (!fs.existsSync(file)) execFileSync('bash', [path.join(ROOT, 'tests/bench/make_cluster_day.sh'), '', file], { stdio: 'inherit' });
const size = fs.statSync(file).size;
const bench = await openBenchPage({ minify: !profile });
/** @type {import('playwright-core').CDPSession | null} */
let cdp = null;
const context = bench.context;
const data = await serveStatic(path.dirname(file), { cors: true });

/** @typedef {import('playwright-core').Page} Page */
const read = () => data.ranges.reduce((a, r) => a + r.end - r.start + 1, 0);
const mib = (/** @type {number} */ b) => `${(b / 1048576).toFixed(2)} MiB`;

/** Ready, no refresh running, the percentiles view drawn and painted. @param {Page} page */
async function settled(page) {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('[data-testid=status]')?.getAttribute('data-state') || ''), null, { timeout: 600000, polling: 20 });
  await page.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('[data-testid=status]')?.getAttribute('data-state') || ''), null, { timeout: 600000, polling: 20 });
  await page.waitForFunction(() => !(/** @type {any} */ (window).latscope.running), null, { timeout: 600000, polling: 20 });
  await page.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.drawing);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

/** @param {Page} page @param {string} what @param {() => Promise<unknown>} act */
async function step(page, what, act) {
  await startTasks(page).catch(() => {}); // no page yet before the first load
  await page.evaluate(() => performance.clearMeasures()).catch(() => {});
  const draws = await page.evaluate(() => /** @type {any} */ (window).latscope?.pctDraws ?? 0).catch(() => 0);
  if (cdp) await cdp.send('Profiler.start');
  const t0 = Date.now();
  await act();
  // The first answer: the percentiles view drawn again (from what the engine
  // holds, when it serves the new range), then the detail (settled).
  const first = page
    .waitForFunction((n) => /** @type {any} */ (window).latscope?.pctDraws > n, draws, { timeout: 600000, polling: 'raf' })
    .then(() => Date.now() - t0);
  await settled(page);
  const ms = Date.now() - t0;
  const firstMs = await first;
  const prof = cdp ? (await cdp.send('Profiler.stop')).profile : null;
  const tasks = /** @type {number[]} */ (await page.evaluate(() => /** @type {any} */ (window).__longTasks ?? []));
  const status = (await page.textContent('[data-testid=status]')) ?? '';
  const shown = /showing (.*?) \(/.exec(status)?.[1] ?? '';
  // The page's own stage marks (app.js performance.measure) during the step.
  const stages = /** @type {[string, number][]} */ (await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('latscope: ')).map((m) => [m.name.slice(10), m.duration])));
  const stageText = stages.length ? `\n${' '.repeat(44)}(${stages.map(([n, d]) => `${n} ${d.toFixed(0)}`).join(', ')})` : '';
  console.log(`${what.padEnd(40)} first ${String(firstMs).padStart(5)} ms, detail ${String(ms).padStart(5)} ms   longest task ${(tasks.length ? Math.max(...tasks) : 0).toFixed(0).padStart(4)} ms   read ${mib(read()).padStart(10)}   ${shown}${stageText}`);
  if (prof) console.log([...topSelf(prof, 10), ...longestStretch(prof, 20)].join('\n'));
}

/** @param {Page} page @param {[number, number] | null} r */
const zoomTo = (page, r) => page.evaluate((x) => /** @type {any} */ (window).latscope.setRange(x), r);

try {
  // The long-task observer from the first script on, so the open is measured too.
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__longTasks = [];
    w.__obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__longTasks.push(e.duration)));
    w.__obs.observe({ entryTypes: ['longtask'] });
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
  if (profile) {
    cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  }
  console.log(`bench-day-chromium: ${path.basename(file)} ${mib(size)}, Chromium ${context.browser()?.version() ?? ''}, ${os.cpus().length} cores`);
  await step(page, 'open by #url= (coarse level, drawn)', () => page.goto(`${bench.url}#url=${data.url}${path.basename(file)}`));
  const ext = /** @type {[number, number]} */ (await page.evaluate(() => /** @type {any} */ (window).latscope.fullExtent()));
  const mid = (ext[0] + ext[1]) / 2;
  await step(page, 'zoom to 1 h', () => zoomTo(page, [mid, mid + 3600e3]));
  await step(page, 'zoom to 10 min', () => zoomTo(page, [mid, mid + 600e3]));
  await step(page, 'pan by 5 min', () => zoomTo(page, [mid + 300e3, mid + 900e3]));
  await step(page, 'pan by 1 h (outside the slice)', () => zoomTo(page, [mid + 3900e3, mid + 4500e3]));
  await step(page, 'add p99.99', () => page.evaluate(() => /** @type {any} */ (window).latscope.store.set({ percentiles: ['50', '90', '99', '99.9', '99.99', '100'] })));
  await step(page, 'quantum 1 min (chosen)', () => page.selectOption('[data-testid=quantum]', '60000'));
  await step(page, 'reset zoom (the whole day)', () => page.click('#reset-zoom'));
  const mem = await page.evaluate(async () => (await /** @type {any} */ (window).latscope.engine.memory?.())?.wasmBytes ?? 0);
  console.log(`primary engine WASM memory ${mib(mem)}; read ${mib(read())} of ${mib(size)} in ${data.ranges.length} range requests`);
} finally {
  await bench.close();
  await data.close();
}
