// End-to-end cases of file offsets and quanta (docs/page-views.md): a job
// placed by its startdelay, a file's own offset set in the file table, the
// default quantum taken from the logs' interval, adaptive quanta in the
// percentiles view. Every CSV is compared with the native CLI on the same
// files, byte for byte. No timing.
import assert from 'node:assert/strict';
import path from 'node:path';
import { cliPctiles, download, fixture, fixtureFiles, loadThroughInput, settled, waitDone } from './helpers.mjs';
import { SHOTS } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

const LOCAL = () => fixtureFiles('local', /_clat_hist\.\d\.log$/);
const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);
// log_hist_msec=500, relative time (tests/fixtures/README.md, place/).
const PLACE = () => ['place_clat_hist.1.log', 'place_clat_hist.2.log'].map((f) => fixture('place', f));

// A real fio client/server run on two loopback servers (tests/fixtures/place-cs/,
// docs/placement.md): per host an early job and a startdelay job (2000 ms
// on 127.0.0.1, 1500 ms on 127.0.0.2), with fio's json+ output.
const PLACE_CS_LOGS = () => fixtureFiles('place-cs', /^pcs_clat_hist\.\d\.log\./);
const PLACE_CS = () => [fixture('place-cs', 'place-cs.json'), ...PLACE_CS_LOGS()];

/** @param {Page} p */
const state = (p) => p.evaluate(() => /** @type {any} */ (window).latscope.store.state);

