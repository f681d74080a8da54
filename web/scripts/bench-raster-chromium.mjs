#!/usr/bin/env node
// What it costs Chromium to rasterise the percentiles view's lines: the
// built page (Vite) served from 127.0.0.1, logs loaded through its file
// input, quantum 10 s, grouped per host, then per round the view redrawn and
// its layer profiled with the DevTools protocol (LayerTree.makeSnapshot +
// profileSnapshot: the Skia commands that paint the layer, replayed and
// timed). Raster runs on compositor threads, not the main thread, so a
// CPU profile or long tasks do not show it. A benchmark, not a test: it
// prints figures (docs/page-speed.md "Speed with many groups") and asserts
// nothing.
//
//   node web/scripts/bench-raster-chromium.mjs [DIR] [--rounds N] [--hosts N] [--variants a,b,...] [--dpr 2] [--group-by none] [--screenshot DIR]
//
// DIR defaults to bench-data/f32_s3600 (tests/bench/make_bench_data.py).
// --hosts N: only the files of the first N hosts (a quicker iteration).
// --variants: styles patched onto the drawn SVG lines before painting, to
// compare line styles on one load (names in VARIANTS below); "page" is the
// view as drawn. Variants run alternately, round after round, because the
// machine's load moves wall times: compare ranges, not single figures.
// --group-by: instead of host (none: the cluster's lines only).
// --screenshot DIR: at the end, DIR/raster-VARIANT-THEME.png of the
// percentiles view per variant, light and dark themes (to look at).
// --dpr: the device pixel ratio (a HiDPI screen: 2; lines are then twice as
// many device pixels wide).
// LATSCOPE_WASM_DIR: where latscope.{mjs,wasm} are (default web/public/wasm).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBenchPage } from './bench-page.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const opt = (/** @type {string} */ name, /** @type {string} */ d) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const rounds = Number(opt('--rounds', '5'));
const nHosts = Number(opt('--hosts', '0'));
const variants = opt('--variants', 'page').split(',');
const dpr = Number(opt('--dpr', '1'));
const groupBy = opt('--group-by', 'host');
const shots = opt('--screenshot', '');
const optValues = new Set(['--rounds', '--hosts', '--variants', '--dpr', '--group-by', '--screenshot'].map((o) => opt(o, '')));
const dir = argv.find((a) => !a.startsWith('--') && !optValues.has(a)) || path.join(ROOT, 'bench-data/f32_s3600');
let files = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort().map((n) => path.join(dir, n));
if (nHosts) {
  // fio names a host's log by its address at the end (….log.10.0.0.3).
  const hostOf = (/** @type {string} */ f) => path.basename(f).replace(/^.*\.log\.?/, '');
  const hosts = [...new Set(files.map(hostOf))].sort().slice(0, nHosts);
  files = files.filter((f) => hosts.includes(hostOf(f)));
}
const bytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);

const ALL = 'path.line';
const DASHED = 'path.line[stroke-dasharray]:not([stroke-dasharray=""])';
/**
 * Line styles tried on the drawn SVG: [selector, attributes] pairs set on
 * the view's lines, to measure a style before changing the view. `page`:
 * as drawn; `before`: dashed lines as wide as before they were made 1 px
 * (1.6 px, the mean 1.2 px).
 * @type {Record<string, [string, string][]>}
 */
const VARIANTS = {
  page: [],
  before: [[DASHED, 'stroke-width=1.6'], ['path.line-mean', 'stroke-width=1.2']],
  round: [[ALL, 'stroke-linejoin=round']],
  bevel: [[ALL, 'stroke-linejoin=bevel']],
  nodash: [[ALL, 'stroke-dasharray=']],
  'nodash-bevel': [[ALL, 'stroke-dasharray=;stroke-linejoin=bevel']],
  'nodash-round': [[ALL, 'stroke-dasharray=;stroke-linejoin=round']],
  w1: [[ALL, 'stroke-width=1']],
  'dashed-w1': [[DASHED, 'stroke-width=1']],
  'w1-bevel': [[ALL, 'stroke-width=1;stroke-linejoin=bevel']],
  'w1-round': [[ALL, 'stroke-width=1;stroke-linejoin=round']],
  'w1.2': [[ALL, 'stroke-width=1.2']],
  'w0.5': [[ALL, 'stroke-width=0.5']],
  'nodash-w1': [[ALL, 'stroke-dasharray=;stroke-width=1']],
  'nodash-w1-bevel': [[ALL, 'stroke-dasharray=;stroke-width=1;stroke-linejoin=bevel']],
  'nodash-w1.2-bevel': [[ALL, 'stroke-dasharray=;stroke-width=1.2;stroke-linejoin=bevel']],
  'nodash-crisp': [[ALL, 'stroke-dasharray=;shape-rendering=crispEdges']],
  'nodash-opacity': [[ALL, 'stroke-dasharray=;stroke-opacity=0.6']],
};
for (const v of variants) if (!(v in VARIANTS)) throw new Error(`unknown variant ${v} (${Object.keys(VARIANTS).join(', ')})`);

const bench = await openBenchPage({ deviceScaleFactor: dpr });
const context = bench.context;

/** @typedef {import('playwright-core').Page} Page */

/** Waits for the page to settle: no refresh running, the view drawn and painted. @param {Page} page */
async function settled(page) {
  await page.waitForFunction(() => !(/** @type {any} */ (window).latscope.running), null, { timeout: 600000, polling: 20 });
  await page.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.drawing);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0)))));
}

