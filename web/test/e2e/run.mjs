// End-to-end tests of the page in real Chromium (Debian's /usr/bin/chromium
// driven by playwright-core). Builds the page with Vite into
// web/test/e2e/out/dist (index.html and the single-file latscope.html),
// serves it from 127.0.0.1, runs every case in cases*.mjs in a fresh page
// and prints one line per case.
//
//   node web/test/e2e/run.mjs [name-filter]
//
// Needs: the WASM build (web/public/wasm/latscope.mjs, from
// web/scripts/build-wasm.sh) and the native CLI (build/latscope, or
// LATSCOPE_CLI=path) whose output the page's CSV must equal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { serveStatic } from './server.mjs';
import { CASES } from './cases.mjs';
import { SHARE_CASES } from './cases-share.mjs';
import { METHOD_CASES } from './cases-methods.mjs';
import { DELIVERY_CASES } from './cases-delivery.mjs';
import { VIEW_CASES } from './cases-views.mjs';
import { GROUP_CASES } from './cases-groups.mjs';
import { DENSITY_CASES } from './cases-density.mjs';
import { RUN_CASES } from './cases-runs.mjs';
import { OFFSET_QUANTA_CASES } from './cases-offsets-quanta.mjs';
import { BUDGET_CASES } from './cases-budget.mjs';
import { LEVEL_CASES } from './cases-levels.mjs';
import { LAYOUT_CASES } from './cases-layouts.mjs';
import { TRUST_CASES } from './cases-trust.mjs';
import { BOUNDS_CASES } from './cases-bounds.mjs';
import { REPORT_CSP_CASES } from './cases-report-csp.mjs';
import { SLA_CASES } from './cases-sla.mjs';
import { PCT_FIELD_CASES } from './cases-pct-field.mjs';
import { ZOOM_CASES } from './cases-zoom.mjs';
import { HOST_MATRIX_CASES } from './cases-host-matrix.mjs';
import { WEB, REPO, OUT, SHOTS } from './paths.mjs';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

async function main() {
  const filter = process.argv[2] || '';
  // LATSCOPE_WASM_DIR: take latscope.mjs/.wasm from another build directory.
  const wasmDir = process.env.LATSCOPE_WASM_DIR || path.join(WEB, 'public/wasm');
  const glue = path.join(wasmDir, 'latscope.mjs');
  if (!fs.existsSync(glue)) {
    console.error(`missing ${path.relative(REPO, glue)}: run web/scripts/build-wasm.sh first`);
    process.exit(2);
  }
  fs.mkdirSync(OUT, { recursive: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  const dist = path.join(OUT, 'dist');
  await build({ configFile: path.join(WEB, 'vite.config.js'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  fs.mkdirSync(path.join(dist, 'wasm'), { recursive: true });
  for (const f of ['latscope.mjs', 'latscope.wasm']) fs.copyFileSync(path.join(wasmDir, f), path.join(dist, 'wasm', f));
  // The single-file page beside it, as `npm run build` makes it (it reads LATSCOPE_WASM_DIR too).
  await build({ configFile: path.join(WEB, 'vite.single.config.js'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: false } });
  const server = await serveStatic(dist);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1440, height: 900 },
  });
  let failed = 0;
  let ran = 0;
  try {
    for (const c of [...CASES, ...SHARE_CASES, ...METHOD_CASES, ...DELIVERY_CASES, ...VIEW_CASES, ...GROUP_CASES, ...DENSITY_CASES, ...RUN_CASES, ...OFFSET_QUANTA_CASES, ...BUDGET_CASES, ...LEVEL_CASES, ...TRUST_CASES, ...LAYOUT_CASES, ...BOUNDS_CASES, ...REPORT_CSP_CASES, ...SLA_CASES, ...PCT_FIELD_CASES, ...ZOOM_CASES, ...HOST_MATRIX_CASES]) {
      if (filter && !c.name.includes(filter)) continue;
      const why = c.skip?.();
      if (why) {
        console.log(`skip ${c.name}: ${why}`);
        continue;
      }
      ran++;
      const page = await context.newPage();
      /** @type {string[]} */
      const errors = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
      const t0 = Date.now();
      try {
        await c.run({ page, url: server.url, context, errors });
        console.log(`ok   ${c.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${c.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n     ${String(/** @type {Error} */ (e).stack || e).split('\n').slice(0, 6).join('\n     ')}`);
        if (errors.length) console.log(`     page errors:\n       ${errors.slice(0, 5).join('\n       ')}`);
        await page.screenshot({ path: path.join(OUT, `fail-${c.name.replace(/\W+/g, '_')}.png`) }).catch(() => {});
      } finally {
        await page.close();
      }
    }
  } finally {
    await context.close();
    await server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${ran - failed} of ${ran} end-to-end cases passed`);
  process.exit(failed || !ran ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
