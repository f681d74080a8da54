// End-to-end cases of the percentile methods, latency kinds,
// coordinated-omission correction and heat maps by block size / offset:
// fio per-I/O logs (write_lat_log) loaded through the file input, the
// page's CSV compared byte for byte with the native CLI's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { cliPath, cliPctiles, fixture, fixtureFiles, loadThroughInput, download, canvasStats, settled } from './helpers.mjs';
import { SHOTS } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

/** fio 3.33 per-I/O logs of one job, written with log_offset=1: lat, clat, slat. */
const FL = () => ['fl_clat.1.log', 'fl_lat.1.log', 'fl_slat.1.log'].map((f) => fixture('fio_lat', f));
/** The client/server run's per-I/O clat logs (two hosts, two jobs). */
const S1_PER_IO = () => fixtureFiles('fio-s1', /^s1_clat\.\d\.log\./);
const state = (/** @type {import('playwright-core').Page} */ p) => p.evaluate(() => /** @type {any} */ (window).latscope.store.state);

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const METHOD_CASES = [
  {
    name: 'per-I/O logs: kinds selector (default clat) with the engine note; exact CSV equals `latscope pctiles --method exact`',
    async run(c) {
      const p = c.page;
      const files = FL();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      // Three kinds loaded: the selector shows, on the engine's default, and the note says what was left out.
      assert.ok(await p.isVisible('[data-testid=kinds]'), 'kind selector shown');
      const kinds = await p.$$eval('[data-testid=kinds] option', (os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).textContent));
      assert.deepEqual(kinds, ['clat (default)', 'lat', 'slat']);
      await p.waitForSelector('[data-testid=query-notes]:not([hidden])');
      assert.match((await p.textContent('[data-testid=query-notes]')) || '', /lat, slat left out/);
      // exact is enabled: every input is a per-I/O log.
      const exact = await p.$eval('[data-testid=method] option[value=exact]', (o) => ({ disabled: /** @type {HTMLOptionElement} */ (o).disabled, title: /** @type {HTMLOptionElement} */ (o).title }));
      assert.equal(exact.disabled, false, exact.title);
      await p.selectOption('[data-testid=method]', 'exact');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.method === 'exact');
      let { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles(['--method', 'exact'], files));
      // Another kind: the note goes, the CSV follows --kind.
      await p.selectOption('[data-testid=kinds]', 'lat');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.kinds === 'lat');
      await settled(p);
      assert.equal(await p.isHidden('[data-testid=query-notes]'), true, 'no kind note once a kind is chosen');
      ({ bytes } = await download(p, '[data-testid=export-csv]'));
      assert.equal(bytes.toString('utf8'), cliPctiles(['--method', 'exact', '--kind', 'lat'], files));
      noPageErrors(c);
    },
  },
  {
    name: 'exact is disabled, with the reason as its title, when a histogram log is selected too; excluding it enables exact',
    async run(c) {
      const p = c.page;
      const hist = fixture('fio_lat', 'fl_clat_hist.1.log');
      assert.equal(await loadThroughInput(p, c.url, [fixture('fio_lat', 'fl_clat.1.log'), hist]), 'ready');
      const opt = () => p.$eval('[data-testid=method] option[value=exact]', (o) => ({ disabled: /** @type {HTMLOptionElement} */ (o).disabled, title: /** @type {HTMLOptionElement} */ (o).title }));
      let o = await opt();
      assert.equal(o.disabled, true);
      assert.match(o.title, /every selected input to be a fio per-I\/O log.*fl_clat_hist\.1\.log/);
      assert.equal(await p.isHidden('[data-testid=kinds]'), true, 'one kind: no selector');
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ exclude_sources: ['fl_clat_hist.1.log'] }));
      o = await opt();
      assert.equal(o.disabled, false, o.title);
      noPageErrors(c);
    },
  },
  {
    name: 'coordinated omission: corrected (dashed) and recorded series in percentiles and spectrum; CSV equals `latscope pctiles --co-interval 1`; heat map says recorded',
    async run(c) {
      const p = c.page;
      const files = S1_PER_IO();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.fill('[data-testid=co-interval]', '1');
      await p.press('[data-testid=co-interval]', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.co_interval_ms === 1);
      await settled(p);
      const pct = await p.evaluate(() => /** @type {any} */ (window).latscope.pct.groups);
      assert.deepEqual(pct, ['co=corrected', 'co=uncorrected']);
      const lines = await p.$$eval('#view-pctiles path.line-p', (ps) => ps.map((x) => [x.getAttribute('data-co'), x.getAttribute('stroke-dasharray')]));
      assert.equal(lines.length, 10, 'five percentiles, twice');
      assert.ok(lines.filter(([co]) => co === 'corrected').every(([, d]) => d && d !== ''), 'corrected lines dashed');
      assert.ok(lines.filter(([co]) => co === 'uncorrected').every(([, d]) => !d), 'recorded lines solid');
      const legend = await p.textContent('#view-pctiles .legend');
      assert.match(legend || '', /recorded \(co=uncorrected\)/);
      assert.match(legend || '', /corrected for coordinated omission, interval 1 ms/);
      await p.screenshot({ path: path.join(SHOTS, 'co-pctiles.png') });

      const { bytes } = await download(p, '[data-testid=export-csv]');
      const csv = bytes.toString('utf8');
      const want = cliPctiles(['--co-interval', '1'], files);
      assert.equal(csv, want);
      // The corrected rows are the CLI's corrected rows, and they differ from the recorded ones.
      const rows = (/** @type {string} */ t, /** @type {string} */ g) => t.split('\n').filter((l) => l.split(',')[1] === g);
      assert.deepEqual(rows(csv, 'co=corrected'), rows(want, 'co=corrected'));
      assert.ok(rows(csv, 'co=corrected').length > 10);
      assert.notDeepEqual(rows(csv, 'co=corrected').map((l) => l.split(',').slice(2).join()), rows(csv, 'co=uncorrected').map((l) => l.split(',').slice(2).join()));

      await p.click('[data-testid=tab-spectrum]');
      await p.waitForSelector('#view-spectrum path.spectrum-line');
      await settled(p);
      const curves = await p.$$eval('#view-spectrum path.spectrum-line', (ps) => ps.map((x) => [x.getAttribute('data-co'), x.getAttribute('stroke-dasharray')]));
      assert.deepEqual(curves.map((x) => x[0]).sort(), ['corrected', 'uncorrected']);
      assert.ok(curves.find((x) => x[0] === 'corrected')?.[1], 'corrected curve dashed');
      const slegend = await p.textContent('#view-spectrum .legend');
      assert.match(slegend || '', /corrected \(interval 1 ms\)/);
      assert.match(slegend || '', /recorded/);
      await p.screenshot({ path: path.join(SHOTS, 'co-spectrum.png') });

      await p.click('[data-testid=tab-heatmap]');
      await p.waitForSelector('[data-testid=heat-co-note]');
      assert.match((await p.textContent('[data-testid=heat-co-note]')) || '', /recorded data/);
      noPageErrors(c);
    },
  },
  {
    name: 'heat map by block size and by offset from per-I/O logs: byte axes, CSV equals `latscope heatmap --y bs --header-units` (core writes it)',
    async run(c) {
      const p = c.page;
      const file = fixture('fio_lat', 'fl_clat.1.log');
      assert.equal(await loadThroughInput(p, c.url, [file]), 'ready');
      await p.click('[data-testid=tab-heatmap]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm);
      await p.selectOption('[data-testid=heat-y]', 'bs');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.y === 'bs');
      await settled(p);
      const ticks = await p.$$eval('#view-heatmap .y-axis .tick text', (ts) => ts.map((t) => t.textContent));
      assert.ok(ticks.includes('4 KiB'), `block-size ticks: ${ticks.join(' ')}`);
      assert.match((await p.textContent('#view-heatmap svg')) || '', /block size \(bytes\)/);
      const st = await canvasStats(p, 'heatmap');
      assert.ok(st.all > 0.2, `cells painted: ${st.all}`);
      await p.screenshot({ path: path.join(SHOTS, 'heatmap-bs.png') });
      const { bytes } = await download(p, '[data-testid=export-view-csv]');
      const want = execFileSync(cliPath(), ['heatmap', '--y', 'bs', '--header-units', file], { encoding: 'utf8' });
      assert.equal(bytes.toString('utf8'), want);

      await p.selectOption('[data-testid=heat-y]', 'offset');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.y === 'offset');
      await settled(p);
      const oticks = await p.$$eval('#view-heatmap .y-axis .tick text', (ts) => ts.map((t) => t.textContent));
      assert.ok(oticks.some((t) => /MiB/.test(t || '')), `offset ticks: ${oticks.join(' ')}`);
      await p.screenshot({ path: path.join(SHOTS, 'heatmap-offset.png') });
      assert.equal((await state(p)).heatY, 'offset');
      noPageErrors(c);
    },
  },
  {
    name: 'heat map by block size beside a histogram log: the notes bar names the histogram I/Os left out (the grid\'s own notes, as `latscope heatmap --y bs` says), the percentiles and groups views their own; back on the heat map, its own again',
    async run(c) {
      const p = c.page;
      const files = [fixture('local', 'local_clat.1.log'), fixture('local', 'local_clat_hist.2.log')];
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      const notes = async () => ((await p.isHidden('[data-testid=query-notes]')) ? '' : (await p.textContent('[data-testid=query-notes]')) || '');
      const cliNote = spawnSync(cliPath(), ['heatmap', '--y', 'bs', ...files], { encoding: 'utf8' }).stderr;
      const left = /left out of the heat map by bs/;
      assert.equal(await notes(), '', 'the percentiles view has nothing to note');
      await p.click('[data-testid=tab-heatmap]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm);
      await p.selectOption('[data-testid=heat-y]', 'bs');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.y === 'bs');
      await settled(p);
      const shown = await notes();
      assert.match(shown, left, shown);
      // The same sentence the CLI writes on stderr ("latscope: note: ...").
      const text = shown.replace(/^Note: /, '');
      assert.ok(text.length > 40 && cliNote.includes(`note: ${text}`), `page: ${text}\ncli: ${cliNote}`);
      await p.screenshot({ path: path.join(SHOTS, 'heatmap-bs-notes.png') });
      // A tab's refresh may start after the click returns: wait for the bar, then read it.
      const barSays = (/** @type {boolean} */ want) =>
        p.waitForFunction((w) => {
          const el = document.querySelector('[data-testid=query-notes]');
          return /left out of the heat map by bs/.test(el && !(/** @type {HTMLElement} */ (el).hidden) ? el.textContent || '' : '') === w;
        }, want);
      await p.click('[data-testid=tab-pctiles]');
      await barSays(false);
      await settled(p);
      assert.doesNotMatch(await notes(), left, 'the percentiles view draws every I/O: no such note');
      // The groups view draws an answer of its own too: the heat map's must outlive it.
      await p.click('[data-testid=tab-groups]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'groups');
      await barSays(false);
      await settled(p);
      await p.click('[data-testid=tab-heatmap]');
      await barSays(true);
      await settled(p);
      assert.match(await notes(), left, 'back on the heat map, its own notes again');
      noPageErrors(c);
    },
  },
];
