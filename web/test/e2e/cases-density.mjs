// End-to-end cases of the density view (docs/page-views.md, "Host density"):
// a simulated cluster of 40 hosts' fio histogram logs, one host slowed for
// ten seconds, loaded through the file input. The grid equals
// `latscope heatmap --density host:p99`; the slow host is a lone cell at the
// top of its quanta; a click lists it with the value of
// `latscope pctiles --group-by host -p 99`; every column counts the hosts
// with data in its quantum. Every assertion on what the page shows or holds,
// none on time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fixture, loadThroughInput, cliPath, cliPctiles, settled, download, parseCsv } from './helpers.mjs';
import { SHOTS, OUT } from './paths.mjs';
import { formatNumber } from '../../src/util/format.js';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

export const CLUSTER_HOSTS = 40;
const SECONDS = 60;
/** The slow host: its latencies x8 in seconds (30, 40]. */
const SLOW = { host: 'host23', from: 30, to: 40 };
/** A host whose logs stop early: columns after it count one host fewer. */
const SHORT = { host: 'host07', until: 45 };

/**
 * fio histogram logs of `hosts` hosts as fio's client writes them
 * (`<prefix>_clat_hist.<job>.log.<host>`, docs/folders.md), `seconds`
 * one-second windows each, replaying the windows of a real local fio log
 * (each host from another window); in SLOW's seconds every count moves up
 * three bin groups (fio's bins double every 64 indices: latencies x8).
 * Cached in out/.
 * @param {number} [hosts] @param {number} [seconds]
 * @returns {string[]}
 */
export function clusterLogs(hosts = CLUSTER_HOSTS, seconds = SECONDS) {
  const dir = path.join(OUT, `density-cluster-${hosts}x${seconds}`);
  const src = fs.readFileSync(fixture('local', 'local_clat_hist.1.log'), 'utf8').trim().split('\n');
  const recs = src.map((l) => l.split(',').map((x) => x.trim()));
  fs.mkdirSync(dir, { recursive: true });
  const out = [];
  for (let h = 1; h <= hosts; h++) {
    const host = `host${String(h).padStart(2, '0')}`;
    const p = path.join(dir, `cl_clat_hist.1.log.${host}`);
    out.push(p);
    if (fs.existsSync(p)) continue;
    const lines = [];
    const last = host === SHORT.host ? Math.min(seconds, SHORT.until) : seconds;
    for (let s = 1; s <= last; s++) {
      const rec = recs[((s - 1 + h * 7) * 2) % recs.length];
      let bins = rec.slice(3).map(Number);
      if (host === SLOW.host && s > SLOW.from && s <= SLOW.to) {
        const moved = new Array(bins.length).fill(0);
        bins.forEach((c, i) => (moved[Math.min(bins.length - 1, i + 3 * 64)] += c));
        bins = moved;
      }
      lines.push(`${s * 1000}, 0, 4096, ${bins.join(', ')}`);
    }
    fs.writeFileSync(p, lines.join('\n') + '\n');
  }
  return out;
}

/** The density view's grid as plain arrays. @param {import('playwright-core').Page} p */
function grid(p) {
  return p.evaluate(() => {
    const g = /** @type {any} */ (window).latscope.views.density.data?.grid;
    return g ? { ...g, counts: Array.from(g.counts) } : null;
  });
}

/**
 * The page's point of a cell: middle of quantum q, row r (log latency).
 * @param {import('playwright-core').Page} p @param {number} q @param {number} r
 */
