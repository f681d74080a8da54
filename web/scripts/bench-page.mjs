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
 * engine from another build (built here when missing); CHROMIUM: the browser.
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
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
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
