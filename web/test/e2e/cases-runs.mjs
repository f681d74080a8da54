// End-to-end cases of runs and A/B on the page (docs/page-views.md, "Runs
// and A/B"; docs/runs.md): a folder of two real fio runs
// (tests/fixtures/ab) through the folder input, the banner naming the runs
// and the evidence, the run column, grouping by run, "Add files", the
// add-or-replace question on a drop, and the A/B dialog whose table must be
// the CLI's `latscope summary --compare` byte for byte. No timing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cliPath, fixture, waitDone, settled } from './helpers.mjs';
import { SHOTS } from './paths.mjs';
import { formatNumber, formatCount } from '../../src/util/format.js';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

const AB = () => fixture('ab');
const A = () => ['a/a.json', 'a/a_clat_hist.1.log'].map((f) => fixture('ab', f));
const B = () => ['b/b.json', 'b/b_clat_hist.1.log'].map((f) => fixture('ab', f));

/** Rows of the file table: name -> run cell ('' without a run column). @param {Page} p */
function runColumn(p) {
  return p.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => {
    const head = [...document.querySelectorAll('[data-testid=file-table] thead th')].map((th) => th.textContent);
    const at = head.indexOf('run');
    return Object.fromEntries(trs.map((tr) => [tr.getAttribute('data-file'), at < 0 ? '' : /** @type {HTMLTableRowElement} */ (tr).cells[at].textContent]));
  });
}

