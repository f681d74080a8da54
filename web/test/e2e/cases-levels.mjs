// End-to-end: a result with several resolutions opened from a URL by range
// requests (issue 9 §4; load/levels.js, app/level-view.js). The page reads
// the directory, indexes and the coarse level, not the file; a zoom is drawn
// at once from the level loaded, then reads the 1 s blocks around it; the CSV of the zoomed range equals `latscope
// pctiles` on the whole file over that range; reset zoom goes back. The
// file's own offset of whole cells keeps its levels summed over hosts
// (docs/page-loading.md §8, "Levels summed over hosts").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { brushBox, cliPath, cliPctiles, download, loadThroughInput, settled, waitDone } from './helpers.mjs';
import { serveStatic } from './server.mjs';
import { OUT, SHOTS, REPO } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[], context: import('playwright-core').BrowserContext}} Ctx */

/** 2 hosts x 1 h of 1 s logs reduced with levels 1 s, 10 s, 1 min: OUT/levels/day.lsr. */
function dayResult() {
  const dir = path.join(OUT, 'levels');
  const day = path.join(dir, 'day.lsr');
  if (fs.existsSync(day)) return day;
  fs.mkdirSync(dir, { recursive: true });
  const logs = execFileSync('python3', [path.join(REPO, 'tests/bench/make_hosts_data.py'), '--out', path.join(dir, 'logs'), '--hosts', '2', '--seconds', '3600'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
  const files = fs.readdirSync(logs).filter((n) => !n.startsWith('.')).map((n) => path.join(logs, n));
  execFileSync(cliPath(), ['reduce', '--quantum', '1000', '--levels', '1000,10000,60000', '--keep', 'host,dir', ...files, '-o', day], { stdio: ['ignore', 'ignore', 'pipe'] });
  return day;
}

const statusText = (/** @type {import('playwright-core').Page} */ p) => p.textContent('[data-testid=status]').then((t) => t ?? '');
const state = (/** @type {import('playwright-core').Page} */ p) => p.evaluate(() => /** @type {any} */ (window).latscope.store.state);

export const LEVEL_CASES = [
  {
    name: 'a result with several resolutions by #url=: coarse first by range requests, a zoom reads 1 s around it, csv equals the CLI on the file',
    /** @param {Ctx} c */
    async run(c) {
      const p = c.page;
      const day = dayResult();
      const size = fs.statSync(day).size;
      const data = await serveStatic(path.dirname(day), { cors: true });
      try {
        // A budget of 2 MB holds ~3,900 cells: not the whole 1 s level (7,200).
        await p.goto(`${c.url}?budget=2MB#url=${data.url}day.lsr`);
        assert.equal(await waitDone(p), 'ready');
        let status = await statusText(p);
        assert.match(status, /day\.lsr: 3 resolutions \(1 s, 10 s, 1 min\); showing 10 s for the whole time/, status);
        assert.equal((await state(p)).quantum_ms, 10000);
        const read = () => data.ranges.reduce((a, r) => a + r.end - r.start + 1, 0);
        // One HEAD for the size; every GET a range.
        const asked = () => data.requests.filter((r) => r === '/day.lsr').length;
        assert.ok(data.ranges.length > 0, 'read by ranges');
        assert.equal(asked(), data.ranges.length + 1, 'a HEAD and range requests, no whole GET');
        const first = read();
        assert.ok(first < size / 2, `read ${first} of ${size} bytes for the 10 s level`);
        await p.screenshot({ path: path.join(SHOTS, 'levels-day-coarse.png') });

        // Ten minutes: answered at once from the 10 s level the engine holds
        // (followLevel), while the 1 s blocks are still on their way: they
        // are held here until the zoomed view has been drawn.
        /** @type {() => void} */
        let release = () => {};
        const held = new Promise((r) => (release = () => r(undefined)));
        let heldRequests = 0;
        await p.route(`${data.url}day.lsr`, async (route) => {
          heldRequests++;
          await held;
          await route.continue();
        });
        const draws = await p.evaluate(() => /** @type {any} */ (window).latscope.pctDraws);
        await p.evaluate(() => /** @type {any} */ (window).latscope.setRange([600000, 1200000]));
        await p.waitForFunction((n) => /** @type {any} */ (window).latscope.pctDraws > n, draws, { timeout: 60000 });
        await p.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('data-state') === 'loading', null, { timeout: 60000 });
        assert.ok(heldRequests >= 1, 'the 1 s blocks were asked for');
        assert.deepEqual(await p.evaluate(() => [/** @type {any} */ (window).latscope.lod.current.li, /** @type {any} */ (window).latscope.store.state.quantum_ms]), [1, 10000], 'the first answer is the 10 s level');
        assert.match(await statusText(p), /^Reading day\.lsr: 1 s for 30 min around the zoom… \(showing 10 s until then\)$/);
        await p.screenshot({ path: path.join(SHOTS, 'levels-day-answer-first.png') });
        release();
        await p.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
        await p.unroute(`${data.url}day.lsr`);
        await p.waitForFunction(() => /^.*showing 1 s/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 60000 });
        assert.equal(await waitDone(p), 'ready');
        await settled(p);
        status = await statusText(p);
        assert.match(status, /showing 1 s for 30 min around the zoom/, status);
        const s = await state(p);
        assert.equal(s.quantum_ms, 1000);
        assert.deepEqual(s.range, [600000, 1200000]);
        assert.ok(read() < size, `read ${read()} of ${size} bytes after the zoom`);
        assert.equal(asked(), data.ranges.length + 1, 'still no whole GET');
        // The time past the slice is not loaded, not "no I/O".
        assert.equal(await p.isHidden('text=/no I\\/O in any group/'), true, 'no gap note for the time not read');
        const { bytes } = await download(p, '[data-testid=export-csv]');
        assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '1000', '--from', '600000', '--to', '1200000'], [day]));
        await p.screenshot({ path: path.join(SHOTS, 'levels-day-zoomed.png') });

        // A jump outside the 1 s blocks: answered first from the overview
        // engine (the 1 min level whole, read in the background since the
        // first zoom), then the 1 s blocks there.
        await p.waitForFunction(() => !!(/** @type {any} */ (window).latscope.overview), null, { timeout: 60000 });
        /** @type {() => void} */
        let release2 = () => {};
        const held2 = new Promise((r) => (release2 = () => r(undefined)));
        await p.route(`${data.url}day.lsr`, async (route) => {
          await held2;
          await route.continue();
        });
        const draws2 = await p.evaluate(() => /** @type {any} */ (window).latscope.pctDraws);
        await p.evaluate(() => /** @type {any} */ (window).latscope.setRange([2700000, 3300000]));
        await p.waitForFunction((n) => /** @type {any} */ (window).latscope.pctDraws > n, draws2, { timeout: 60000 });
        assert.deepEqual(await p.evaluate(() => [/** @type {any} */ (window).latscope.pct.quantum_ms, /** @type {any} */ (window).latscope.store.state.quantum_ms]), [60000, 1000], 'the first answer is the overview at 1 min');
        assert.match(await statusText(p), /^Reading day\.lsr: 1 s for 20 min around the zoom… \(showing 1 min until then\)$/);
        await p.screenshot({ path: path.join(SHOTS, 'levels-day-overview-first.png') });
        release2();
        await p.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
        await p.unroute(`${data.url}day.lsr`);
        await settled(p);
        assert.equal(await p.evaluate(() => /** @type {any} */ (window).latscope.pct.quantum_ms), 1000);
        const jumped = await download(p, '[data-testid=export-csv]');
        assert.equal(jumped.bytes.toString('utf8'), cliPctiles(['--quantum', '1000', '--from', '2700000', '--to', '3300000'], [day]));

        // Reset zoom: the whole time again, at 10 s.
        await p.click('#reset-zoom');
        await p.waitForFunction(() => /showing 10 s for the whole time/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 60000 });
        await settled(p);
        assert.equal((await state(p)).quantum_ms, 10000);
        const all = await download(p, '[data-testid=export-csv]');
        assert.equal(all.bytes.toString('utf8'), cliPctiles(['--quantum', '10000'], [day]));
        assert.deepEqual(c.errors, []);
      } finally {
        await data.close();
      }
    },
  },
  {
    name: 'a result with several resolutions through the file input: the coarse level first, a brush zoom over ten minutes reads 1 s there, csv equals the CLI',
    /** @param {Ctx} c */
    async run(c) {
      const p = c.page;
      const day = dayResult();
      assert.equal(await loadThroughInput(p, `${c.url}?budget=2MB`, [day]), 'ready');
      assert.match(await statusText(p), /day\.lsr: 3 resolutions \(1 s, 10 s, 1 min\); showing 10 s for the whole time/);
      // Drag across a sixth of the hour's plot, as a person zooms.
      const box = await brushBox(p);
      assert.ok(box, 'the brush overlay');
      const y = box.y + box.height / 2;
      await p.mouse.move(box.x + box.width * 0.4, y);
      await p.mouse.down();
      await p.mouse.move(box.x + box.width * 0.56, y, { steps: 8 });
      await p.mouse.up();
      await p.waitForFunction(() => /showing 1 s/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 60000 });
      await p.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
      await settled(p);
      const s = await state(p);
      assert.equal(s.quantum_ms, 1000);
      assert.ok(s.range && s.range[1] - s.range[0] <= 700000, `a zoom of about ten minutes: ${s.range}`);
      const { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '1000', '--from', String(s.range[0]), '--to', String(s.range[1])], [day]));
      await p.screenshot({ path: path.join(SHOTS, 'levels-file-brushed.png') });
      assert.deepEqual(c.errors, []);
    },
  },
  {
    name: 'a result of several hosts with levels: its own offset of whole minutes, set in its row, keeps the levels summed over hosts (csv equals the CLI with --offset); 2.5 s splits their cells and reads the finest level, as the CLI (csv equals it)',
    /** @param {Ctx} c */
    async run(c) {
      const p = c.page;
      const day = dayResult();
      assert.equal(await loadThroughInput(p, c.url, [day]), 'ready');
      /** The level the engine holds: its quantum, and whether it is summed over hosts (level-view.js). */
      const held = () =>
        p.evaluate(async () => {
          const a = /** @type {any} */ (window).latscope;
          await a.levelBusy;
          const lod = a.session.levels.lod;
          return { q: lod.levels[lod.current.li].level.quantum_ms, summed: !!lod.current.summed, note: lod.note() };
        });
      await settled(p);
      const opened = await held();
      assert.deepEqual([opened.q, opened.summed], [10000, true], opened.note);
      const row = '[data-testid=file-table] tr[data-file="day.lsr"]';
      await p.click(`${row} [data-testid=file-offset]`);
      await p.fill('[data-testid=file-offset-input]', '120000');
      await p.click('[data-testid=file-offset-set]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.offsets['day.lsr'] === 120000);
      await settled(p);
      const moved = await held();
      assert.deepEqual([moved.q, moved.summed], [10000, true], `every host moved alike: the sums answer (${moved.note})`);
      const { bytes } = await download(p, '[data-testid=export-csv]');
      const csv = bytes.toString('utf8');
      assert.equal(csv, cliPctiles(['--quantum', '10000', '--offset', 'day.lsr=120000'], [day]));
      assert.notEqual(csv, cliPctiles(['--quantum', '10000'], [day]), 'the offset changes the CSV');
      // 2.5 s splits the 10 s cells: the hosts' parts added would differ from the sum's in the last digits, and
      // the 10 s level from the CLI, which reads the finest level under any offset: so does the page.
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ offsets: { 'day.lsr': 2500 } }));
      await p.waitForFunction(() => !(/** @type {any} */ (window).latscope.session.levels.lod.current.summed), null, { timeout: 60000 });
      await settled(p);
      const split = await held();
      assert.deepEqual([split.q, split.summed], [1000, false], split.note);
      const q = String((await state(p)).quantum_ms);
      const { bytes: splitBytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(splitBytes.toString('utf8'), cliPctiles(['--quantum', q, '--offset', 'day.lsr=2500'], [day]));
      assert.deepEqual(c.errors, []);
    },
  },
];
