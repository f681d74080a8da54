#!/usr/bin/env node
// Worst quantum per pixel column in the page, in real Chromium
// (docs/page-views.md, "Worst quantum per column"): the built page, the
// 200-host hour loaded through its file input, lines per host at a pinned
// 1 s quantum; then the percentiles chart's query and draw with the columns
// it asks (one per pixel) against the same query for every quantum, each
// handed to the view and drawn. A benchmark, not a test: it prints figures
// (docs/benchmarks.md, "Worst quantum per column on the page") and asserts nothing.
//
//   node web/scripts/bench-zoom-chromium.mjs [DIR | FILE.lsr] [--repeat N]
//
// A result file kept by host (tests/bench/make_host_day.sh's
// hosts-H-S-by-host.lsr) is timed a third way: the columns from its per-host
// matrix (host-matrix.js rows; docs/page-views.md, "Groups from the
// matrix"), no histogram folded.
//
// Default input: bench-data/hosts200_s3600 (tests/bench/make_hosts_data.py),
// generated when missing. Per way: the best of N (default 3) of query + draw
// (engine.queryColumns, then setData until drawn), the rows answered and the
// values they carry (rows x (percentiles + mean)).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openBenchPage } from './bench-page.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const repeat = argv.includes('--repeat') ? Number(argv[argv.indexOf('--repeat') + 1]) : 3;
let dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--repeat');
if (!dir) {
  const out = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', path.join(ROOT, 'bench-data')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  dir = out.trim().split('\n').at(-1) ?? '';
}
const files = dir.endsWith('.lsr') ? [dir] : fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort().map((n) => path.join(dir, n));
const bytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
const bench = await openBenchPage();

/** @param {import('playwright-core').Page} page */
async function settled(page) {
  await page.waitForFunction(() => !(/** @type {any} */ (window).latscope.running), null, { timeout: 600000, polling: 20 });
  await page.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.drawing);
}

try {
  const page = await bench.context.newPage();
  page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
  await page.goto(bench.url);
  console.log(`bench-zoom-chromium: ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB (${path.basename(dir)}), Chromium ${bench.context.browser()?.version() ?? ''}, ${os.cpus().length} cores`);
  await page.setInputFiles('[data-testid=file-input]', files);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('[data-testid=status]')?.getAttribute('data-state') || ''), null, { timeout: 600000, polling: 50 });
  await settled(page);
  let t0 = Date.now();
  await page.evaluate(() => /** @type {any} */ (window).latscope.store.set({ group_by: 'host', quantum_ms: 1000, quantumPinned: true }));
  // A result reads its 1 s level first (load/levels.js), outside the scheduler's run.
  await page.waitForFunction(() => { const a = /** @type {any} */ (window).latscope; return a.pct?.quantum_ms === 1000 && a.pct.groups.length > 1 && a.views.pctiles.columns; }, null, { timeout: 600000, polling: 50 });
  await settled(page);
  console.log(`per host at a pinned 1 s (the whole step: percentiles query, then the columns drawn): ${Date.now() - t0} ms`);
  /** @param {'matrix' | 'columns' | 'every'} way */
  const once = (way) =>
    page.evaluate(async (how) => {
      const withColumns = how !== 'every';
      const a = /** @type {any} */ (window).latscope;
      const v = a.views.pctiles;
      const { e, o } = a.scheduler.pctAsked;
      const ask = v.columns ?? a.lastColumnsAsk;
      a.lastColumnsAsk = ask;
      const t = performance.now();
      const asked = withColumns ? { ...o, from_ms: ask.from_ms, to_ms: ask.to_ms, columns: ask.columns, bands: false } : { ...o, bands: false };
      const r = how === 'matrix' ? await a.session.hostMatrix?.rows(e, asked) : await e.queryColumns(asked);
      if (!r) return { refused: a.session.hostMatrix?.why ?? 'no per-host matrix' };
      const q = performance.now();
      v.setData(r, withColumns ? ask : null);
      await v.drawing;
      const d = performance.now();
      return { query: q - t, draw: d - q, rows: r.n, values: r.n * (r.percentiles.length + 1), columns: ask.columns };
    }, way);
  /** @type {('matrix' | 'columns' | 'every')[]} */
  const ways = dir.endsWith('.lsr') ? ['matrix', 'columns', 'every'] : ['columns', 'every'];
  for (const way of ways) {
    /** @type {any} */
    let best = null;
    for (let i = 0; i < repeat; i++) {
      const m = /** @type {any} */ (await once(way));
      if (m.refused) {
        console.log(`${way}: refused: ${m.refused}`);
        break;
      }
      if (!best || m.query + m.draw < best.query + best.draw) best = m;
    }
    if (!best) continue;
    const b = /** @type {any} */ (best);
    console.log(`${way === 'every' ? 'every quantum' : `${way === 'matrix' ? 'matrix ' : ''}columns (${b.columns})`}`.padEnd(24), `query ${b.query.toFixed(0)} ms + draw ${b.draw.toFixed(0)} ms = ${(b.query + b.draw).toFixed(0)} ms;`, `${b.rows} rows, ${b.values} values`);
  }
  // Unpinned, the quantum follows the range the chart shows (docs/page-views.md,
  // "Quantum follows the zoom"): the whole step, as a user's click on the
  // quantum's pin, and the quantum it chose.
  t0 = Date.now();
  await page.evaluate(() => /** @type {any} */ (window).latscope.store.set({ quantumPinned: false }));
  await page.waitForFunction(() => { const a = /** @type {any} */ (window).latscope; return a.pct?.quantum_ms > 1000 && a.pct.groups.length > 1; }, null, { timeout: 600000, polling: 50 });
  await settled(page);
  const unpinned = await page.evaluate(() => { const a = /** @type {any} */ (window).latscope; return { q: a.pct.quantum_ms, rows: a.pct.n }; });
  console.log(`unpinned (the quantum follows the range: ${unpinned.q} ms; the whole step): ${Date.now() - t0} ms; ${unpinned.rows} rows`);
  let bestUnpinned = null;
  for (let i = 0; i < repeat; i++) {
    const m = /** @type {any} */ (await once('every'));
    if (!bestUnpinned || m.query + m.draw < bestUnpinned.query + bestUnpinned.draw) bestUnpinned = m;
  }
  const u = /** @type {any} */ (bestUnpinned);
  console.log(`unpinned, every quantum`.padEnd(24), `query ${u.query.toFixed(0)} ms + draw ${u.draw.toFixed(0)} ms = ${(u.query + u.draw).toFixed(0)} ms;`, `${u.rows} rows, ${u.values} values`);
} finally {
  await bench.close();
}
