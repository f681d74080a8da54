// End-to-end cases of the views' review (units and ticks, the heat map's
// overlay and hover, the surface's slider and few-sample marks, the file
// table in the sidebar, json+ alone, export captions, the busy indicator).
// Every assertion is on what the page shows or holds; none is on time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fixture, fixtureFiles, loadThroughInput, waitDone, download, cliPctiles, cliPath, settled, overlaps } from './helpers.mjs';
import { execFileSync } from 'node:child_process';
import { SHOTS, OUT } from './paths.mjs';
import { compactCount, thousands, formatNumber } from '../../src/util/format.js';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

const LOCAL = () => fixtureFiles('local', /_clat_hist\.\d\.log$/);
const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** Numbers of the y-axis tick labels of a view ("1,000" -> 1000). @param {Page} p @param {string} sel */
async function tickNumbers(p, sel) {
  const ts = await p.$$eval(sel, (els) => els.map((e) => e.textContent || ''));
  return ts.map((t) => Number(t.replace(/,/g, '')));
}

/**
 * The values at the two ends of a log y axis, from where its ticks are drawn
 * (two ticks fix the axis' log-linear map; the domain path gives its ends).
 * @param {Page} p @param {string} sel the axis' group
 * @returns {Promise<{top: number, bottom: number}>}
 */
async function axisEnds(p, sel) {
  return p.$eval(sel, (ax) => {
    const ticks = [...ax.querySelectorAll('.tick')].map((t) => ({
      y: Number((t.getAttribute('transform') || '').match(/translate\(0,([-\d.e]+)\)/)?.[1]),
      v: Number((t.textContent || '').replace(/,/g, '')),
    }));
    const a = ticks[0];
    const b = ticks[ticks.length - 1];
    const nums = (ax.querySelector('.domain')?.getAttribute('d') || '').match(/-?[\d.]+/g)?.map(Number) || [];
    // axisLeft's domain path: M-6,<range0>H<offset>V<range1>H-6.
    const [y0, y1] = [nums[1], nums[3]];
    const at = (/** @type {number} */ y) => Math.exp(Math.log(a.v) + ((y - a.y) / (b.y - a.y)) * (Math.log(b.v) - Math.log(a.v)));
    return { bottom: at(Math.max(y0, y1)), top: at(Math.min(y0, y1)) };
  });
}