/** Share of painted pixels of a canvas. @param {Page} p @param {string} testid */
function painted(p, testid) {
  return p.$eval(`[data-testid=${testid}]`, (el) => {
    const c = /** @type {HTMLCanvasElement} */ (el);
    const d = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d')).getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n / (c.width * c.height);
  });
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const RUN_CASES = [
  {
    name: 'runs: a folder of two runs gets a banner with the evidence, a run column and group by run; the A/B table equals `latscope summary --compare`',
    async run(c) {
      const p = c.page;
      await p.goto(c.url);
      // The real folder picker: names are webkitRelativePath (ab/a/a.json, ...).
      await p.setInputFiles('[data-testid=folder-input]', AB());
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      const banner = p.locator('[data-testid=runs-banner]');
      assert.equal(await banner.isVisible(), true, 'no runs banner');
      const text = (await banner.textContent()) || '';
      assert.match(text, /These files are 2 runs: a \(\d files?\), b \(\d files?\)/);
      assert.match(await p.textContent('[data-testid=runs-evidence]') || '', /2 fio json outputs \(ab\/a\/a\.json, ab\/b\/b\.json\)/);
      assert.match(text, /add them together unless grouped by run/);
      const runs = await runColumn(p);
      assert.equal(runs['ab/a/a_clat_hist.1.log'], 'a');
      assert.equal(runs['ab/b/b_clat_hist.1.log'], 'b');
      assert.equal(runs['ab/b/b.json'], 'b');
      // group-by offers "each run".
      const groups = await p.$$eval('[data-testid=group-by] option', (os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value));
      assert.ok(groups.includes('run'), `group-by choices ${groups}`);
      await p.screenshot({ path: path.join(SHOTS, 'runs-banner.png') });
      // "Compare runs": grouped by run, both runs drawn apart, each from its start.
      await p.click('[data-testid=runs-group]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.group_by === 'run');
      await p.waitForFunction(() => (/** @type {any} */ (window).latscope.pct?.groups ?? []).length === 2);
      await settled(p);
      // The page holds the result as columns; its rows are made on request.
      const pct = await p.evaluate(() => {
        const r = /** @type {any} */ (window).latscope.pct;
        return { groups: r.groups, rows: r.rows };
      });
      for (const g of pct.groups) {
        const t = pct.rows.filter((/** @type {any} */ r) => r.group === g).map((/** @type {any} */ r) => r.t_ms);
        assert.ok(Math.min(...t) <= 1000, `run ${g} starts at ${Math.min(...t)} ms: relative logs start near 0 (docs/runs.md)`);
      }
      assert.match((await banner.textContent()) || '', /Shown apart \(grouped by run\)/);
      // Each run's colour in the views (its group's), for the A/B dialog below.
      const mainColour = await p.evaluate(() => {
        /** @type {Record<string, string>} */
        const out = {};
        for (const g of /** @type {any} */ (window).latscope.pct.groups) {
          const el = document.querySelector(`#view-pctiles path.line[data-key^="${g}|"]`);
          out[g] = el?.getAttribute('stroke') || '';
        }
        return out;
      });
      await p.screenshot({ path: path.join(SHOTS, 'runs-grouped.png') });
      // Spectra overlaid: the spectrum view draws one curve per run.
      await p.click('[data-testid=tab-spectrum]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'spectrum');
      await p.waitForFunction(() => !(/** @type {any} */ (window).latscope.running));
      const curves = await p.evaluate(() => /** @type {any} */ (window).latscope.views.spectrum.curves.map((/** @type {any} */ cv) => cv.group));
      assert.equal(curves.length, 2, `spectrum curves ${curves}`);
      await p.screenshot({ path: path.join(SHOTS, 'runs-spectrum.png') });
      await p.click('[data-testid=tab-pctiles]');
      await settled(p);

      // A/B: the table is the CLI's, number for number, with the page's percentiles and unit.
      await p.click('[data-testid=runs-ab]');
      await p.waitForFunction(() => document.querySelector('[data-testid=ab-dialog]')?.getAttribute('data-ready'), null, { timeout: 60000 });
      assert.equal(await p.getAttribute('[data-testid=ab-dialog]', 'data-ready'), 'true');
      const st = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      const pageCsv = await p.$eval('[data-testid=ab-table]', (t) => {
        const q = (/** @type {string} */ f) => (/[",\n\r]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
        return [.../** @type {HTMLTableElement} */ (t).rows].map((tr) => [...tr.cells].map((td) => q(/** @type {HTMLElement} */ (td).dataset.csv ?? '')).join(',')).join('\n') + '\n';
      });
      // The cells keep the CLI's fields (data-csv; compared below) and show
      // them through the page's formatter with their unit: "374 µs", not
      // "373.756480641" (this case compared the shown text with the CLI's
      // before; the text is now the formatted one).
      const shown = await p.$$eval('[data-testid=ab-table] tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => [td.textContent, /** @type {HTMLElement} */ (td).dataset.csv])));
      const unitName = st.unit === 'us' ? 'µs' : st.unit;
      for (const row of shown.slice(1)) {
        for (const j of [2, 3, 5, 6, 7, 8]) {
          const [text, raw] = row[j];
          if (!raw) continue;
          const want = row[1][1] === 'samples' ? formatCount(Number(raw)) : `${formatNumber(Number(raw))} ${unitName}`;
          assert.equal(text, want, `${row[0][1]} ${row[1][1]} column ${j}: ${raw}`);
        }
      }
      assert.ok(shown.some((r) => r[1][1] === 'mean' && /^[\d,.]+ µs$/.test(r[2][0] || '')), `the mean in µs: ${JSON.stringify(shown)}`);
      const cli = execFileSync(cliPath(), ['summary', '--compare', '--unit', st.unit, '--percentiles', st.percentiles.join(','), ...A(), ...B()], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      assert.equal(pageCsv, cli);
      // The known difference of the fixture (docs/runs.md, "Evidence"): p50
      // moves beyond bins and bands, p99 is within the sampling noise.
      assert.match(cli, /^read,p50,[^\n]*,$/m);
      assert.match(cli, /^read,p99,[^\n]*within sampling noise/m);
      // Overlay: each run's lines; heat maps and the difference painted.
      const paths = await p.$$eval('[data-testid=ab-overlay] path[data-run]', (ps) => ps.map((x) => x.getAttribute('data-run')));
      assert.ok(paths.includes('a') && paths.includes('b'), `overlay lines of runs ${paths}`);
      // Its y axis is the views' (frame.js latencyAxis): round values said by
      // the page's formatter ("10,000", not "10000"), the unit named once.
      const oTicks = await p.$$eval('[data-testid=ab-overlay] .ab-overlay-y .tick text', (ts) => ts.map((t) => t.textContent || ''));
      assert.ok(oTicks.length >= 3, `overlay y ticks ${oTicks}`);
      for (const t of oTicks) assert.equal(t, formatNumber(Number(t.replace(/,/g, ''))), `overlay tick ${t}`);
      assert.match((await p.textContent('[data-testid=ab-overlay]')) || '', /latency \(µs\)/);
      // The runs keep their colours of the views (they were blue and orange
      // of another palette in the dialog).
      const abColour = await p.$$eval('[data-testid=ab-overlay] path[data-run]', (ps) => ps.map((x) => [x.getAttribute('data-run'), x.getAttribute('stroke')]));
      for (const run of ['a', 'b']) {
        const g = Object.keys(mainColour).find((k) => k === run || k.endsWith(`=${run}`));
        assert.ok(g && mainColour[g], `run ${run} drawn in the views: ${JSON.stringify(mainColour)}`);
        const strokes = new Set(abColour.filter(([r]) => r === run).map(([, c]) => c));
        assert.deepEqual([...strokes], [mainColour[g]], `run ${run}: the dialog's colour is the views'`);
      }
      assert.notEqual(mainColour[Object.keys(mainColour)[0]], mainColour[Object.keys(mainColour)[1]]);
      for (const id of ['ab-heat-a', 'ab-heat-b', 'ab-heat-diff']) {
        const share = await painted(p, id);
        assert.ok(share > 0.05, `${id}: ${share} of the canvas painted`);
      }
      // Each heat map has time and latency axes with ticks and units, and a
      // colour legend; the difference's diverging scale names both runs.
      const axes = await p.$$eval('[data-testid^=ab-axes-]', (svgs) =>
        svgs.map((s) => ({
          id: s.getAttribute('data-testid'),
          x: s.querySelectorAll('.ab-x-axis .tick').length,
          y: s.querySelectorAll('.ab-y-axis .tick').length,
          colour: s.querySelectorAll('.ab-colour-axis .tick').length,
          bar: !!s.querySelector('rect.ab-colour-bar'),
          text: [...s.querySelectorAll('text')].map((t) => t.textContent).join(' | '),
        })),
      );
      assert.deepEqual(axes.map((a) => a.id), ['ab-axes-a', 'ab-axes-b', 'ab-axes-diff']);
      const unit = st.unit === 'us' ? 'µs' : st.unit;
      for (const a of axes) {
        assert.ok(a.x >= 3 && a.y >= 3 && a.colour >= 2 && a.bar, `${a.id}: ticks x ${a.x}, y ${a.y}, colour ${a.colour}, bar ${a.bar}`);
        assert.ok(a.text.includes(`latency (${unit})`) && a.text.includes("seconds from the run's start"), `${a.id} axis labels: ${a.text}`);
      }
      assert.match(axes[0].text, /I\/Os per cell/);
      assert.match(axes[2].text, /more in a/);
      assert.match(axes[2].text, /more in b/);
      // The canvas sits on the plot area the axes were drawn for.
      const place = await p.$eval('[data-testid=ab-heat-diff]', (cv) => {
        const b = cv.getBoundingClientRect();
        const s = /** @type {Element} */ (cv.parentElement?.querySelector('svg')).getBoundingClientRect();
        const yAxis = /** @type {SVGGElement} */ (cv.parentElement?.querySelector('.ab-y-axis .domain')).getBoundingClientRect();
        return { dx: b.left - s.left, axisRight: yAxis.right - s.left, w: b.width };
      });
      assert.ok(Math.abs(place.dx - place.axisRight) <= 1.5, `canvas at ${place.dx}, y axis at ${place.axisRight}`);
      await p.screenshot({ path: path.join(SHOTS, 'runs-ab-dialog.png') });
      await p.locator('[data-testid=ab-heat-diff]').scrollIntoViewIfNeeded();
      await p.screenshot({ path: path.join(SHOTS, 'runs-ab-dialog-heat.png') });
      // Closes from the keyboard: Tab reaches Close, Enter presses it.
      await p.focus('[data-testid=ab-csv]');
      await p.keyboard.press('Tab');
      assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'ab-close');
      await p.keyboard.press('Enter');
      await p.waitForFunction(() => !document.querySelector('[data-testid=ab-dialog]'));
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: 'runs: "Add files" keeps what is loaded; one run has no banner; a drop asks add or replace (keyboard)',
    async run(c) {
      const p = c.page;
      await p.goto(c.url);
      await p.setInputFiles('[data-testid=file-input]', A());
      assert.equal(await waitDone(p), 'ready');
      assert.equal(await p.locator('[data-testid=runs-banner]').isVisible(), false, 'one run: no banner');
      assert.deepEqual(Object.values(await runColumn(p)), ['', ''], 'one run: no run column');
      await p.setInputFiles('[data-testid=add-input]', B());
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.sources.length === 4);
      assert.equal(await waitDone(p), 'ready');
      const runs = await runColumn(p);
      assert.deepEqual(runs, { 'a.json': 'a', 'a_clat_hist.1.log': 'a', 'b.json': 'b', 'b_clat_hist.1.log': 'b' });
      assert.equal(await p.locator('[data-testid=runs-banner]').isVisible(), true);
      // A drop onto loaded files asks; Tab moves to "Replace", Enter picks it.
      const bytes = fs.readFileSync(A()[1]).toString('latin1');
      await p.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'x_clat_hist.1.log'));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, bytes);
      await p.waitForSelector('[data-testid=add-or-replace]');
      assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'choice-add');
      await p.screenshot({ path: path.join(SHOTS, 'runs-add-or-replace.png') });
      await p.keyboard.press('Tab');
      assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'choice-replace');
      await p.keyboard.press('Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.sources.length === 1);
      assert.equal(await waitDone(p), 'ready');
      assert.equal(await p.locator('[data-testid=runs-banner]').isVisible(), false, 'replaced by one file: no banner');
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
];
