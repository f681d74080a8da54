// The end-to-end cases. Each gets a fresh page; `run` throws on failure.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { brushBox, canvasStats, cliPctiles, download, fixture, fixtureFiles, largeLogs, loadThroughInput, malformedFile, mixedResultsFolder, multiMemberGz, readerLanded, waitDone } from './helpers.mjs';
import { SHOTS, WEB } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);

/**
 * Records every request the page makes that is not to its own origin.
 * @param {import('playwright-core').Page} page @param {string} url
 */
function trackForeignRequests(page, url) {
  const origin = new URL(url).origin;
  /** @type {string[]} */
  const foreign = [];
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('data:') || u.startsWith('blob:')) return;
    if (new URL(u).origin !== origin) foreign.push(u);
  });
  return foreign;
}

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const CASES = [
  {
    name: 'csv export equals the CLI (client/server logs, defaults), no foreign requests',
    async run(c) {
      const foreign = trackForeignRequests(c.page, c.url);
      const files = S1();
      assert.equal(await loadThroughInput(c.page, c.url, files), 'ready');
      const { name, bytes } = await download(c.page, '[data-testid=export-csv]');
      assert.match(name, /\.csv$/);
      const expected = cliPctiles([], files);
      assert.ok(expected.startsWith('time_ms,group,samples,min,mean,p50,p90,p99,p99.9,p100,max,flags\n') || expected.startsWith('time_ms,group,samples,'), 'CLI header');
      assert.equal(bytes.toString('utf8'), expected);
      // The file table shows what was detected.
      const rows = await c.page.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => trs.map((tr) => tr.textContent));
      assert.equal(rows.length, 4);
      assert.ok(rows.every((r) => /fio/.test(r || '') && /yes/.test(r || '')), `every file detected and repaired: ${rows.join(' | ')}`);
      const hosts = await c.page.$$eval('[data-testid=host-table] tbody tr', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.host));
      assert.deepEqual(hosts, ['127.0.0.1', '127.0.0.2']);
      assert.deepEqual(foreign, [], 'requests outside the page origin');
      noPageErrors(c);
    },
  },
  {
    name: 'csv export equals the CLI after changing quantum, grouping, unit and percentiles in the UI',
    async run(c) {
      const files = S1();
      assert.equal(await loadThroughInput(c.page, c.url, files), 'ready');
      await c.page.selectOption('[data-testid=quantum]', '5000');
      await c.page.selectOption('[data-testid=group-by]', 'host');
      await c.page.selectOption('[data-testid=unit]', 'ms');
      await c.page.fill('[data-testid=extra-percentiles]', '99.99');
      await c.page.press('[data-testid=extra-percentiles]', 'Enter');
      await c.page.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.percentiles.includes('99.99'));
      const { bytes } = await download(c.page, '[data-testid=export-csv]');
      const expected = cliPctiles(['--quantum', '5000', '--group-by', 'host', '--unit', 'ms', '--percentiles', '50,90,99,99.9,99.99,100'], files);
      assert.equal(bytes.toString('utf8'), expected);
      noPageErrors(c);
    },
  },
  {
    name: 'gzip-compressed local logs: csv equals the CLI on the same .gz files',
    async run(c) {
      const files = fixtureFiles('gz', /\.gz$/);
      assert.equal(await loadThroughInput(c.page, c.url, files), 'ready');
      const { bytes } = await download(c.page, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles([], files));
      const repaired = await c.page.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => trs.map((tr) => tr.querySelector('td.rep')?.textContent));
      assert.deepEqual(repaired, ['no', 'no'], 'local logs are never repaired');
      noPageErrors(c);
    },
  },
  {
    name: 'a malformed file gets a visible, specific error while the others load',
    async run(c) {
      const good = fixtureFiles('local', /_clat_hist\./);
      const bad = malformedFile();
      assert.equal(await loadThroughInput(c.page, c.url, [...good, bad]), 'ready');
      const msg = await c.page.textContent('[data-testid=file-errors] .file-error-msg');
      assert.ok(msg && msg.includes('broken_clat_hist.1.log'), `error names the file: ${msg}`);
      assert.match(msg || '', /17|column|bins/i, 'error says what is wrong');
      assert.ok(await c.page.isVisible('[data-testid=file-errors] .file-error-msg'));
      const badRow = await c.page.textContent('[data-testid=file-table] tr[data-file$="broken_clat_hist.1.log"]');
      assert.match(badRow || '', /error/);
      const status = await c.page.textContent('[data-testid=status]');
      assert.match(status || '', /2 logs loaded in [\d.]+ s, 1 file with errors/);
      const { bytes } = await download(c.page, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles([], good));
    },
  },
  {
    name: 'demo (#demo): heat map and surface drawn, the known spike where it should be',
    async run(c) {
      const manifest = JSON.parse(fs.readFileSync(path.join(WEB, 'public/demo/manifest.json'), 'utf8'));
      const [s0, s1] = manifest.spike.observed_ms;
      await c.page.goto(`${c.url}#demo`);
      assert.equal(await waitDone(c.page), 'ready');
      const p = c.page;
      const extent = await p.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.ctx.extent());
      const fx = (/** @type {number} */ t) => (t - extent[0]) / (extent[1] - extent[0]);

      // Heat map: the cells above 10 ms are in the spike's columns.
      await p.click('[data-testid=tab-heatmap]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm);
      const hm = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.heatmap;
        const h = v.hm;
        return { t0: h.t0_ms, q: h.quantum_ms, quanta: h.quanta, rows: h.rows, edges: h.edges_ns, counts: Array.from(h.counts) };
      });
      // I/Os slower than 10 ms per quantum: most of them (a real run has a
      // few stray slow I/Os elsewhere) fall in the spike, and so does the peak.
      const slow = [];
      for (let q = 0; q < hm.quanta; q++) {
        let n = 0;
        for (let r = 0; r < hm.rows; r++) if (hm.edges[r] >= 10e6) n += hm.counts[q * hm.rows + r];
        slow.push({ t: hm.t0 + q * hm.q, n });
      }
      const inSpike = (/** @type {number} */ t) => t >= s0 - 1000 && t < s1 + 1000;
      const total = slow.reduce((a, x) => a + x.n, 0);
      const inside = slow.filter((x) => inSpike(x.t)).reduce((a, x) => a + x.n, 0);
      const peak = slow.reduce((a, x) => (x.n > a.n ? x : a));
      assert.ok(total > 50, `slow I/Os in the demo: ${total}`);
      assert.ok(inside / total > 0.8, `${inside} of ${total} slow I/Os inside the spike ${s0}..${s1}`);
      assert.ok(inSpike(peak.t), `busiest slow quantum ${peak.t} inside the spike`);
      // The same in pixels: the top part of the canvas is painted in the
      // spike's columns and empty well before it.
      const yTop = (() => {
        const lo = Math.log(hm.edges[0]);
        const hi = Math.log(hm.edges[hm.rows]);
        return 1 - (Math.log(10e6) - lo) / (hi - lo); // canvas fraction above 10 ms
      })();
      const st = await canvasStats(p, 'heatmap', [
        { x0: fx(s0), x1: fx(s1), y0: 0, y1: yTop },
        { x0: fx(5000), x1: fx(20000), y0: 0, y1: yTop },
      ]);
      assert.ok(st.all > 0.05, `heat map painted: ${st.all}`);
      assert.ok(st.regions[0] > 0.02, `spike columns painted above 10 ms: ${st.regions[0]}`);
      assert.ok(st.regions[1] < st.regions[0] / 5, `quiet columns mostly empty above 10 ms: ${st.regions[1]}`);

      // Surface: drawn; its p99 level peaks inside the spike.
      await p.click('[data-testid=tab-surface]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.surface.grid);
      const sf = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.surface;
        const ps = v.data.percentiles.map(Number);
        let l = 0;
        for (let i = 0; i < ps.length; i++) if (Math.abs(ps[i] - 99) < Math.abs(ps[l] - 99)) l = i;
        return { t0: v.grid.t0, q: v.data.quantum_ms, p99: v.grid.values[l] };
      });
      let best = 0;
      sf.p99.forEach((/** @type {number|null} */ v, /** @type {number} */ i) => {
        if (v != null && v > (sf.p99[best] ?? -1)) best = i;
      });
      const tPeak = sf.t0 + best * sf.q;
      assert.ok(tPeak >= s0 - 1000 && tPeak < s1 + 1000, `surface p99 peak at ${tPeak} in ${s0}..${s1}`);
      const ss = await canvasStats(p, 'surface');
      assert.ok(ss.all > 0.3, `surface painted: ${ss.all}`);
      noPageErrors(c);
    },
  },
  {
    name: 'exports: PNG, SVG and CSV of every view are valid',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      for (const view of ['pctiles', 'heatmap', 'surface', 'spectrum']) {
        await p.click(`[data-testid=tab-${view}]`);
        await p.waitForTimeout(300);
        const png = await download(p, '[data-testid=export-png]');
        assert.equal(png.name, `latscope-${view}.png`);
        assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
        const w = png.bytes.readUInt32BE(16);
        const h = png.bytes.readUInt32BE(20);
        assert.ok(w >= 600 && h >= 400, `PNG size ${w}x${h}`);
        const svg = await download(p, '[data-testid=export-svg]');
        const text = svg.bytes.toString('utf8');
        const parsed = await p.evaluate((t) => {
          const d = new DOMParser().parseFromString(t, 'image/svg+xml');
          return { err: d.querySelector('parsererror')?.textContent || '', root: d.documentElement.nodeName, images: d.querySelectorAll('image').length, paths: d.querySelectorAll('path').length };
        }, text);
        assert.equal(parsed.err, '', 'SVG parses');
        assert.equal(parsed.root, 'svg');
        assert.ok(parsed.paths > 2, 'SVG has drawn paths');
        if (view === 'heatmap' || view === 'surface') assert.equal(parsed.images, 1, 'canvas embedded in the SVG');
        const csv = await download(p, '[data-testid=export-view-csv]');
        const lines = csv.bytes.toString('utf8').trim().split('\n');
        assert.ok(lines.length >= 2, `${view} CSV has rows`);
        const header = lines[0].split(',');
        if (view === 'heatmap') assert.deepEqual(header, ['time_ms', 'lat_lo_us', 'lat_hi_us', 'count']);
        else assert.deepEqual(header.slice(0, 5), ['time_ms', 'group', 'samples', 'min', 'mean']);
        for (const l of lines.slice(1)) assert.equal(l.split(',').length, header.length, `${view} CSV row width: ${l}`);
      }
      noPageErrors(c);
    },
  },
  {
    name: 'percentiles view: the 95% sampling band beside the bin band, both explained in the tooltip (docs/uncertainty.md)',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles path.band-sampling').length === 5);
      // The engine's rows carry the band: lo <= value <= hi (hi null: unbounded).
      const rows = await p.evaluate(() => /** @type {any} */ (window).latscope.pct.rows);
      let bands = 0;
      for (const r of rows) {
        r.p.forEach((/** @type {number|null} */ v, /** @type {number} */ i) => {
          if (v == null) return;
          assert.ok(r.lo[i] <= v && (r.hi[i] == null || v <= r.hi[i]), `band holds the value at ${r.t_ms} ms: ${r.lo[i]} ${v} ${r.hi[i]}`);
          bands++;
        });
      }
      assert.ok(bands > 50, `bands checked: ${bands}`);
      assert.ok(rows.some((/** @type {any} */ r) => r.hi[3] == null), 'p99.9 of 3,200 I/Os: unbounded above somewhere');
      // An unbounded band is filled up to its value, not to the plot's top,
      // and marked open there (docs/page-views.md "Open bands"): each mark
      // starts on the line, where the band's filled top edge also is.
      const open = await p.evaluate(() => {
        /** @param {string} d @returns {number[][][]} subpaths of [x, y] points */
        const parse = (d) => d.split('M').filter(Boolean).map((seg) => seg.replace(/Z$/, '').split(/[Lv]/).filter((t) => t.includes(',')).map((t) => t.split(',').map(Number)));
        const out = [];
        for (const mark of document.querySelectorAll('#view-pctiles path.band-open')) {
          const key = mark.getAttribute('data-key') || '';
          const band = document.querySelector(`#view-pctiles path.band-sampling[data-key="${key}"]`)?.getAttribute('d') || '';
          const line = document.querySelector(`#view-pctiles path.line[data-key="${key}"]`)?.getAttribute('d') || '';
          // The top edge of each filled piece: the first half of its points.
          const top = parse(band).flatMap((pts) => pts.slice(0, pts.length / 2));
          const linePts = parse(line).flat();
          const marks = (mark.getAttribute('d') || '').split('M').filter(Boolean).map((m) => ({ xy: m.split('v')[0].split(',').map(Number), len: Number(m.split('v')[1]) }));
          const near = (/** @type {number[][]} */ pts, /** @type {number[]} */ xy) => pts.some((q) => Math.abs(q[0] - xy[0]) < 0.11 && Math.abs(q[1] - xy[1]) < 0.11);
          out.push({ key, n: marks.length, up: marks.every((m) => m.len < 0), onTop: marks.filter((m) => near(top, m.xy)).length, onLine: marks.filter((m) => near(linePts, m.xy)).length });
        }
        return out;
      });
      const unbounded = rows.filter((/** @type {any} */ r) => r.p[3] != null && r.lo[3] != null && r.hi[3] == null).length;
      const p999 = open.find((o) => o.key.endsWith('|99.9'));
      assert.ok(p999, `open marks on p99.9: ${JSON.stringify(open)}`);
      assert.equal(p999.n, unbounded, 'one open mark per quantum whose p99.9 band is unbounded');
      for (const o of open) {
        assert.ok(o.up && o.n > 0, `marks point up: ${JSON.stringify(o)}`);
        assert.equal(o.onTop, o.n, `the band's filled top is the value where it is open: ${JSON.stringify(o)}`);
        assert.equal(o.onLine, o.n, `each open mark starts on its line: ${JSON.stringify(o)}`);
      }
      await p.screenshot({ path: path.join(SHOTS, 'pctiles-open-bands.png') });
      // The note under the chart counts quanta in the right number (was "1 quanta").
      const fewQuanta = new Set(rows.filter((/** @type {any} */ r) => /(^|;)few:/.test(r.flags || '')).map((/** @type {any} */ r) => r.t_ms)).size;
      assert.ok(fewQuanta >= 1, 'S1 has a quantum with too few samples');
      assert.equal(await p.textContent('#view-pctiles .few-note'), `▲ ${fewQuanta} ${fewQuanta === 1 ? 'quantum' : 'quanta'} with too few samples for some percentiles (orange)`);
      const box = await brushBox(p);
      await p.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      // The values' bands, not the tip's key line (which names the 95% band before they come).
      await p.waitForFunction(() => / · 95% /.test(document.querySelector('#view-pctiles .tip')?.textContent || ''));
      const tip = (await p.textContent('#view-pctiles .tip')) || '';
      assert.match(tip, /p50: .*\(bin ±.*\) · 95% /);
      assert.match(tip, /bin: the bin holding the value/);
      assert.match(tip, /95%: where the true percentile lies/);
      noPageErrors(c);
    },
  },
  {
    name: 'linked views: brushing zooms every view and the spectrum shows the range; keyboard shortcuts',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, S1()), 'ready');
      const box = await brushBox(p);
      await p.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
      await p.mouse.down();
      await p.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 });
      await p.mouse.up();
      const range = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.range);
      assert.ok(range && range[1] > range[0], `range set by the brush: ${range}`);
      await p.click('[data-testid=tab-spectrum]');
      await p.waitForFunction(() => /range/.test(document.querySelector('#view-spectrum .range-caption')?.textContent || ''));
      // The heat map shows the same time range.
      await p.keyboard.press('2');
      await p.waitForFunction(() => !document.querySelector('#view-heatmap')?.hidden);
      // The heat map is drawn when its query is answered, after the tab shows: wait for it.
      await p.waitForFunction(() => document.querySelectorAll('#view-heatmap .x-axis .tick text').length > 1);
      await p.keyboard.press('0');
      assert.equal(await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.range), null);
      await p.keyboard.press('+');
      const zoomed = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.range);
      assert.ok(zoomed, 'zoom in with +');
      await p.keyboard.press('-');
      await p.keyboard.press('-');
      assert.equal(await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.range), null, 'zoomed out fully');
      await p.keyboard.press('3');
      assert.equal(await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.view), 'surface');
      await p.keyboard.press('?');
      assert.ok(await p.isVisible('[data-testid=help-panel]'), 'help panel open');
      noPageErrors(c);
    },
  },
  {
    name: 'a mixed .fio-results folder (folder input): logs load, the rest is listed as ignored, the corrupt .gz has its own message',
    async run(c) {
      const p = c.page;
      const have = { hlog: readerLanded('hdr', 'hdr_log_format'), perIo: readerLanded('fio_lat', 'fio_lat_format') };
      const m = mixedResultsFolder(have);
      await p.goto(c.url);
      await p.setInputFiles('[data-testid=folder-input]', m.dir);
      assert.equal(await waitDone(p), 'ready');
      const status = (await p.textContent('[data-testid=status]')) || '';
      // 3 ignored files + the .DS_Store left out; the corrupt .gz is the one error.
      assert.match(status, new RegExp(`^${m.logs.length} logs loaded in [\\d.]+ s, 4 files ignored, 1 file with errors`), status);
      // Ignored files: collapsed, one line each with what they look like.
      assert.equal(await p.isVisible('[data-testid=ignored-files] li'), false, 'the list starts collapsed');
      await p.click('[data-testid=ignored-files] summary');
      const ignored = await p.$$eval('[data-testid=ignored-files] li', (lis) => lis.map((li) => [/** @type {HTMLElement} */ (li).dataset.file, li.querySelector('.what')?.textContent]));
      const want = Object.entries(m.ignored).map(([n, what]) => [`.fio-results/${n}`, what]);
      want.push(['.fio-results/.DS_Store', 'OS bookkeeping file, not read']);
      assert.deepEqual(ignored.sort(), want.sort());
      // The corrupt .gz: its own message naming it and what is wrong; no other error box.
      const errs = await p.$$eval('[data-testid=file-errors] .file-error-msg', (ds) => ds.map((d) => d.textContent || ''));
      assert.equal(errs.length, 1, errs.join(' | '));
      assert.match(errs[0], /broken_clat_hist\.3\.log\.gz: .*gzip.*nothing could be read/);
      // The table lists the logs and the broken one, not the ignored files.
      const rows = await p.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.file));
      assert.equal(rows.length, m.logs.length + 1, rows.join(' | '));
      assert.ok(rows.includes('.fio-results/.more/local_clat_hist.2.log'), 'the hidden subfolder was read');
      // The numbers are the CLI's on the same logs.
      const { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles([], m.logs));
      await p.screenshot({ path: path.join(SHOTS, 'mixed-folder.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'a multi-member .gz (cat a.gz b.gz) loads whole: csv equals the CLI',
    async run(c) {
      const gz = multiMemberGz();
      assert.equal(await loadThroughInput(c.page, c.url, [gz]), 'ready');
      assert.equal(await c.page.$$eval('[data-testid=file-errors] > *', (d) => d.length), 0, 'no message');
      const { bytes } = await download(c.page, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles([], [gz]));
      assert.equal(bytes.toString('utf8'), cliPctiles([], [fixture('local', 'local_clat_hist.1.log')]));
      noPageErrors(c);
    },
  },
  {
    name: 'the (local) host offset in the host table: csv equals the CLI with --offset local=MS',
    async run(c) {
      const p = c.page;
      const files = [...fixtureFiles('local', /_clat_hist\./), ...fixtureFiles('cs', /_clat_hist\./)];
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      const hosts = await p.$$eval('[data-testid=host-table] tbody tr', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.host));
      assert.ok(hosts.includes('(local)'), hosts.join(','));
      await p.selectOption('[data-testid=group-by]', 'host');
      await p.fill('[data-testid=host-table] tr[data-host="(local)"] .offset-input', '3000');
      await p.press('[data-testid=host-table] tr[data-host="(local)"] .offset-input', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.offsets['(local)'] === 3000);
      const { bytes } = await download(p, '[data-testid=export-csv]');
      const expected = cliPctiles(['--group-by', 'host', '--offset', 'local=3000'], files);
      assert.notEqual(expected, cliPctiles(['--group-by', 'host'], files), 'the offset changes the answer');
      assert.equal(bytes.toString('utf8'), expected);
      noPageErrors(c);
    },
  },
  {
    name: 'a tagged .hlog grouped by tag: csv equals `latscope pctiles --group-by tag`',
    skip: () => (readerLanded('hdr', 'hdr_log_format') ? '' : 'HdrHistogram reader not registered yet'),
    async run(c) {
      const p = c.page;
      const hlog = fixture('hdr-processor', 'sig3-tagged.hlog');
      assert.equal(await loadThroughInput(p, c.url, [hlog]), 'ready');
      const choices = await p.$$eval('[data-testid=group-by] option', (os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value));
      assert.ok(choices.includes('tag'), `group-by offers tag: ${choices.join(',')}`);
      await p.selectOption('[data-testid=group-by]', 'tag');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.group_by === 'tag');
      const { bytes } = await download(p, '[data-testid=export-csv]');
      const expected = cliPctiles(['--group-by', 'tag'], [hlog]);
      assert.match(expected.split('\n')[1], /tag=/);
      assert.equal(bytes.toString('utf8'), expected);
      noPageErrors(c);
    },
  },
  {
    name: 'large input: progress with bytes/s while loading, then ready',
    async run(c) {
      const files = largeLogs(4, 64);
      const total = files.reduce((a, f) => a + fs.statSync(f).size, 0);
      const p = c.page;
      await p.addInitScript(() => {
        /** @type {any} */ (window).__longtasks = [];
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) /** @type {any} */ (window).__longtasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });
      });
      await p.goto(c.url);
      await p.waitForTimeout(500);
      const t0 = await p.evaluate(() => performance.now());
      // What the page showed while loading, recorded by a MutationObserver
      // in the page: every state it wrote, however fast the machine (a
      // poll from here missed the short ones on a fast run).
      await p.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.__shown = { texts: new Set(), rows: new Set(), fills: new Set() };
        const record = () => {
          const t = document.querySelector('[data-testid=progress-text]')?.textContent;
          if (t) w.__shown.texts.add(t);
          for (const td of document.querySelectorAll('[data-testid=file-table] tr.pending td.state')) w.__shown.rows.add(td.textContent ?? '');
          const fill = /** @type {HTMLElement | null} */ (document.getElementById('progress-fill'));
          if (fill) w.__shown.fills.add(fill.style.transform);
        };
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['style', 'class'] });
      });
      await p.setInputFiles('[data-testid=file-input]', files);
      const state = await waitDone(p, 180000);
      const shown = await p.evaluate(() => {
        const w = /** @type {any} */ (window);
        return { texts: [...w.__shown.texts], rows: [...w.__shown.rows], fills: [...w.__shown.fills] };
      });
      const seen = new Set(shown.texts);
      const rows = new Set(shown.rows);
      const fills = new Set(shown.fills);
      assert.equal(state, 'ready');
      assert.ok([...rows].some((t) => /^reading [1-9]\d?%$/.test(t)), `a file's row showed its part read: ${[...rows].join(' | ')}`);
      assert.ok([...fills].some((t) => /^scaleX\(0\.\d+\)$/.test(t)), `the bar was partly filled: ${[...fills].join(' | ')}`);
      const t1 = await p.evaluate(() => performance.now());
      await p.waitForTimeout(1000); // charts finish drawing in slices after ready
      const long = await p.evaluate((t0) => /** @type {any} */ (window).__longtasks.filter((/** @type {any} */ e) => e.start >= t0), t0);
      const withRate = [...seen].filter((t) => /MB\/s/.test(t));
      console.log(`     ${(total / 1e6).toFixed(0)} MB in ${((t1 - t0) / 1000).toFixed(1)} s; ${seen.size} progress texts, e.g. "${withRate[Math.floor(withRate.length / 2)] || ''}"; long tasks: ${JSON.stringify(long)}`);
      assert.ok(withRate.length >= 2, `progress shown with bytes/s: ${[...seen].join(' | ')}`);
      // Main-thread task lengths are printed, never asserted: they depend on
      // the machine's load. The figure is a benchmark in docs/benchmarks.md
      // (web/scripts/bench-wasm-chromium.mjs), not a pass/fail threshold.
      noPageErrors(c);
    },
  },
  {
    name: 'screenshots of every view, light and dark',
    async run(c) {
      const p = c.page;
      await p.goto(`${c.url}#demo`);
      assert.equal(await waitDone(p), 'ready');
      for (const theme of ['light', 'dark']) {
        const cur = await p.evaluate(() => document.documentElement.dataset.theme);
        if (cur !== theme) await p.click('[data-testid=theme-button]');
        for (const view of ['pctiles', 'heatmap', 'surface', 'spectrum']) {
          await p.click(`[data-testid=tab-${view}]`);
          await p.waitForTimeout(400);
          await p.screenshot({ path: path.join(SHOTS, `${view}-${theme}.png`) });
        }
      }
      // Zoomed heat map with the 0.1% clip and false colour, for a look too.
      await p.click('[data-testid=tab-heatmap]');
      await p.selectOption('[data-testid=color-mode]', 'false');
      await p.check('[data-testid=clip-outliers]');
      await p.waitForTimeout(400);
      await p.screenshot({ path: path.join(SHOTS, 'heatmap-false-clipped-dark.png') });
      await p.keyboard.press('?');
      await p.waitForTimeout(200);
      await p.screenshot({ path: path.join(SHOTS, 'help-dark.png') });
      noPageErrors(c);
    },
  },
];