function cellPoint(p, q, r) {
  return p.evaluate(
    ({ q, r }) => {
      const v = /** @type {any} */ (window).latscope.views.density;
      const g = v.data.grid;
      const f = v.frame;
      const [a, b] = /** @type {any} */ (window).latscope.store.state.range || [g.t0_ms, g.t0_ms + g.quanta * g.quantum_ms];
      const t = g.t0_ms + (q + 0.5) * g.quantum_ms;
      const lo = Math.log(g.edges_ns[0]);
      const hi = Math.log(g.edges_ns[g.rows]);
      const mid = (Math.log(g.edges_ns[r]) + Math.log(g.edges_ns[r + 1])) / 2;
      const box = f.svg.node().getBoundingClientRect();
      return { x: box.left + f.margin.left + ((t - a) / (b - a)) * f.innerW, y: box.top + f.margin.top + (1 - (mid - lo) / (hi - lo)) * f.innerH };
    },
    { q, r },
  );
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const DENSITY_CASES = [
  {
    name: 'density: 40 hosts, p99 per host and second counted on the heat map rows; the grid equals latscope heatmap --density, each column counts the hosts with data, the slow host is a lone top cell whose click lists it with the CLI\'s value (docs/page-views.md "Host density")',
    async run(c) {
      const p = c.page;
      const files = clusterLogs();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.click('[data-testid=tab-density]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.density.data?.grid?.quanta > 0);
      await settled(p);
      const g = await grid(p);
      assert.ok(g);
      assert.equal(g.rows, 160, "the heat map's fixed rows");
      assert.equal(g.groups, CLUSTER_HOSTS);

      // The page's numbers are the CLI's: its export equals `latscope heatmap --density`.
      const { bytes } = await download(p, '[data-testid=export-view-csv]');
      const want = execFileSync(cliPath(), ['heatmap', '--density', 'host:p99', '--rows', '160', '--header-units', ...files], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.equal(bytes.toString('utf8'), want);

      // Each column counts the hosts the per-host query has a value for in that quantum.
      const ref = parseCsv(cliPctiles(['--group-by', 'host', '--percentiles', '99'], files));
      for (let q = 0; q < g.quanta; q++) {
        const t = g.t0_ms + q * g.quantum_ms;
        const withData = ref.filter((r) => Number(r.time_ms) === t && Number(r.samples) > 0).length;
        let sum = 0;
        for (let r = 0; r < g.rows; r++) sum += g.counts[q * g.rows + r];
        assert.equal(sum, withData, `quantum at ${t} ms`);
      }
      assert.ok(g.max_column === CLUSTER_HOSTS, `the fullest column: ${g.max_column}`);

      // The slow host: in its quanta, the highest cell holds it alone.
      const t = 34000;
      const q = Math.round((t - g.t0_ms) / g.quantum_ms);
      let top = -1;
      for (let r = 0; r < g.rows; r++) if (g.counts[q * g.rows + r] > 0) top = r;
      assert.equal(g.counts[q * g.rows + top], 1, 'a lone cell at the top');
      const slow = ref.find((r) => r.group === `host=${SLOW.host}` && Number(r.time_ms) === t);
      const others = ref.filter((r) => r.group !== `host=${SLOW.host}` && Number(r.time_ms) === t).map((r) => Number(r.p99));
      assert.ok(slow && Number(slow.p99) > Math.max(...others), `the slow host is the highest at ${t} ms: ${slow?.p99} vs ${Math.max(...others)}`);

      // Hover names the cell: time, latency range, one host.
      const pt = await cellPoint(p, q, top);
      await p.mouse.move(pt.x, pt.y);
      await p.waitForSelector('#view-density .tip', { state: 'visible' });
      const tip = (await p.textContent('#view-density .tip')) || '';
      assert.match(tip, /34(\.0+)? s/);
      assert.match(tip, /p99 [\d.,]+ … [\d.,]+ µs/);
      assert.match(tip, /1 host \(click to list\)/);

      // Click lists the cell's hosts, from core, with the CLI's value.
      await p.mouse.click(pt.x, pt.y);
      await p.waitForSelector('[data-testid=density-list]:not([hidden])');
      const items = await p.$$eval('[data-testid=density-list] li', (ls) => ls.map((l) => ({ group: /** @type {HTMLElement} */ (l).dataset.group, value: l.querySelector('.density-value')?.textContent })));
      assert.deepEqual(items, [{ group: `host=${SLOW.host}`, value: `${formatNumber(Number(slow.p99))} µs` }]);
      const head = (await p.textContent('[data-testid=density-list] .density-list-title')) || '';
      assert.match(head, /: 1 host$/);
      await p.screenshot({ path: path.join(SHOTS, 'density-slow-host.png') });

      // A calm cell lists as many hosts as it counts, each with its CLI value.
      const calmQ = Math.round((10000 - g.t0_ms) / g.quantum_ms);
      let busiest = 0;
      for (let r = 1; r < g.rows; r++) if (g.counts[calmQ * g.rows + r] > g.counts[calmQ * g.rows + busiest]) busiest = r;
      const n = g.counts[calmQ * g.rows + busiest];
      assert.ok(n > 1, `a calm cell holds several hosts: ${n}`);
      const cp = await cellPoint(p, calmQ, busiest);
      await p.mouse.click(cp.x, cp.y);
      await p.waitForFunction((k) => document.querySelectorAll('[data-testid=density-list] li').length === k, n);
      const calm = await p.$$eval('[data-testid=density-list] li', (ls) => ls.map((l) => ({ group: /** @type {HTMLElement} */ (l).dataset.group || '', value: l.querySelector('.density-value')?.textContent })));
      for (const m of calm) {
        const row = ref.find((r) => r.group === m.group && Number(r.time_ms) === 10000);
        assert.ok(row, m.group);
        assert.equal(m.value, `${formatNumber(Number(row.p99))} µs`, m.group);
      }
      // A drag across time zooms every view (the shared range); the grid is not asked again.
      await p.click('[data-testid=density-list-close]');
      const a = await cellPoint(p, Math.round((10000 - g.t0_ms) / g.quantum_ms), 0);
      const b = await cellPoint(p, Math.round((20000 - g.t0_ms) / g.quantum_ms), 0);
      const yMid = (await cellPoint(p, 0, 80)).y;
      await p.mouse.move(a.x - (b.x - a.x) / 20, yMid);
      await p.mouse.down();
      await p.mouse.move(b.x - (b.x - a.x) / 20, yMid, { steps: 8 });
      await p.mouse.up();
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.range);
      await settled(p);
      const range = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.range);
      assert.ok(Math.abs(range[0] - 10000) < 300 && Math.abs(range[1] - 20000) < 300, `zoomed to about 10-20 s: ${range}`);
      assert.equal((await grid(p))?.quanta, g.quanta, 'the whole-run grid, redrawn over the range');
      const ticks = await p.$$eval('#view-density .x-axis .tick text', (ts) => ts.map((t) => t.textContent));
      assert.ok(ticks.includes('14 s') && !ticks.includes('30 s'), `time ticks of the zoomed range: ${ticks.join(' ')}`);
      await p.screenshot({ path: path.join(SHOTS, 'density-zoomed.png') });
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
];