/** @param {Page} page @param {Record<string, unknown>} patch */
async function set(page, patch) {
  await page.evaluate((p) => /** @type {any} */ (window).latscope.store.set(p), patch);
  await settled(page);
}

/**
 * Redraws the view, patches the lines with a variant's attributes, and
 * waits three frames; returns the wall time in ms. Three, not two: the
 * second frame's main-thread work may start while the first frame's layer
 * is still being rasterised; only its commit waits for that, so the third
 * frame's callback is the first that runs after the raster. The frames
 * before the start drain the previous redraw's raster, which would
 * otherwise be counted in this one's time.
 * @param {Page} page @param {[string, string][]} rules
 */
function redraw(page, rules) {
  return page.evaluate(async (rules) => {
    const a = /** @type {any} */ (window).latscope;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(0)));
    for (let i = 0; i < 3; i++) await frame();
    const t0 = performance.now();
    a.views.pctiles.render();
    await a.views.pctiles.drawing;
    for (const [sel, attrs] of rules) {
      for (const p of document.querySelectorAll(`#view-pctiles ${sel}`)) for (const [k, v] of attrs.split(';').map((x) => x.split('='))) p.setAttribute(k, v);
    }
    for (let i = 0; i < 3; i++) await frame();
    return performance.now() - t0;
  }, rules);
}

const median = (/** @type {number[]} */ xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (/** @type {number[]} */ xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} (median ${median(xs).toFixed(0)})`;

try {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
  const cdp = await context.newCDPSession(page);
  /** @type {any[]} */
  let layers = [];
  cdp.on('LayerTree.layerTreeDidChange', (ev) => {
    if (ev.layers) layers = ev.layers;
  });
  // The steps' quanta are chosen (pinned): a quantum that follows the zoom would coarsen the hour (docs/page-views.md "Quantum follows the zoom").
  await page.goto(`${bench.url}#v=1&q=1000`);
  // After the navigation: a new document (another renderer) forgets the domain.
  await cdp.send('LayerTree.enable');
  console.log(`bench-raster-chromium: ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB (${path.basename(dir)}${nHosts ? `, ${nHosts} hosts` : ''}), Chromium ${context.browser()?.version() ?? ''}, dpr ${dpr}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=file-input]', files);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('[data-testid=status]')?.getAttribute('data-state') || ''), null, { timeout: 600000, polling: 50 });
  await settled(page);
  console.log(`loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await set(page, { quantum_ms: 10000, quantumPinned: true });
  if (groupBy !== 'none') await set(page, { group_by: groupBy });
  const info = await page.evaluate(() => {
    const v = /** @type {any} */ (window).latscope.views.pctiles;
    const ps = [...document.querySelectorAll('#view-pctiles path.line')];
    const pts = ps.reduce((s, p) => s + ((p.getAttribute('d') || '').match(/L/g)?.length ?? 0), 0);
    return { paths: ps.length, pts, onCanvas: v.onCanvas, w: v.frame.innerW, h: v.frame.innerH, svgW: v.frame.width, svgH: v.frame.height };
  });
  console.log(`${groupBy === 'none' ? 'cluster' : `per ${groupBy}`} at 10 s: ${info.paths} SVG line paths (${info.pts} points), lines on canvas: ${info.onCanvas}, plot ${info.w}x${info.h} px`);

  /**
   * The layer painting the chart's SVG: draws content, the SVG's size (the
   * canvas under it, the plot's size, is a layer of its own).
   */
  const chartLayer = () => layers.find((l) => l.drawsContent && [1, dpr].some((k) => l.width === info.svgW * k && l.height === info.svgH * k));
  /** @type {Record<string, {raster: number[], wall: number[]}>} */
  const out = Object.fromEntries(variants.map((v) => [v, { raster: [], wall: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const v of variants) {
      const wall = await redraw(page, VARIANTS[v]);
      const layer = chartLayer();
      if (!layer) throw new Error(`no layer of the SVG's size among ${layers.map((l) => `${l.width}x${l.height}${l.drawsContent ? '' : ' (no content)'}`).join(', ')}`);
      if (round === 0 && v === variants[0]) console.log(`layer ${layer.layerId}: ${layer.width}x${layer.height} px (of ${layers.length} layers)`);
      const { snapshotId } = await cdp.send('LayerTree.makeSnapshot', { layerId: layer.layerId });
      const { timings } = await cdp.send('LayerTree.profileSnapshot', { snapshotId, minRepeatCount: 5 });
      await cdp.send('LayerTree.releaseSnapshot', { snapshotId });
      // timings: per repeat, the time of each command (s); a repeat's sum is one raster.
      const raster = median(timings.map((rep) => rep.reduce((s, x) => s + x, 0))) * 1000;
      out[v].raster.push(raster);
      out[v].wall.push(wall);
      console.log(`  round ${round + 1} ${v.padEnd(20)} raster ${raster.toFixed(0).padStart(6)} ms   redraw ${wall.toFixed(0).padStart(6)} ms`);
    }
  }
  if (shots) {
    fs.mkdirSync(shots, { recursive: true });
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) {
        await page.click('[data-testid=theme-button]');
        await settled(page);
      }
      for (const v of variants) {
        await redraw(page, VARIANTS[v]);
        const file = path.join(shots, `raster-${v}-${theme}.png`);
        await page.locator('#view-pctiles').screenshot({ path: file });
        console.log(`wrote ${file}`);
      }
    }
  }
  console.log('variant               raster of the layer, ms          redraw wall, ms');
  for (const v of variants) console.log(`${v.padEnd(20)}  ${range(out[v].raster).padEnd(32)} ${range(out[v].wall)}`);
} finally {
  await bench.close();
}