/** @param {Page} p @param {string} view */
async function showView(p, view) {
  await p.click(`[data-testid=tab-${view}]`);
  await p.waitForFunction((v) => /** @type {any} */ (window).latscope.store.state.view === v, view);
  await settled(p);
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const VIEW_CASES = [
  {
    name: 'views: ticks follow the Unit selector (µs values are 1000 × the ms ones), y fitted to the shown data, heat-map ticks never overprint',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, LOCAL()), 'ready');
      await settled(p);
      const sel = '#view-pctiles .y-axis .tick text';
      const us = await tickNumbers(p, sel);
      assert.match((await p.textContent('#view-pctiles .axis-label')) || '', /latency \(µs\)/);
      await p.screenshot({ path: path.join(SHOTS, 'views-unit-us.png') });
      await p.selectOption('[data-testid=unit]', 'ms');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.pct?.unit === 'ms');
      await settled(p);
      const ms = await tickNumbers(p, sel);
      assert.match((await p.textContent('#view-pctiles .axis-label')) || '', /latency \(ms\)/);
      assert.ok(us.length >= 3 && us.every(Number.isFinite), `µs ticks: ${us}`);
      // Same places, numbers in the other unit.
      assert.deepEqual(ms.map((v) => Math.round(v * 1000 * 1e6) / 1e6), us, `ms ticks ${ms} vs µs ticks ${us}`);
      // The axis fits the data: every value drawn lies inside it, and its
      // ends are within one decade (log: nice() rounds to decades) of the data.
      const fit = await p.evaluate(() => {
        const a = /** @type {any} */ (window).latscope;
        let lo = Infinity;
        let hi = 0;
        for (const r of a.pct.rows) for (const v of [...r.p, r.mean]) if (v > 0) ((lo = Math.min(lo, v)), (hi = Math.max(hi, v)));
        return { lo, hi };
      });
      const [tlo, thi] = [Math.min(...ms), Math.max(...ms)];
      assert.ok(tlo <= fit.lo * 10 && thi >= fit.hi / 10 && thi <= fit.hi * 10 && tlo >= fit.lo / 10, `ticks ${tlo}..${thi} vs data ${fit.lo}..${fit.hi} ms`);
      // Not rounded out to decades (a 21 ms max drew the axis to 100 ms):
      // its ends, read off the drawn ticks, hold the data with a little
      // headroom (scales.js logDomain: 5% of the span, docs/page-views.md).
      const ends = await axisEnds(p, '#view-pctiles .y-axis');
      const room = Math.pow(10, 0.06 * Math.log10(fit.hi / fit.lo)) * 1.01;
      assert.ok(ends.top >= fit.hi && ends.top <= fit.hi * room, `axis top ${ends.top} vs max ${fit.hi} ms`);
      assert.ok(ends.bottom <= fit.lo && ends.bottom >= fit.lo / room, `axis bottom ${ends.bottom} vs min ${fit.lo} ms`);
      // Linear: the axis no longer starts from a fixed range; its top is near the data's max.
      await p.click('#ylog');
      await settled(p);
      const lin = await tickNumbers(p, sel);
      assert.ok(Math.max(...lin) <= fit.hi * 1.25 && Math.max(...lin) >= fit.hi * 0.75, `linear top tick ${Math.max(...lin)} vs max ${fit.hi}`);
      assert.deepEqual((await overlaps(p, sel)).hits, []);

      // Heat map: ticks in the chosen unit, none overprinting another, also on a short window.
      await showView(p, 'heatmap');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm);
      assert.match((await p.textContent('#view-heatmap svg')) || '', /latency \(ms\)/);
      const hsel = '#view-heatmap .y-axis .tick text';
      const hms = await tickNumbers(p, hsel);
      const edges = await p.evaluate(() => {
        const hm = /** @type {any} */ (window).latscope.views.heatmap.hm;
        return [hm.edges_ns[0], hm.edges_ns[hm.rows]];
      });
      assert.ok(hms.length >= 2, `heat-map ticks ${hms}`);
      for (const t of hms) assert.ok(t * 1e6 >= edges[0] * 0.999 && t * 1e6 <= edges[1] * 1.001, `tick ${t} ms inside ${edges} ns`);
      let ov = await overlaps(p, hsel);
      assert.deepEqual(ov.hits, [], 'heat-map tick labels overlap');
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-ticks-ms.png') });
      await p.setViewportSize({ width: 1000, height: 560 });
      await p.waitForFunction(() => !(/** @type {any} */ (window).latscope.running));
      await p.waitForTimeout(300); // the resize handler is debounced (app.js); not an assertion
      await settled(p);
      ov = await overlaps(p, hsel);
      assert.ok(ov.n >= 2, 'ticks on a short heat map');
      assert.deepEqual(ov.hits, [], 'short heat map: tick labels overlap');
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-ticks-short.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'views: the heat map\'s row panel: each row\'s average IOPS over the shown range equals `latscope heatmap` on the same rows, its average equals the CLI\'s samples per second, and follows a zoom',
    async run(c) {
      const p = c.page;
      const files = S1();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await showView(p, 'heatmap');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.quanta > 0);
      const read = () =>
        p.evaluate(() => {
          const v = /** @type {any} */ (window).latscope.views.heatmap;
          const bars = Array.from(document.querySelectorAll('#view-heatmap [data-testid=heat-row-panel] .row-bar')).map((b) => [Number(b.getAttribute('data-row')), Number(b.getAttribute('data-iops')), b.getBoundingClientRect().width]);
          return { hm: { t0: v.hm.t0_ms, q: v.hm.quantum_ms, quanta: v.hm.quanta, rows: v.hm.rows, edges: Array.from(v.hm.edges_ns) }, bars, total: document.querySelector('#view-heatmap [data-testid=heat-row-total]')?.firstChild?.textContent ?? '' };
        });
      const cliRates = (/** @type {any} */ hm, /** @type {[number, number]} */ range) => {
        const out = JSON.parse(execFileSync(cliPath(), ['heatmap', '--format', 'json', '--quantum', String(hm.q), '--rows', String(hm.rows), '--unit', 'ns', '--min', String(hm.edges[0]), '--max', String(hm.edges[hm.rows]), ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
        const rates = new Array(out.rows).fill(0);
        for (let q = 0; q < out.quanta; q++) {
          const t = out.t0_ms + q * out.quantum_ms;
          if (t < range[0] || t + out.quantum_ms > range[1]) continue;
          for (let r = 0; r < out.rows; r++) rates[r] += out.counts[q * out.rows + r];
        }
        return rates.map((x) => x / ((range[1] - range[0]) / 1000));
      };
      let got = await read();
      const whole = /** @type {[number, number]} */ ([got.hm.t0, got.hm.t0 + got.hm.quanta * got.hm.q]);
      let want = cliRates(got.hm, whole);
      assert.deepEqual(got.bars.map(([r]) => r), want.flatMap((v, r) => (v > 0 ? [r] : [])), 'a bar for each row holding I/Os');
      for (const [r, v] of got.bars) assert.ok(Math.abs(v - want[r]) <= 1e-9 * want[r], `row ${r}: ${v} vs the CLI's ${want[r]} IOPS`);
      const widest = Math.max(...got.bars.map((b) => b[2]));
      const top = got.bars.reduce((a, b) => (b[1] > a[1] ? b : a));
      assert.ok(Math.abs(top[2] - widest) < 0.01 && widest > 60, 'the busiest row has the longest bar, the panel\'s width');
      // The average: the CLI's samples per second over the run.
      const csv = cliPctiles([], files).trim().split('\n').slice(1).map((l) => l.split(','));
      const samples = (/** @type {[number, number]} */ r) => csv.filter((x) => Number(x[0]) >= r[0] && Number(x[0]) < r[1]).reduce((a, x) => a + Number(x[2]), 0);
      assert.equal(got.total, `avg ${formatNumber(samples(whole) / ((whole[1] - whole[0]) / 1000))} IOPS`);
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-row-panel.png') });
      // Zoomed to 5-12 s: the panel is of those 7 s (the rows refit to them).
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ range: [5000, 12000] }));
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.panel?.seconds === 7);
      await settled(p);
      got = await read();
      want = cliRates(got.hm, [5000, 12000]);
      for (const [r, v] of got.bars) assert.ok(Math.abs(v - want[r]) <= 1e-9 * want[r], `zoomed row ${r}: ${v} vs ${want[r]}`);
      assert.equal(got.total, `avg ${formatNumber(samples([5000, 12000]) / 7)} IOPS`);
      noPageErrors(c);
    },
  },
  {
    name: 'views: a heat map zoomed in time fits its rows to the cells holding I/Os there',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, LOCAL()), 'ready');
      await showView(p, 'heatmap');
      const full = await p.evaluate(() => {
        const hm = /** @type {any} */ (window).latscope.views.heatmap.hm;
        return { t0: hm.t0_ms, q: hm.quantum_ms, quanta: hm.quanta, rows: hm.rows, edges: hm.edges_ns, counts: Array.from(hm.counts) };
      });
      // The two quanta whose I/Os span the fewest rows (a quiet stretch).
      let best = { q: 0, span: Infinity, r0: 0, r1: 0 };
      for (let q = 0; q + 1 < full.quanta; q++) {
        let r0 = Infinity;
        let r1 = -1;
        for (const k of [q, q + 1]) for (let r = 0; r < full.rows; r++) if (full.counts[k * full.rows + r] > 0) ((r0 = Math.min(r0, r)), (r1 = Math.max(r1, r)));
        if (r1 >= 0 && r1 - r0 < best.span) best = { q, span: r1 - r0, r0, r1 };
      }
      assert.ok(best.span < full.rows - 1, 'some quanta hold fewer rows than the whole run');
      const range = [full.t0 + best.q * full.q, full.t0 + (best.q + 2) * full.q];
      await p.evaluate((r) => /** @type {any} */ (window).latscope.store.set({ range: r }), range);
      await p.waitForFunction((r) => JSON.stringify(/** @type {any} */ (window).latscope.views.heatmap.hm && /** @type {any} */ (window).latscope.store.state.range) === JSON.stringify(r), range);
      await settled(p);
      const zoomed = await p.evaluate(() => {
        const hm = /** @type {any} */ (window).latscope.views.heatmap.hm;
        return [hm.edges_ns[0], hm.edges_ns[hm.rows]];
      });
      const want = [full.edges[best.r0], full.edges[best.r1 + 1]];
      assert.ok(Math.abs(zoomed[0] / want[0] - 1) < 1e-9 && Math.abs(zoomed[1] / want[1] - 1) < 1e-9, `zoomed rows ${zoomed} = the rows holding I/Os ${want}`);
      assert.ok(zoomed[1] / zoomed[0] < full.edges[full.rows] / full.edges[0], 'narrower than the whole run');
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-zoom-fit.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'views: heat-map percentile lines are clipped (not clamped) to the plot, labels all shown without overlap, empty cells say "no I/O", the tooltip goes after a box zoom',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      await showView(p, 'heatmap');
      // Latency zoom to a band between the p50 and p99 lines: p99.9 and max run above it.
      const band = await p.evaluate(() => {
        const a = /** @type {any} */ (window).latscope;
        const r = a.pct;
        const k = r.unit === 'ms' ? 1e6 : r.unit === 'us' ? 1e3 : 1;
        const med = (/** @type {number} */ i) => {
          const v = r.rows.map((/** @type {any} */ x) => x.p[i]).filter((/** @type {any} */ x) => x != null).sort((/** @type {number} */ x, /** @type {number} */ y) => x - y);
          return v[Math.floor(v.length / 2)] * k;
        };
        return [med(0) * 0.8, med(2)];
      });
      await p.evaluate((b) => /** @type {any} */ (window).latscope.store.set({ yZoomNs: b }), band);
      await p.waitForFunction((b) => Math.abs(/** @type {any} */ (window).latscope.views.heatmap.hm?.edges_ns[0] / b[0] - 1) < 1e-9, band, { timeout: 5000 }).catch(async (e) => { throw new Error(`${e.message}: ${JSON.stringify(band)} vs ${await p.evaluate(() => JSON.stringify(/** @type {any} */ (window).latscope.views.heatmap.hm?.edges_ns.slice(0, 2)))} ${await p.evaluate(() => JSON.stringify(/** @type {any} */ (window).latscope.store.state.yZoomNs))}`); });
      await settled(p);
      const geo = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.heatmap;
        const g = document.querySelector('#view-heatmap .pct-lines');
        const id = (g?.getAttribute('clip-path') || '').replace(/^url\(#(.*)\)$/, '$1');
        const rect = document.getElementById(id)?.querySelector('rect');
        const ys = Array.from(document.querySelectorAll('#view-heatmap path.pct-line')).map((el) => {
          const nums = (el.getAttribute('d') || '').match(/-?\d+(\.\d+)?(e-?\d+)?/g)?.map(Number) || [];
          const y = nums.filter((_, i) => i % 2 === 1);
          return { p: el.getAttribute('data-p'), min: Math.min(...y), max: Math.max(...y) };
        });
        return { innerW: v.frame.innerW, innerH: v.frame.innerH, clip: rect ? [Number(rect.getAttribute('width')), Number(rect.getAttribute('height'))] : null, ys };
      });
      assert.deepEqual(geo.clip, [geo.innerW, geo.innerH], 'the lines are clipped to the plot area');
      const above = geo.ys.filter((l) => l.max < 0);
      assert.ok(above.length >= 1, `a line runs above the plot (not along its top edge): ${JSON.stringify(geo.ys)}`);
      assert.ok(geo.ys.every((l) => !(l.min === 0 && l.max === 0)), 'no line is pressed onto the top edge');
      const labels = await p.$$eval('#view-heatmap .pct-label', (ts) => ts.map((t) => [t.textContent, t.getAttribute('data-edge')]));
      const names = await p.evaluate(() => /** @type {any} */ (window).latscope.pct.percentiles.map((/** @type {string} */ x) => (Number(x) === 100 ? 'max' : `p${x}`)));
      assert.equal(labels.length, names.length, `every percentile labelled: ${JSON.stringify(labels)}`);
      for (const n of names) assert.ok(labels.some(([t]) => (t || '').startsWith(n)), `${n} labelled`);
      assert.ok(labels.some(([t, e]) => e === 'above' && /▲$/.test(t || '')), 'lines above the shown range are labelled at the top edge');
      assert.deepEqual((await overlaps(p, '#view-heatmap .pct-label')).hits, [], 'labels overlap');
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-overlay.png') });

      // Hover an empty cell and a full one.
      const cells = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.heatmap;
        const hm = v.hm;
        const svg = /** @type {Element} */ (v.frame.svg.node()).getBoundingClientRect();
        const m = v.frame.margin;
        const dom = [hm.t0_ms, hm.t0_ms + hm.quanta * hm.quantum_ms];
        const ext = /** @type {any} */ (window).latscope.store.state.range || (() => {
          const r = /** @type {any} */ (window).latscope.pct;
          let lo = Infinity;
          let hi = -Infinity;
          for (const x of r.rows) ((lo = Math.min(lo, x.t_ms)), (hi = Math.max(hi, x.t_ms)));
          return [lo, hi + r.quantum_ms];
        })();
        const at = (/** @type {number} */ q, /** @type {number} */ r) => {
          const t = hm.t0_ms + (q + 0.5) * hm.quantum_ms;
          const lo = Math.log(hm.edges_ns[0]);
          const hi = Math.log(hm.edges_ns[hm.rows]);
          const mid = (Math.log(hm.edges_ns[r]) + Math.log(hm.edges_ns[r + 1])) / 2;
          return { x: svg.left + m.left + ((t - ext[0]) / (ext[1] - ext[0])) * v.frame.innerW, y: svg.top + m.top + (1 - (mid - lo) / (hi - lo)) * v.frame.innerH };
        };
        let empty = null;
        let full = null;
        for (let q = 1; q < hm.quanta - 1 && !(empty && full); q++) {
          for (let r = 1; r < hm.rows - 1; r++) {
            const n = hm.counts[q * hm.rows + r];
            if (!empty && n === 0) empty = at(q, r);
            if (!full && n > 1) full = at(q, r);
          }
        }
        return { empty, full, dom };
      });
      assert.ok(cells.empty && cells.full, 'an empty and a full cell');
      await p.mouse.move(cells.empty.x, cells.empty.y);
      await p.waitForSelector('#view-heatmap .tip', { state: 'visible' });
      const emptyTip = (await p.textContent('#view-heatmap .tip')) || '';
      assert.match(emptyTip, /no I\/O/);
      assert.doesNotMatch(emptyTip, /count 0/);
      await p.mouse.move(cells.full.x, cells.full.y);
      await p.waitForFunction(() => /I\/Os \(/.test(document.querySelector('#view-heatmap .tip')?.textContent || ''));
      assert.match((await p.textContent('#view-heatmap .tip')) || '', /IOPS in this cell/);
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-hover.png') });
      // A box zoom from there: after the redraw no tooltip stands.
      await p.mouse.down();
      await p.mouse.move(cells.full.x + 120, cells.full.y + 60, { steps: 6 });
      await p.mouse.up();
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.range != null);
      await settled(p);
      assert.equal(await p.isVisible('#view-heatmap .tip'), false, 'tooltip hidden after the box zoom');
      await p.screenshot({ path: path.join(SHOTS, 'views-heatmap-after-box-zoom.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'views: the surface slider stops on p99 and p99.9 exactly; cells with too few I/Os are hatched, per the engine\'s few flags',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, LOCAL()), 'ready');
      await showView(p, 'surface');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.surface.grid);
      const levels = await p.evaluate(() => /** @type {any} */ (window).latscope.views.surface.data.percentiles);
      for (const want of ['50', '90', '99', '99.9', '99.99']) {
        const i = levels.indexOf(want);
        assert.ok(i >= 0, `${want} is a level: ${levels.join(' ')}`);
        await p.$eval('[data-testid=surface-slider]', (el, v) => {
          const inp = /** @type {HTMLInputElement} */ (el);
          inp.value = String(v);
          inp.dispatchEvent(new Event('input', { bubbles: true }));
        }, i);
        await p.waitForFunction((w) => /** @type {any} */ (window).latscope.store.state.surfaceP === Number(w), want);
        await settled(p);
        assert.equal(await p.textContent('#surface-p-out'), `p${want}`);
        const picked = await p.$$eval('#view-surface text', (ts) => ts.map((t) => t.textContent));
        assert.ok(picked.includes(`p${want}`), `the pick line is labelled p${want}`);
        assert.match((await p.textContent('#view-surface .pick-chart')) || '', new RegExp(`p${want.replace('.', '\\.')} \\(µs\\)`));
      }
      // Hatched levels = the levels some row's few flag names.
      const { flagged, marked } = await p.evaluate(() => {
        const r = /** @type {any} */ (window).latscope.views.surface.data;
        const names = new Set();
        for (const row of r.rows) for (const tok of String(row.flags || '').split(';')) if (tok.startsWith('few:')) for (const x of tok.slice(4).split('|')) names.add(Number(x.replace(/^p/, '')));
        const flagged = r.percentiles.filter((/** @type {string} */ x) => names.has(Number(x)));
        const marked = [...new Set(Array.from(document.querySelectorAll('#view-surface .few-cells rect')).map((e) => e.getAttribute('data-level')))];
        return { flagged, marked };
      });
      assert.ok(flagged.length > 0, 'the local logs have quanta with too few I/Os for the top levels');
      assert.deepEqual(marked.sort(), flagged.slice().sort());
      assert.match((await p.textContent('#view-surface .few-legend')) || '', /too few I\/Os/);
      await p.screenshot({ path: path.join(SHOTS, 'views-surface-p99.99-few.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'views: the surface\'s CSV export equals `latscope pctiles --group-by all --percentiles <its levels>` byte for byte (core writes it)',
    async run(c) {
      const p = c.page;
      const files = LOCAL();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await showView(p, 'surface');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.surface.grid);
      const levels = await p.evaluate(() => /** @type {any} */ (window).latscope.views.surface.data.percentiles);
      const { name, bytes } = await download(p, '[data-testid=export-view-csv]');
      assert.equal(name, 'latscope-surface.csv');
      assert.equal(bytes.toString('utf8'), cliPctiles(['--group-by', 'all', '--percentiles', levels.join(',')], files));
      noPageErrors(c);
    },
  },
  {
    name: 'views: an 800 px window: no sideways scroll, all six tabs whole, the file table names host and job and counts I/Os against fio\'s json+ (whole names, client/server run)',
    async run(c) {
      const p = c.page;
      await p.setViewportSize({ width: 800, height: 900 });
      await p.goto(c.url);
      await p.evaluate(() => localStorage.removeItem('latscope-sidebar-width'));
      const files = [...S1(), fixture('fio-s1', 's1.json')];
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      const lay = await p.evaluate(() => {
        const views = /** @type {HTMLElement} */ (document.querySelector('.views')).getBoundingClientRect();
        const tabs = Array.from(document.querySelectorAll('.tabs [role=tab]')).map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, inside: r.left >= views.left - 0.5 && r.right <= views.right + 0.5 && r.width > 0, whole: t.scrollWidth <= t.clientWidth };
        });
        return { page: document.scrollingElement?.scrollWidth ?? 0, win: innerWidth, tabs };
      });
      assert.ok(lay.page <= lay.win, `the page does not scroll sideways at 800 px: ${lay.page}`);
      assert.deepEqual(lay.tabs.filter((t) => !t.inside || !t.whole), [], 'every tab inside the views, unclipped');
      const rows = await p.$$eval('[data-testid=file-table] tbody tr[data-file]:not(.trust-line)', (trs) =>
        Object.fromEntries(trs.map((tr) => [tr.getAttribute('data-file'), ['name', 'host', 'job', 'unit', 'ios'].map((k) => tr.querySelector(`td.${k}`)?.textContent ?? null)])),
      );
      const trust = await p.evaluate(() => /** @type {any} */ (window).latscope.store.session.trust);
      const t1 = trust.find((/** @type {any} */ t) => t.file === 's1_clat_hist.1.log.127.0.0.1');
      assert.ok(t1?.compared, 'fio\'s count is known from s1.json');
      const n = (/** @type {number} */ x) => compactCount(thousands(Math.round(x)));
      assert.deepEqual(rows['s1_clat_hist.1.log.127.0.0.1'], ['s1_clat_hist.1.log.127.0.0.1', '127.0.0.1', '1', 'ns', `${n(t1.ios)}/${n(t1.fio_ios)}`]);
      assert.deepEqual(rows['s1_clat_hist.2.log.127.0.0.2'].slice(0, 3), ['s1_clat_hist.2.log.127.0.0.2', '127.0.0.2', '2']);
      await p.screenshot({ path: path.join(SHOTS, 'views-800px.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'views: the file table shows whole names, host and job and the trust summary as columns at the default sidebar (what, unit, I/Os, rep, skip, state), scrolls sideways in its box only, natural order, resizable sidebar kept across reloads',
    async run(c) {
      const p = c.page;
      await p.goto(c.url);
      await p.evaluate(() => localStorage.removeItem('latscope-sidebar-width'));
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      const fit = await p.evaluate(() => {
        const box = /** @type {HTMLElement} */ (document.querySelector('#file-table'));
        const side = /** @type {HTMLElement} */ (document.querySelector('#sidebar')).getBoundingClientRect();
        const cells = Array.from(document.querySelectorAll('#file-table tbody td.host, #file-table tbody td.job, #file-table tbody td.fmt, #file-table tbody td.unit, #file-table tbody td.ios, #file-table tbody td.rep, #file-table tbody td.skip, #file-table tbody td.state')).map((td) => td.getBoundingClientRect().right);
        const names = Array.from(document.querySelectorAll('#file-table td.name')).map((td) => ({ text: td.textContent, whole: td.scrollWidth <= td.clientWidth + 0.5, title: /** @type {HTMLElement} */ (td).title }));
        const b = box.getBoundingClientRect();
        // Text cut by its cell (an ellipsis) in the glance columns and their headers.
        const cut = Array.from(document.querySelectorAll('#file-table th:nth-child(-n+10), #file-table tbody td:is(.host, .job, .fmt, .unit, .ios, .rep, .skip, .state)')).filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent);
        return { page: document.scrollingElement?.scrollWidth ?? 0, win: innerWidth, boxRight: b.right, sideRight: side.right, rightmost: Math.max(...cells), sideWidth: side.width, names, cut };
      });
      assert.equal(fit.sideWidth, 470, 'default sidebar width');
      assert.ok(fit.page <= fit.win, `the page does not scroll sideways: ${fit.page} > ${fit.win}`);
      assert.ok(fit.boxRight <= fit.sideRight, 'the table\'s box stays in the sidebar (it scrolls within)');
      assert.ok(fit.rightmost <= fit.sideRight, 'what, unit, I/Os, rep, skip, state visible without scrolling');
      assert.deepEqual(fit.cut, [], 'no header or cell of those columns is cut');
      const names = S1().map((f) => path.basename(f));
      assert.deepEqual(fit.names.map((n) => n.text), names, 'whole names, never cut');
      assert.ok(fit.names.every((n) => n.whole), 'no name overflows its cell');
      assert.ok(fit.names.every((n, i) => n.title === names[i]), 'full name in the tooltip');
      const heads = await p.$$eval('#file-table thead th', (ths) => ths.map((t) => [t.textContent, t.getAttribute('title')]));
      assert.deepEqual(heads.map(([t]) => t), ['✓', 'file', 'host', 'job', 'what', 'unit', 'I/Os', 'rep', 'skip', 'state', 'dir', 'rec', 'fio', 'off']);
      assert.ok(heads.filter(([t]) => !['✓', 'file'].includes(t || '')).every(([, title]) => !!title), 'abbreviations carry a title');
      await p.screenshot({ path: path.join(SHOTS, 'views-file-table-default.png') });

      // Natural order: 1, 2, 10 (not 1, 10, 2).
      const dir = path.join(OUT, 'natural');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const src = fixture('local', 'local_clat_hist.1.log');
      const files = [10, 2, 1].map((n) => {
        const f = path.join(dir, `local_clat_hist.${n}.log`);
        fs.copyFileSync(src, f);
        return f;
      });
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      const order = await p.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.file));
      assert.deepEqual(order, ['local_clat_hist.1.log', 'local_clat_hist.2.log', 'local_clat_hist.10.log']);

      // Drag the handle 120 px to the right, then a key step back; the width survives a reload.
      const h = /** @type {{x: number, y: number, width: number, height: number}} */ (await p.locator('[data-testid=sidebar-handle]').boundingBox());
      await p.mouse.move(h.x + h.width / 2, h.y + 40);
      await p.mouse.down();
      await p.mouse.move(h.x + h.width / 2 + 120, h.y + 40, { steps: 5 });
      await p.mouse.up();
      const w1 = await p.evaluate(() => document.querySelector('#sidebar')?.getBoundingClientRect().width);
      assert.equal(w1, 590);
      await p.focus('[data-testid=sidebar-handle]');
      await p.keyboard.press('ArrowLeft');
      const w2 = await p.evaluate(() => document.querySelector('#sidebar')?.getBoundingClientRect().width);
      assert.equal(w2, 570);
      assert.equal(await p.getAttribute('[data-testid=sidebar-handle]', 'aria-valuenow'), '570');
      await p.reload();
      await p.waitForSelector('[data-testid=sidebar-handle]');
      assert.equal(await p.evaluate(() => document.querySelector('#sidebar')?.getBoundingClientRect().width), 570);
      await p.evaluate(() => localStorage.removeItem('latscope-sidebar-width'));
      noPageErrors(c);
    },
  },
  {
    name: 'views: a list of 90 files is tables of 40 rows laid out as scrolled to (one header, natural order across them, columns in line), a file in the last one can be left out and given an offset, an editor at a boundary stays under its file',
    async run(c) {
      const p = c.page;
      const dir = path.join(OUT, 'many-files');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const src = fixture('local', 'local_clat_hist.1.log');
      const files = Array.from({ length: 90 }, (_, i) => {
        const f = path.join(dir, `local_clat_hist.${i + 1}.log`);
        fs.copyFileSync(src, f);
        return f;
      });
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      const shape = await p.evaluate(() => ({
        tables: document.querySelectorAll('#file-table table.file-table').length,
        heads: document.querySelectorAll('#file-table thead').length,
        // Files per table: a file's trust line goes with it and does not count.
        boxed: Array.from(document.querySelectorAll('#file-table .file-chunk')).map((b) => [b.querySelectorAll('tbody tr:not(.trust-line)').length, getComputedStyle(b).contentVisibility]),
        first: document.querySelectorAll('#file-table > table tbody tr:not(.trust-line)').length,
        order: Array.from(document.querySelectorAll('#file-table tbody tr:not(.trust-line)')).map((tr) => /** @type {HTMLElement} */ (tr).dataset.file),
      }));
      assert.equal(shape.tables, 3);
      assert.equal(shape.heads, 1, 'one header, on the first table');
      assert.equal(shape.first, 40);
      assert.deepEqual(shape.boxed, [[40, 'auto'], [10, 'auto']], 'later tables are laid out when scrolled to');
      assert.deepEqual(shape.order, files.map((f) => path.basename(f)), 'natural order (1, 2, ... 90) across the tables');
      // Scrolled to, the last table's columns line up with the first's.
      const last = '[data-testid=file-table] tr[data-file="local_clat_hist.90.log"]';
      await p.locator(last).scrollIntoViewIfNeeded();
      // Scrolled to, the last table is laid out and shown within a frame or two
      // (content-visibility: auto), with no blank place of 40 rows under 10.
      await p.waitForFunction(() => {
        const tr = /** @type {HTMLElement} */ (document.querySelector('#file-table tr[data-file="local_clat_hist.90.log"]'));
        return tr.checkVisibility({ contentVisibilityAuto: true });
      });
      const boxes = await p.$$eval('#file-table .file-chunk', (bs) => bs.map((b) => [b.getBoundingClientRect().height, /** @type {HTMLElement} */ (b.querySelector('table')).getBoundingClientRect().height]));
      assert.ok(boxes.every(([box, table]) => Math.abs(box - table) <= 2), `each later table's box is as tall as its rows: ${JSON.stringify(boxes)} (box, table) px`);
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const cols = await p.evaluate(() => {
        const xs = (/** @type {string} */ sel) => Array.from(/** @type {HTMLElement} */ (document.querySelector(sel)).querySelectorAll('td')).map((td) => Math.round(td.getBoundingClientRect().left));
        return { a: xs('#file-table tr[data-file="local_clat_hist.1.log"]'), b: xs('#file-table tr[data-file="local_clat_hist.90.log"]') };
      });
      assert.deepEqual(cols.b, cols.a, 'columns in line');
      await p.screenshot({ path: path.join(SHOTS, 'views-file-table-90-last-rows.png') });
      // Leave out the 90th file: the state says so, and its box stays checked off.
      await p.click(`${last} input[type=checkbox]`);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.exclude_sources.includes('local_clat_hist.90.log'));
      await settled(p);
      assert.equal(await p.isChecked(`${last} input[type=checkbox]`), false);
      // The 40th file's offset editor (the first table's last row) opens under it.
      const fortieth = '[data-testid=file-table] tr[data-file="local_clat_hist.40.log"]';
      await p.click(`${fortieth} [data-testid=file-offset]`);
      const editor = await p.evaluate(() => {
        const ed = /** @type {HTMLElement} */ (document.querySelector('#file-table tr.offset-editor'));
        const prev = /** @type {HTMLElement} */ (ed.previousElementSibling);
        return { file: ed.dataset.file, prev: prev.dataset.file, firstRows: document.querySelectorAll('#file-table > table tbody tr:not(.trust-line)').length };
      });
      assert.deepEqual(editor, { file: 'local_clat_hist.40.log', prev: 'local_clat_hist.40.log', firstRows: 41 });
      await p.fill('[data-testid=file-offset-input]', '5000');
      await p.click('[data-testid=file-offset-set]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.offsets['local_clat_hist.40.log'] === 5000);
      await settled(p);
      assert.equal((await p.textContent(`${fortieth} [data-testid=file-offset]`))?.trim(), '5s');
      noPageErrors(c);
    },
  },
  {
    name: 'views: fio json+ output alone shows each job\'s whole run (docs/whole-run.md): the engine says so, a quantum as long as the run gives the CLI\'s numbers, the spectrum draws',
    async run(c) {
      const p = c.page;
      const json = fixture('local', 'local.json');
      assert.equal(await loadThroughInput(p, c.url, [json]), 'ready');
      await p.selectOption('[data-testid=quantum]', '60000');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.quantum_ms === 60000);
      await settled(p);
      const notes = (await p.textContent('[data-testid=query-notes]')) || '';
      assert.match(notes, /only fio json\+ output is selected/, notes);
      const s = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      assert.equal(csv, cliPctiles(['--quantum', '60000', '--percentiles', s.percentiles.join(',')], [json]));
      await showView(p, 'spectrum');
      assert.ok((await p.$$('#view-spectrum path')).length > 0, 'the spectrum draws');
      await p.screenshot({ path: path.join(SHOTS, 'views-json-alone.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'views: PNG and SVG exports carry a title and the context (logs, quantum, time range, groups, directions)',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      await p.selectOption('[data-testid=group-by]', 'host');
      await p.click('#dirs input[value=t]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.directions === 'r,w');
      await settled(p);
      const svg = (await download(p, '[data-testid=export-svg]')).bytes.toString('utf8');
      const cap = await p.evaluate((t) => {
        const d = new DOMParser().parseFromString(t, 'image/svg+xml');
        return { err: d.querySelector('parsererror')?.textContent || '', lines: Array.from(d.querySelectorAll('.export-caption text')).map((x) => x.textContent), h: Number(d.documentElement.getAttribute('height')) };
      }, svg);
      assert.equal(cap.err, '');
      assert.equal(cap.lines[0], 'latscope — Latency percentiles over time');
      assert.match(cap.lines[1] || '', /^4 logs: s1_clat_hist\.1\.log\.127\.0\.0\.1, s1_clat_hist\.1\.log\.127\.0\.0\.2, s1_clat_hist\.2\.log\.127\.0\.0\.1, … \(1 more\)$/);
      assert.match(cap.lines[2] || '', /^quantum 1 s · whole run 0 s … \d+ s$/);
      assert.match(cap.lines[3] || '', /groups: host=127\.0\.0\.1, host=127\.0\.0\.2 · directions: read, write · p50 p90 p99 p99\.9 max · unit µs/);
      // Zoomed: the time range is the zoom's.
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ range: [2000, 5000] }));
      await settled(p);
      await p.click('[data-testid=tab-heatmap]');
      await settled(p);
      const png = (await download(p, '[data-testid=export-png]')).bytes;
      fs.writeFileSync(path.join(SHOTS, 'views-export-heatmap.png'), png);
      const frameH = await p.evaluate(() => /** @type {any} */ (window).latscope.views.heatmap.frame.height);
      assert.ok(png.readUInt32BE(20) > 2 * frameH, 'the PNG is taller than the chart by the caption band');
      const hsvg = (await download(p, '[data-testid=export-svg]')).bytes.toString('utf8');
      assert.match(hsvg, /latscope — Latency heat map/);
      assert.match(hsvg, /quantum 1 s · time 2 s … 5 s/);
      assert.match(hsvg, /groups: cluster · directions: read, write · rows: latency/);
      fs.writeFileSync(path.join(SHOTS, 'views-export-pctiles.svg'), svg);
      noPageErrors(c);
    },
  },
  {
    name: 'views: a busy indicator (role=status, aria-busy on the panels) shows while a query runs and goes when it is answered',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, LOCAL()), 'ready');
      await settled(p);
      assert.equal(await p.getAttribute('[data-testid=view-panels]', 'aria-busy'), 'false');
      assert.equal(await p.getAttribute('[data-testid=busy]', 'role'), 'status');
      // Hold the engine's next answer until the test lets it go.
      await p.evaluate(() => {
        const w = /** @type {any} */ (window);
        const e = w.latscope.engine;
        const query = e.queryColumns.bind(e);
        w.__gate = new Promise((res) => (w.__open = res));
        e.queryColumns = async (/** @type {any} */ o) => {
          await w.__gate;
          return query(o);
        };
      });
      await p.selectOption('[data-testid=quantum]', '2000');
      await p.waitForSelector('[data-testid=busy].on', { state: 'visible' });
      assert.equal(await p.getAttribute('[data-testid=view-panels]', 'aria-busy'), 'true');
      assert.equal(await p.textContent('[data-testid=busy]'), 'Computing…');
      await p.screenshot({ path: path.join(SHOTS, 'views-busy.png') });
      await p.evaluate(() => /** @type {any} */ (window).__open());
      await p.waitForFunction(() => document.querySelector('[data-testid=view-panels]')?.getAttribute('aria-busy') === 'false');
      assert.equal(await p.isVisible('[data-testid=busy]'), false);
      assert.equal(await p.evaluate(() => /** @type {any} */ (window).latscope.pct.quantum_ms), 2000);
      noPageErrors(c);
    },
  },
  {
    name: 'views: SLA labels of thresholds close together are moved apart, none overprints another, each near its line with its rule as a tooltip',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      await settled(p);
      // Three thresholds within 10% of each other: a few pixels apart on the log axis.
      await p.fill('[data-testid=sla]', 'p99 < 2ms, p99.9 <= 2.1ms, max < 2.2ms');
      await p.press('[data-testid=sla]', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.sla.length === 3);
      await settled(p);
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles .sla-label').length === 3);
      const ov = await overlaps(p, '#view-pctiles .sla-label');
      assert.equal(ov.n, 3);
      assert.deepEqual(ov.hits, [], 'SLA labels overprint each other');
      const placed = await p.$$eval('#view-pctiles .sla-label', (ts) =>
        ts.map((t) => {
          const rule = t.getAttribute('data-rule');
          const line = document.querySelector(`#view-pctiles .sla-lines line[data-rule="${rule}"]`);
          return { rule, y: Number(t.getAttribute('y')), line: Number(line?.getAttribute('y1')), title: t.querySelector('title')?.textContent || '' };
        }),
      );
      const lineGap = Math.max(...placed.map((x) => x.line)) - Math.min(...placed.map((x) => x.line));
      assert.ok(lineGap < 13, `the thresholds lie closer than a label's height: ${JSON.stringify(placed)}`);
      for (const l of placed) {
        assert.ok(Math.abs(l.y - (l.line - 4)) <= 2 * 13 + 1e-6, `label of ${l.rule} stays near its line: ${JSON.stringify(l)}`);
        assert.equal(l.title, `SLA rule ${l.rule}`);
      }
      await p.screenshot({ path: path.join(SHOTS, 'pctiles-sla-labels.png') });
      noPageErrors(c);
    },
  },
];