/** The percentiles CSV the page exports. @param {Page} p */
async function pageCsv(p) {
  await settled(p);
  return (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const OFFSET_QUANTA_CASES = [
  {
    name: 'offsets: a late-start job of a client/server run sits where it ran: the json+ places it (file table shows the shift per host), CSV = latscope pctiles on the same files; with the json+ unticked nothing is placed (CSV = the CLI without it)',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, PLACE_CS()), 'ready');
      await p.selectOption('[data-testid=group-by]', 'host,job');
      await settled(p);
      // The shift of each delayed job, per host, as fio's json+ gives it; job 1 unmoved.
      const shown = await p.$$eval('[data-testid=file-table] tr[data-file]', (trs) =>
        Object.fromEntries(trs.map((tr) => [tr.getAttribute('data-file'), [tr.querySelector('[data-testid=file-offset]')?.textContent?.trim(), /** @type {HTMLElement|null} */ (tr.querySelector('[data-testid=file-offset]'))?.dataset.placed ?? null]])),
      );
      assert.deepEqual(shown['pcs_clat_hist.2.log.127.0.0.1'], ['2s', '2000']);
      assert.deepEqual(shown['pcs_clat_hist.2.log.127.0.0.2'], ['1.5s', '1500']);
      assert.deepEqual(shown['pcs_clat_hist.1.log.127.0.0.1'], ['—', null]);
      assert.deepEqual(shown['pcs_clat_hist.1.log.127.0.0.2'], ['—', null]);
      assert.match((await p.textContent('[data-testid=query-notes]')) || '', /placed late-start jobs by their startdelay in place-cs\.json: .*pcs_clat_hist\.2\.log\.127\.0\.0\.1 \+2000 ms/);
      // The numbers: the page's CSV is the CLI's on the same files (the CLI places too).
      const csv = await pageCsv(p);
      assert.equal(csv, cliPctiles(['--quantum', '500', '--group-by', 'host,job'], PLACE_CS()));
      assert.notEqual(csv, cliPctiles(['--quantum', '500', '--group-by', 'host,job', '--no-place'], PLACE_CS()), 'placement moves rows');
      // The delayed job's first rows with I/O start at its delay, not at 0.
      const firstBusy = (/** @type {string} */ group) => {
        const row = csv.split('\n').find((l) => l.split(',')[1] === group && Number(l.split(',')[2]) > 0);
        return Number(row?.split(',')[0]);
      };
      assert.ok(firstBusy('host=127.0.0.1;job=2') >= 2000, `job 2 on 127.0.0.1 starts at ${firstBusy('host=127.0.0.1;job=2')} ms`);
      assert.ok(firstBusy('host=127.0.0.2;job=2') >= 1500, `job 2 on 127.0.0.2 starts at ${firstBusy('host=127.0.0.2;job=2')} ms`);
      await p.screenshot({ path: path.join(SHOTS, 'offsets-quanta-placed-late-job.png') });
      // The json+ unticked: nothing says where the jobs ran, nothing is
      // moved (and no tail is added), as the CLI without that file.
      await p.click('[data-testid=file-table] tr[data-file="place-cs.json"] input[type=checkbox]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.exclude_sources.length === 1);
      await settled(p);
      await p.waitForFunction(() => !document.querySelector('[data-testid=file-table] [data-placed]'));
      assert.equal(await pageCsv(p), cliPctiles(['--quantum', '500', '--group-by', 'host,job'], PLACE_CS_LOGS()));
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: "offsets: a file's own offset set in the file table shifts that file only (CSV = latscope pctiles --offset FILE=MS), rides in the fragment, table still fits",
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, LOCAL()), 'ready');
      await settled(p);
      const name = 'local_clat_hist.2.log';
      const row = `[data-testid=file-table] tr[data-file="${name}"]`;
      assert.equal((await p.textContent(`${row} [data-testid=file-offset]`))?.trim(), '—', 'no offset yet');
      await p.click(`${row} [data-testid=file-offset]`);
      await p.fill('[data-testid=file-offset-input]', '20000');
      await p.screenshot({ path: path.join(SHOTS, 'offsets-quanta-file-offset-editor.png') });
      await p.click('[data-testid=file-offset-set]');
      await p.waitForFunction((n) => /** @type {any} */ (window).latscope.store.state.offsets[n] === 20000, name);
      await settled(p);
      assert.equal((await p.textContent(`${row} [data-testid=file-offset]`))?.trim(), '20s');
      assert.equal(await p.$('[data-testid=file-offset-input]'), null, 'the editor closes after Set');
      // Only that file moved: the host table has no offset (one local host).
      assert.deepEqual((await state(p)).offsets, { [name]: 20000 });
      const csv = await pageCsv(p);
      assert.equal(csv, cliPctiles(['--offset', `${name}=20000`], LOCAL()));
      assert.notEqual(csv, cliPctiles([], LOCAL()), 'the offset changes the CSV');
      // The sidebar still holds the table: its box stays inside, the page never scrolls sideways.
      const fit = await p.evaluate(() => ({
        box: /** @type {HTMLElement} */ (document.querySelector('#file-table')).getBoundingClientRect().right,
        side: /** @type {HTMLElement} */ (document.querySelector('#sidebar')).getBoundingClientRect().right,
        page: document.scrollingElement?.scrollWidth ?? 0,
      }));
      assert.ok(fit.box <= fit.side && fit.page <= 1440, JSON.stringify(fit));
      // In the fragment; Back undoes it, Forward brings it back from the fragment.
      assert.match(await p.evaluate(() => location.hash), /[#&]off=local_clat_hist\.2\.log:20000(&|$)/);
      await p.goBack();
      await p.waitForFunction((n) => !(/** @type {any} */ (window).latscope.store.state.offsets[n]), name);
      await settled(p);
      assert.equal((await p.textContent(`${row} [data-testid=file-offset]`))?.trim(), '—');
      await p.goForward();
      await p.waitForFunction((n) => /** @type {any} */ (window).latscope.store.state.offsets[n] === 20000, name);
      assert.equal(await pageCsv(p), csv, 'the fragment restores the same offset');
      await p.screenshot({ path: path.join(SHOTS, 'offsets-quanta-file-offset.png') });
      // Clear removes it.
      await p.click(`${row} [data-testid=file-offset]`);
      await p.click(`tr.offset-editor button:has-text("Clear")`);
      await p.waitForFunction((n) => !(/** @type {any} */ (window).latscope.store.state.offsets[n]), name);
      assert.equal(await pageCsv(p), cliPctiles([], LOCAL()));
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: "quanta: 500 ms logs open at a 500 ms quantum (CSV = latscope pctiles --quantum 500); a finer quantum shows the note; a link's quantum wins",
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, PLACE()), 'ready');
      await settled(p);
      assert.equal((await state(p)).quantum_ms, 500);
      // Not chosen: the selector says auto, the line above the chart names the quantum.
      assert.equal(await p.inputValue('[data-testid=quantum]'), 'auto');
      assert.equal(await p.textContent('#range-text'), 'quantum 500 ms · follows the zoom');
      assert.equal(await p.isVisible('[data-testid=quantum-finer]'), false, 'no finer note at the logs own interval');
      assert.equal(await pageCsv(p), cliPctiles(['--quantum', '500'], PLACE()));
      await p.screenshot({ path: path.join(SHOTS, 'offsets-quanta-default-quantum.png') });
      // Finer than the logs: the note beside the selector (one note, not a second).
      await p.selectOption('[data-testid=quantum]', '200');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.quantum_ms === 200);
      await settled(p);
      assert.equal(await p.isVisible('[data-testid=quantum-finer]'), true, 'finer note shown');
      assert.equal(await p.locator('[data-testid=quantum-finer]').count(), 1);
      assert.equal(await pageCsv(p), cliPctiles(['--quantum', '200'], PLACE()));
      await p.screenshot({ path: path.join(SHOTS, 'offsets-quanta-finer-note.png') });
      // A quantum the user chose stays when more files are opened.
      await p.setInputFiles('[data-testid=file-input]', PLACE());
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      assert.equal((await state(p)).quantum_ms, 200, 'the chosen quantum survives a new load');
      // A link's quantum wins over the logs' interval.
      await p.goto(`${c.url}#v=1&q=2000`);
      await p.setInputFiles('[data-testid=file-input]', PLACE());
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      assert.equal((await state(p)).quantum_ms, 2000);
      assert.equal(await pageCsv(p), cliPctiles(['--quantum', '2000'], PLACE()));
      // 1 s logs open at the CLI's default (the other cases rely on it).
      assert.equal(await loadThroughInput(p, c.url, LOCAL()), 'ready');
      await settled(p);
      assert.equal((await state(p)).quantum_ms, 1000);
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: 'quanta: adaptive quanta in the percentiles view are steps of each row\'s width; CSV = latscope pctiles --adaptive ACC; in the fragment',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      await settled(p);
      await p.check('[data-testid=adaptive]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.pct?.adaptive === true);
      await settled(p);
      assert.equal((await state(p)).adaptive, 0.5, 'the CLI default accuracy');
      // The page holds the result as columns; its rows are made on request.
      const pct = await p.evaluate(() => {
        const r = /** @type {any} */ (window).latscope.pct;
        return { groups: r.groups, rows: r.rows, percentiles: r.percentiles };
      });
      const widths = new Set(pct.rows.map((/** @type {any} */ r) => r.width_ms));
      assert.ok(widths.size > 1, `quanta of varying width: ${[...widths]}`);
      assert.equal(await pageCsv(p), cliPctiles(['--adaptive', '0.5'], S1()));
      // Steps: each row is a level from its start to its end, two points per row.
      const steps = await p.evaluate(() => {
        const path = document.querySelector('#view-pctiles path.line-p');
        const pts = (path?.getAttribute('d') || '').split(/[ML]/).filter(Boolean).map((s) => s.split(',').map(Number));
        let flat = 0;
        for (let i = 0; i + 1 < pts.length; i += 2) if (Math.abs(pts[i][1] - pts[i + 1][1]) < 0.01 && pts[i + 1][0] > pts[i][0]) flat++;
        return { points: pts.length, flat };
      });
      const rowsWithP50 = pct.rows.filter((/** @type {any} */ r) => r.p[0] != null).length;
      assert.equal(steps.points, 2 * rowsWithP50, 'two points per row');
      assert.equal(steps.flat, rowsWithP50, 'each row a horizontal step');
      // An open band (max: never bounded above) is marked once per row, in
      // the middle of its step, not on the step's vertical edges.
      const maxAt = pct.percentiles.indexOf('100');
      assert.ok(maxAt >= 0, `max among the default percentiles: ${pct.percentiles}`);
      {
        const marks = await p.evaluate(() => [...document.querySelectorAll('#view-pctiles path.band-open')].filter((m) => (m.getAttribute('data-key') || '').endsWith('|100')).flatMap((m) => (m.getAttribute('d') || '').split('M').filter(Boolean).map((x) => Number(x.split(',')[0]))));
        const openRows = pct.rows.filter((/** @type {any} */ r) => r.p[maxAt] != null && r.lo[maxAt] != null && r.hi[maxAt] == null).length;
        assert.ok(openRows > 0, 'max rows are open above');
        assert.equal(marks.length, openRows, `one mark per open max row: ${marks}`);
        assert.equal(new Set(marks.map((x) => Math.round(x))).size, marks.length, 'no two marks at one place (a shared step edge)');
      }
      await p.screenshot({ path: path.join(SHOTS, 'offsets-quanta-adaptive.png') });
      // Another accuracy: narrower steps, the same CSV as the CLI.
      await p.fill('[data-testid=adaptive-acc]', '2');
      await p.dispatchEvent('[data-testid=adaptive-acc]', 'change');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.adaptive === 2);
      await settled(p);
      assert.equal(await pageCsv(p), cliPctiles(['--adaptive', '2'], S1()));
      assert.match(await p.evaluate(() => location.hash), /[#&]ad=2(&|$)/);
      const n2 = await p.evaluate(() => /** @type {any} */ (window).latscope.pct.rows.length);
      assert.ok(n2 > pct.rows.length, `a looser accuracy makes more, shorter quanta (${n2} vs ${pct.rows.length})`);
      // Other views keep fixed quanta: the heat map still asks with the quantum.
      await p.click('[data-testid=tab-heatmap]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'heatmap');
      await p.waitForFunction(() => !(/** @type {any} */ (window).latscope.running));
      assert.equal(await p.evaluate(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.quantum_ms), 1000);
      await p.click('[data-testid=tab-pctiles]');
      await p.uncheck('[data-testid=adaptive]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.pct?.adaptive !== true);
      assert.equal(await pageCsv(p), cliPctiles([], S1()));
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
];
