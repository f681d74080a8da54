// End-to-end cases of the quantum that follows the zoom and of the worst
// quantum per pixel column (docs/page-views.md, "Quantum follows the zoom",
// "Worst quantum per column"): an hour of 1 s logs loaded through the file
// input, zoomed with the brush as a person does; every number is compared
// with `build/latscope pctiles` on the same files. No timing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { brushBox, cliPctiles, download, loadThroughInput, settled } from './helpers.mjs';
import { OUT, SHOTS, REPO } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

/** The second whose quantum holds the spike (spikyHour). */
const SPIKE_S = 1800;

/**
 * One host's hour of 1 s fio histogram logs (tests/bench/make_hosts_data.py)
 * and the same log with one window far above its neighbours: 60 I/Os more
 * in a bin near 0.5 s at second SPIKE_S, one quantum long.
 * @returns {{plain: string, spiky: string}}
 */
function spikyHour() {
  const dir = path.join(OUT, 'zoom');
  const spiky = path.join(dir, 'spiky_clat_hist.1.log');
  const gen = execFileSync('python3', [path.join(REPO, 'tests/bench/make_hosts_data.py'), '--out', path.join(dir, 'logs'), '--hosts', '1', '--seconds', '3600'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
  const plain = path.join(gen, fs.readdirSync(gen).filter((n) => !n.startsWith('.'))[0]);
  if (!fs.existsSync(spiky)) {
    const lines = fs.readFileSync(plain, 'utf8').split('\n');
    const f = lines[SPIKE_S - 1].split(', ');
    // Fields: time, direction, block size, then 116 coarse bins (coarseness 4); bin 90 is ~0.5 s.
    f[3 + 90] = String(Number(f[3 + 90]) + 60);
    lines[SPIKE_S - 1] = f.join(', ');
    fs.writeFileSync(spiky, lines.join('\n'));
  }
  return { plain, spiky };
}

/** @param {Page} p */
const state = (p) => p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
/** @param {Page} p */
const rangeText = (p) => p.textContent('#range-text').then((t) => t ?? '');

/** Drags the brush across [a, b] of the chart's width, as a person zooms. @param {Page} p @param {number} a @param {number} b */
async function brush(p, a, b) {
  const box = await brushBox(p);
  const y = box.y + box.height / 2;
  await p.mouse.move(box.x + box.width * a, y);
  await p.mouse.down();
  await p.mouse.move(box.x + box.width * b, y, { steps: 8 });
  await p.mouse.up();
}

/** The CLI's CSV as rows of numbers by column name. @param {string} csv */
function rows(csv) {
  const [head, ...lines] = csv.trim().split('\n');
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const ZOOM_CASES = [
  {
    name: 'zoom: with the quantum on auto, a brush zoom re-queries at a finer quantum (core\'s rule), the caption says it follows the zoom, the CSV equals latscope pctiles --quantum Q --from --to; a chosen quantum pins it',
    async run(c) {
      const p = c.page;
      const { plain } = spikyHour();
      assert.equal(await loadThroughInput(p, c.url, [plain]), 'ready');
      // The whole hour over the chart's columns: a coarser quantum than the logs' 1 s.
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.quantum_ms > 1000, null, { timeout: 30000 });
      await settled(p);
      const whole = await state(p);
      assert.equal(whole.quantumPinned, false);
      assert.equal(await p.inputValue('[data-testid=quantum]'), 'auto');
      const width = await p.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.frame.innerW);
      // core zoom_quantum_ms: the finest preset with at most two quanta a column, not finer than the logs' 1 s.
      const presets = [100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000];
      const expect = (/** @type {number} */ span) => presets.find((q) => q >= Math.max(1000, span / (2 * Math.floor(width))));
      const ext = await p.evaluate(() => /** @type {any} */ (window).latscope.fullExtent());
      assert.equal(whole.quantum_ms, expect(ext[1] - ext[0]), `whole hour over ${width} px`);
      assert.match(await rangeText(p), new RegExp(`quantum ${whole.quantum_ms / 1000} s · follows the zoom`));
      assert.equal((await download(p, '[data-testid=export-csv]')).bytes.toString('utf8'), cliPctiles(['--quantum', String(whole.quantum_ms)], [plain]));
      await p.screenshot({ path: path.join(SHOTS, 'zoom-auto-whole.png') });
      // A zoom over about a tenth of the hour: re-queried at a finer quantum once the zoom rests.
      await brush(p, 0.45, 0.55);
      await p.waitForFunction((q) => /** @type {any} */ (window).latscope.store.state.quantum_ms < q, whole.quantum_ms, { timeout: 30000 });
      await settled(p);
      const z = await state(p);
      assert.ok(z.range && z.range[1] - z.range[0] < 0.2 * (ext[1] - ext[0]), `zoomed: ${z.range}`);
      assert.equal(z.quantum_ms, expect(z.range[1] - z.range[0]));
      assert.match(await rangeText(p), new RegExp(`^zoom .* · quantum ${z.quantum_ms / 1000} s · follows the zoom$`));
      const zoomed = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      assert.equal(zoomed, cliPctiles(['--quantum', String(z.quantum_ms), '--from', String(z.range[0]), '--to', String(z.range[1])], [plain]));
      // The drawn lines are that answer's: every quantum in view has its column, the rows are the CSV's.
      const drawn = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.pctiles;
        return { quantum: v.data.quantum_ms, columns: v.columns, n: v.data.n };
      });
      assert.equal(drawn.quantum, z.quantum_ms);
      assert.equal(drawn.columns, null, 'no columns: each quantum has a pixel column');
      assert.equal(await p.locator('[data-testid=columns-note]').count(), 0);
      await p.screenshot({ path: path.join(SHOTS, 'zoom-auto-zoomed.png') });
      // The link keeps "auto": no q= in the fragment.
      assert.doesNotMatch(await p.evaluate(() => location.hash), /[&#]q=/);
      // Reset zoom: the whole hour's quantum again.
      await p.click('#reset-zoom');
      await p.waitForFunction((q) => /** @type {any} */ (window).latscope.store.state.quantum_ms === q, whole.quantum_ms, { timeout: 30000 });
      // A chosen quantum pins it: a zoom no longer changes it, and the link says so.
      await p.selectOption('[data-testid=quantum]', '2000');
      await p.waitForFunction(() => /[&#]q=2000/.test(location.hash));
      await brush(p, 0.2, 0.3);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.range);
      await p.waitForTimeout(600); // longer than the zoom's rest (app.js ZOOM_REST_MS): a follow would have happened
      await settled(p);
      const pinned = await state(p);
      assert.equal(pinned.quantum_ms, 2000);
      assert.equal(pinned.quantumPinned, true);
      assert.doesNotMatch(await rangeText(p), /auto/);
      // Back to auto: the zoom's quantum again.
      await p.selectOption('[data-testid=quantum]', 'auto');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.quantum_ms !== 2000, null, { timeout: 30000 });
      await settled(p);
      const back = await state(p);
      assert.equal(back.quantum_ms, expect(back.range[1] - back.range[0]));
      assert.doesNotMatch(await p.evaluate(() => location.hash), /[&#]q=/);
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: 'zoom: a pinned 1 s quantum over the hour draws each pixel column\'s worst quantum (core columns), says so on the chart; a one-quantum spike is drawn at its value (max of the drawn series = the CLI\'s max); the CSV stays every quantum',
    async run(c) {
      const p = c.page;
      const { spiky } = spikyHour();
      assert.equal(await loadThroughInput(p, `${c.url}#v=1&q=1000`, [spiky]), 'ready');
      await settled(p);
      const s = await state(p);
      assert.equal(s.quantum_ms, 1000);
      assert.equal(s.quantumPinned, true);
      assert.equal(await p.inputValue('[data-testid=quantum]'), '1000', 'the link\'s quantum shows pinned in the selector');
      const cli = rows(cliPctiles(['--quantum', '1000'], [spiky]));
      assert.ok(cli.length >= 3600, `${cli.length} quanta`);
      const drawn = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.pctiles;
        const d = v.data;
        const nP = d.percentiles.length;
        /** @type {Record<string, number>} */
        const max = {};
        let spikeAt = NaN;
        let top = -Infinity;
        for (let i = 0; i < d.n; i++) {
          if (d.max[i] > top) {
            top = d.max[i];
            // The quantum core names for the column's max (value_t_ms: percentiles, then max, min, mean).
            spikeAt = d.value_t_ms[i * (nP + 3) + nP];
          }
          for (let k = 0; k < nP; k++) max[`p${d.percentiles[k]}`] = Math.max(max[`p${d.percentiles[k]}`] ?? -Infinity, Number.isNaN(d.p[i * nP + k]) ? -Infinity : d.p[i * nP + k]);
        }
        max.max = top;
        return { n: d.n, columns: v.columns, max, spikeAt, note: document.querySelector('[data-testid=columns-note]')?.textContent ?? '' };
      });
      assert.ok(drawn.columns, 'columns asked');
      assert.ok(drawn.n < 3600 && drawn.n <= drawn.columns.columns, `rows drawn: ${drawn.n} for ${drawn.columns.columns} columns (one a column)`);
      assert.match(drawn.note, /^worst 1 s quantum of each pixel column \(~\d+ quanta a column\)$/);
      // The spike's quantum is kept and drawn at its value: each drawn percentile's max is the CLI's max over every quantum.
      for (const col of ['p50', 'p99', 'max']) {
        const want = Math.max(...cli.map((r) => Number(r[col])).filter((x) => Number.isFinite(x)));
        assert.ok(Math.abs(drawn.max[col] - want) <= 1e-9 * want, `${col}: drawn max ${drawn.max[col]}, CLI ${want}`);
      }
      // The spike's quantum: far above its neighbours in the CLI's rows, and the one drawn at the max.
      const at = cli.findIndex((r) => Number(r.time_ms) === drawn.spikeAt);
      assert.ok(at > 0, `the max is a quantum of the CLI's: ${drawn.spikeAt}`);
      assert.ok(Number(cli[at].max) > 10 * Math.max(Number(cli[at - 1].max), Number(cli[at + 1].max)), 'one quantum far above its neighbours');
      // Hover over the spike's column names the quantum it kept.
      const box = await brushBox(p);
      assert.ok(box);
      const ext = await p.evaluate(() => /** @type {any} */ (window).latscope.fullExtent());
      await p.mouse.move(box.x + (box.width * (drawn.spikeAt + 500 - ext[0])) / (ext[1] - ext[0]), box.y + box.height / 2);
      await p.waitForFunction(() => /worst 1000 ms quantum/.test(document.querySelector('#view-pctiles .tip')?.textContent || ''));
      const tip = (await p.textContent('#view-pctiles .tip')) || '';
      // Time since the start as a duration to the millisecond ("29 min 59.000 s"; util/format.js formatRelative).
      assert.ok(drawn.spikeAt < 3600000, `${drawn.spikeAt}`);
      const mins = Math.floor(drawn.spikeAt / 60000), secs = (drawn.spikeAt % 60000) / 1000;
      const since = [mins ? `${mins} min` : '', secs || !mins ? `${secs.toFixed(3)} s` : ''].filter(Boolean).join(' ');
      assert.match(tip, new RegExp(`max: [0-9,.]+ µs \\(quantum ${since}\\)`), tip);
      await p.screenshot({ path: path.join(SHOTS, 'zoom-columns-spike.png') });
      // The CSV export is every quantum, as the CLI writes it.
      assert.equal((await download(p, '[data-testid=export-csv]')).bytes.toString('utf8'), cliPctiles(['--quantum', '1000'], [spiky]));
      // Another percentile: the percentiles query itself now asks the columns over the run (its extent known), one query.
      await p.fill('[data-testid=extra-percentiles]', '99.99');
      await p.press('[data-testid=extra-percentiles]', 'Tab');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.percentiles.includes('99.99'));
      await settled(p);
      const again = await p.evaluate(() => {
        const a = /** @type {any} */ (window).latscope;
        const d = a.views.pctiles.data;
        let top = -Infinity;
        for (let i = 0; i < d.n; i++) top = Math.max(top, d.max[i]);
        return { asked: a.scheduler.pctColumns, pctN: a.pct.n, n: d.n, top, ext: a.fullExtent() };
      });
      assert.ok(again.asked, 'the percentiles query asked columns');
      assert.equal(again.n, again.pctN, 'the chart draws the percentiles answer');
      assert.ok(again.n < 3600);
      assert.deepEqual(again.ext, ext, 'the run keeps its extent');
      const cli2 = rows(cliPctiles(['--quantum', '1000', '--percentiles', '50,90,99,99.9,99.99,100'], [spiky]));
      assert.equal(again.top, Math.max(...cli2.map((r) => Number(r.max)).filter((x) => Number.isFinite(x))));
      assert.equal(await p.locator('[data-testid=columns-note]').count(), 1);
      assert.equal((await download(p, '[data-testid=export-csv]')).bytes.toString('utf8'), cliPctiles(['--quantum', '1000', '--percentiles', '50,90,99,99.9,99.99,100'], [spiky]));
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
];
