// End-to-end cases of issue 6 §3, §4, §6: the view state in the fragment
// (reload, Back/Forward), #url= loads from another origin (log, .tar.gz,
// .zip, two runs; without CORS), the link with data, the embedding example,
// and untrusted input (an XSS corpus) under the page's CSP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { zipSync } from 'fflate';
import { cliPath, cliPctiles, fixture, fixtureFiles, loadThroughInput, waitDone, download, settled } from './helpers.mjs';
import { serveStatic } from './server.mjs';
import { OUT, SHOTS, WEB } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[], context: import('playwright-core').BrowserContext}} Ctx */

const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);
const state = (/** @type {import('playwright-core').Page} */ p) => p.evaluate(() => /** @type {any} */ (window).latscope.store.state);

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/**
 * A data folder for #url= loads: a plain log, a results folder as .tar.gz
 * and .zip (logs, a job file, a README, a .DS_Store), and a file whose name
 * is markup.
 */
function dataFolder() {
  const dir = path.join(OUT, 'urldata');
  fs.rmSync(dir, { recursive: true, force: true });
  const run = path.join(dir, 'src', 'run1');
  fs.mkdirSync(run, { recursive: true });
  for (const f of S1()) fs.copyFileSync(f, path.join(run, path.basename(f)));
  fs.copyFileSync(fixture('fio-s1', 'job.fio'), path.join(run, 'job.fio'));
  fs.writeFileSync(path.join(run, 'README'), 'nightly run\n');
  fs.writeFileSync(path.join(run, '.DS_Store'), Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]));
  execFileSync('tar', ['czf', path.join(dir, 'run1.tar.gz'), '-C', path.join(dir, 'src'), 'run1']);
  /** @type {Record<string, Uint8Array>} */
  const z = {};
  for (const f of fs.readdirSync(run)) z[`run1/${f}`] = fs.readFileSync(path.join(run, f));
  fs.writeFileSync(path.join(dir, 'run1.zip'), zipSync(z));
  fs.copyFileSync(fixture('local', 'local_clat_hist.1.log'), path.join(dir, 'local_clat_hist.1.log'));
  return dir;
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const SHARE_CASES = [
  {
    name: 'fragment: view state written on changes, restored on reload, Back/Forward walk it; #demo still loads',
    async run(c) {
      const p = c.page;
      await p.goto(`${c.url}#demo`);
      assert.equal(await waitDone(p), 'ready');
      await p.selectOption('[data-testid=quantum]', '5000');
      await p.waitForFunction(() => /q=5000/.test(location.hash));
      await p.click('[data-testid=tab-heatmap]');
      await p.waitForFunction(() => /view=heatmap/.test(location.hash));
      await p.selectOption('[data-testid=palette]', 'magma');
      await p.waitForFunction(() => /palette=magma/.test(location.hash));
      const hash = await p.evaluate(() => location.hash);
      assert.match(hash, /^#v=1&demo&/);
      // Reload: the demo loads again and the state is back.
      await p.reload();
      assert.equal(await waitDone(p), 'ready');
      let s = await state(p);
      assert.deepEqual([s.view, s.quantum_ms, s.palette], ['heatmap', 5000, 'magma']);
      assert.equal(await p.isVisible('[data-testid=view-heatmap]'), true);
      // Back: the palette change, then the view change are undone; Forward redoes.
      await p.goBack();
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.palette === 'viridis');
      await p.goBack();
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'pctiles');
      s = await state(p);
      assert.equal(s.quantum_ms, 5000);
      await p.goForward();
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'heatmap');
      // The demo as a result at 5 s (cluster: dir and kind kept) fits a link:
      // it says the size and what it holds; the link carries the data, not `demo`.
      await p.click('[data-testid=copy-link-data]');
      await p.waitForFunction(() => document.querySelector('[data-testid=link-status]')?.textContent);
      const said = (await p.textContent('[data-testid=link-status]')) || '';
      assert.match(said, /^Link (copied|ready) — [\d.]+ KB: a result file of 5 logs \([\d.]+ KB: quanta of 5 s, labels dir, kind\) and the view/, said);
      assert.match(await p.inputValue('[data-testid=link-output]'), /#v=1&view=heatmap&q=5000&d=[A-Za-z0-9_-]+$/);
      // "Copy link" of the demo: the view and `demo`.
      await p.click('[data-testid=copy-link]');
      await p.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=link-output]')).value);
      assert.match(await p.inputValue('[data-testid=link-output]'), /#v=1&demo&view=heatmap&q=5000$/);
      // The CSV after a reload with a zoom range equals the CLI's for that state.
      await p.evaluate(() => (location.hash = '#v=1&demo&q=2000&p=50,99.9&g=host'));
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.quantum_ms === 2000);
      const { bytes } = await download(p, '[data-testid=export-csv]');
      const demo = JSON.parse(fs.readFileSync(path.join(WEB, 'public/demo/manifest.json'), 'utf8')).files.map((/** @type {string} */ f) => path.join(WEB, 'public/demo', f));
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '2000', '--percentiles', '50,99.9', '--group-by', 'host'], demo));
      noPageErrors(c);
    },
  },
  {
    name: '#url= from another origin with CORS: a log, a .tar.gz and a .zip of a results folder, two runs; csv equals the CLI',
    async run(c) {
      const p = c.page;
      const dir = dataFolder();
      const data = await serveStatic(dir, { cors: true });
      try {
        // A plain log.
        await p.goto(`${c.url}#url=${data.url}local_clat_hist.1.log`);
        assert.equal(await waitDone(p), 'ready');
        let csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        assert.equal(csv, cliPctiles([], [fixture('local', 'local_clat_hist.1.log')]));
        // A .tar.gz of a results folder: the logs inside, the rest listed as ignored.
        for (const arch of ['run1.tar.gz', 'run1.zip']) {
          await p.goto(`${c.url}?url=${encodeURIComponent(data.url + arch)}`);
          assert.equal(await waitDone(p), 'ready', arch);
          const status = (await p.textContent('[data-testid=status]')) || '';
          assert.match(status, /^4 logs loaded in [\d.]+ s, 3 files ignored/, `${arch}: ${status}`);
          const rows = await p.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.file));
          assert.deepEqual(rows, S1().map((f) => `run1/${path.basename(f)}`), arch);
          csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
          assert.equal(csv, cliPctiles([], S1()), arch);
        }
        // A #url= typed into a page opened without one (whose requests were
        // narrowed to its own origin): the page starts afresh and loads it.
        await p.goto(c.url);
        await p.evaluate((u) => (location.hash = `#url=${u}`), `${data.url}local_clat_hist.1.log`);
        await p.waitForFunction(() => /** @type {any} */ (window).latscope?.sources.length > 0, null, { timeout: 30000 });
        assert.equal(await waitDone(p), 'ready');
        // Two URLs: two runs, each under its own folder; "each file" tells them apart.
        await p.goto(`${c.url}#v=1&g=file&url=${data.url}run1.tar.gz&url=${data.url}local_clat_hist.1.log`);
        assert.equal(await waitDone(p), 'ready');
        const rows = await p.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) => trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.file));
        assert.deepEqual(rows, ['local_clat_hist.1.log', ...S1().map((f) => `run1/run1/${path.basename(f)}`)]);
        assert.equal((await state(p)).group_by, 'file');
        await p.screenshot({ path: path.join(SHOTS, 'url-two-runs.png') });
        noPageErrors(c);
      } finally {
        await data.close();
      }
    },
  },
  {
    name: '#url= without CORS: the message names the header the server must send; a 404 says so',
    async run(c) {
      const p = c.page;
      const dir = dataFolder();
      const data = await serveStatic(dir, { cors: false });
      try {
        await p.goto(`${c.url}#url=${data.url}local_clat_hist.1.log`);
        assert.equal(await waitDone(p), 'error');
        const status = (await p.textContent('[data-testid=status]')) || '';
        assert.match(status, /^Nothing loaded: the URL failed/, status);
        const msg = (await p.textContent('[data-testid=file-errors] .fetch-error')) || '';
        assert.match(msg, /CORS.*"Access-Control-Allow-Origin: http:\/\/127\.0\.0\.1:\d+"/, msg);
        assert.ok(data.requests.includes('/local_clat_hist.1.log'), 'the server was asked');
        await p.screenshot({ path: path.join(SHOTS, 'url-cors-error.png') });
      } finally {
        await data.close();
      }
      const cors = await serveStatic(dir, { cors: true });
      try {
        await p.goto(`${c.url}#url=${cors.url}missing.log&url=${cors.url}local_clat_hist.1.log`);
        assert.equal(await waitDone(p), 'ready');
        const errs = await p.$$eval('[data-testid=file-errors] .fetch-error', (ds) => ds.map((d) => d.textContent || ''));
        assert.equal(errs.length, 1);
        assert.match(errs[0], /missing\.log: HTTP 404/);
      } finally {
        await cors.close();
      }
      // The browser's own CORS message is a console error; nothing else is.
      assert.ok(c.errors.every((e) => /CORS|Failed to load resource|Access-Control/.test(e)), c.errors.join('\n'));
    },
  },
  {
    name: 'copy link with data: a result file in the link; opens in a new page with no other request; csv equals `latscope pctiles` on that result and the csv of the original page, every column',
    async run(c) {
      const p = c.page;
      const files = S1();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=quantum]', '2000');
      await p.selectOption('[data-testid=group-by]', 'host');
      await p.waitForFunction(() => /g=host/.test(location.hash));
      const original = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      assert.equal(original, cliPctiles(['--quantum', '2000', '--group-by', 'host'], files));
      await p.click('[data-testid=copy-link-data]');
      await p.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=link-output]')).value !== '');
      const link = await p.inputValue('[data-testid=link-output]');
      const said = (await p.textContent('[data-testid=link-status]')) || '';
      assert.match(said, /^Link (copied|ready).* [\d.]+ KB: a result file of 4 logs \([\d.]+ KB: quanta of 2 s, labels host, dir, kind\)/, said);
      assert.ok(link.length < 64 * 1024, `link length ${link.length}`);
      assert.match(link, /#v=1&q=2000&g=host&d=[A-Za-z0-9_-]+$/);
      console.log(`     link with data: ${link.length} characters; ${said}`);
      await p.screenshot({ path: path.join(SHOTS, 'copy-link-data.png') });
      // A fresh page (own origin only: every other request would be foreign).
      const q = await c.context.newPage();
      /** @type {string[]} */
      const foreign = [];
      q.on('request', (r) => {
        if (!r.url().startsWith(c.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      try {
        await q.goto(link);
        assert.equal(await waitDone(q), 'ready');
        const s = await state(q);
        assert.deepEqual([s.quantum_ms, s.group_by], [2000, 'host']);
        const again = (await download(q, '[data-testid=export-csv]')).bytes.toString('utf8');
        // The link's result, as the CLI reads it: the same CSV byte for byte.
        const lsr = path.join(OUT, 'link-result.lsr');
        fs.writeFileSync(lsr, Buffer.from(await p.evaluate(async () => [...(await /** @type {any} */ (window).latscope.resultFile()).bytes])));
        assert.equal(again, cliPctiles(['--quantum', '2000', '--group-by', 'host'], [lsr]));
        // Queries count in result units and result cells record their extremes (docs/result-format.md):
        // the link answers as the logs did, every column.
        assert.equal(again, original);
        assert.deepEqual(foreign, []);
      } finally {
        await q.close();
      }
      noPageErrors(c);
    },
  },
  {
    name: 'copy link with data past 64 KB at the page\'s quantum: the link leaves out the directions apart and fine quanta, says so, and opens with the CLI\'s numbers at its quantum',
    async run(c) {
      const p = c.page;
      const files = S1();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=quantum]', '100');
      await p.selectOption('[data-testid=group-by]', 'host');
      await p.waitForFunction(() => /g=host/.test(location.hash));
      await p.click('[data-testid=copy-link-data]');
      await p.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=link-output]')).value !== '');
      const said = (await p.textContent('[data-testid=link-status]')) || '';
      const link = await p.inputValue('[data-testid=link-output]');
      console.log(`     ${link.length} characters; ${said}`);
      const m = /^Link (?:copied|ready) — [\d.]+ KB: a result file of 4 logs \([\d.]+ KB: quanta of (\d+) ms, labels host, kind\) and the view\. To fit the 64\.0 KB a link holds \(([\d.]+) KB with everything\) it leaves out the directions apart \(those chosen added together\)(?: and the 100 ms quanta \((\d+) ms instead\))?\. It holds/.exec(said);
      assert.ok(m, said);
      assert.ok(Number(m[2]) > 64, 'everything would not have fit');
      assert.ok(link.length <= 64 * 1024, `link length ${link.length}`);
      const q = Number(m[1]);
      assert.equal(m[3] ? Number(m[3]) : 100, q);
      assert.match(link, new RegExp(`#v=1&q=${q}&g=host&d=[A-Za-z0-9_-]+$`));
      const page = await c.context.newPage();
      try {
        await page.goto(link);
        assert.equal(await waitDone(page), 'ready');
        const s = await state(page);
        assert.deepEqual([s.quantum_ms, s.group_by, s.directions], [q, 'host', 'r,w,t']);
        const csv = (await download(page, '[data-testid=export-csv]')).bytes.toString('utf8');
        // What the CLI prints on its own reduce without dir at that quantum ...
        const lsr = path.join(OUT, 'link-plan.lsr');
        execFileSync(cliPath(), ['reduce', '--quantum', String(q), '--keep', 'host,kind', ...files, '-o', lsr], { stdio: 'ignore' });
        assert.equal(csv, cliPctiles(['--quantum', String(q), '--group-by', 'host'], [lsr]));
        // ... and on the logs (directions added together are what grouping by host shows anyway), but for the
        // logs' own "finer" flag: a result does not know the 1 s interval of the logs it was folded from.
        const unflag = (/** @type {string} */ t) => t.replace(/;finer(?=\n)/g, '').replace(/,finer(?=\n)/g, ',');
        assert.equal(csv, unflag(cliPctiles(['--quantum', String(q), '--group-by', 'host'], files)));
      } finally {
        await page.close();
      }
      noPageErrors(c);
    },
  },
  {
    name: 'copy link with data that fits no plan (host × direction at 100 ms): says the size, offers the result file (.lsr); the CLI reads it as its own reduce of the same logs',
    async run(c) {
      const p = c.page;
      const files = S1();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=quantum]', '100');
      await p.selectOption('[data-testid=group-by]', 'host,dir');
      await p.waitForFunction(() => /g=host%2Cdir|g=host,dir/.test(location.hash));
      assert.equal(await p.isVisible('[data-testid=download-result]'), false);
      await p.click('[data-testid=copy-link-data]');
      await p.waitForFunction(() => /over the/.test(document.querySelector('[data-testid=link-status]')?.textContent || ''));
      const said = (await p.textContent('[data-testid=link-status]')) || '';
      // Grouped by direction, dir stays; the coarsest quantum leaving 30 over the 20 s run is 500 ms.
      assert.match(said, /^The link would be [\d.]+ KB, over the 64\.0 KB a link holds, even as a result file of 4 logs \([\d.]+ KB: quanta of 500 ms, labels host, dir, kind\)\. Download the result file instead/, said);
      assert.equal(await p.inputValue('[data-testid=link-output]'), '');
      const got = await download(p, '[data-testid=download-result]');
      assert.match(got.name, /^latscope-4-logs-100ms\.lsr$/);
      assert.equal(got.bytes.subarray(0, 8).toString('latin1'), 'LSRESULT');
      const mine = path.join(OUT, 'download-result.lsr');
      const theirs = path.join(OUT, 'cli-reduce-s1-100.lsr');
      fs.writeFileSync(mine, got.bytes);
      execFileSync(cliPath(), ['reduce', '--quantum', '100', '--keep', 'host,dir', ...files, '-o', theirs], { stdio: 'ignore' });
      const args = ['--quantum', '100', '--group-by', 'host,dir'];
      assert.equal(cliPctiles(args, [mine]), cliPctiles(args, [theirs]));
      noPageErrors(c);
    },
  },
  {
    name: 'embedding: the example page posts the demo logs into the iframe; replies; csv equals the CLI',
    async run(c) {
      const p = c.page;
      await p.goto(`${c.url}embed-example.html`);
      await p.waitForFunction(() => document.querySelector('[data-testid=embed-log]')?.getAttribute('data-state'), null, { timeout: 60000 });
      const log = (await p.textContent('[data-testid=embed-log]')) || '';
      assert.match(log, /^loaded: 5 logs loaded/, log);
      const frame = /** @type {import('playwright-core').Frame} */ (p.frame({ url: /index\.html/ }));
      assert.ok(frame, 'the iframe');
      assert.equal(await frame.getAttribute('[data-testid=status]', 'data-state'), 'ready');
      const s = await frame.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      assert.deepEqual([s.view, s.percentiles], ['heatmap', ['50', '99', '99.9']]);
      const demo = JSON.parse(fs.readFileSync(path.join(WEB, 'public/demo/manifest.json'), 'utf8')).files.map((/** @type {string} */ f) => path.join(WEB, 'public/demo', f));
      const [d] = await Promise.all([p.waitForEvent('download'), frame.click('[data-testid=export-csv]')]);
      assert.equal(fs.readFileSync(/** @type {string} */ (await d.path()), 'utf8'), cliPctiles(['--percentiles', '50,99,99.9'], demo));
      await p.waitForTimeout(500);
      await p.screenshot({ path: path.join(SHOTS, 'embed-example.png') });
      // Another window (not the embedding one) is ignored; a bad message gets an error reply.
      const reply = await p.evaluate(
        () =>
          new Promise((resolve) => {
            const f = /** @type {HTMLIFrameElement} */ (document.getElementById('latscope'));
            window.addEventListener('message', (ev) => ev.data?.id === 'bad' && resolve(ev.data));
            f.contentWindow?.postMessage({ latscope: 1, type: 'load', id: 'bad', files: [{ name: 5 }] }, '*');
          }),
      );
      assert.deepEqual(reply, { latscope: 1, id: 'bad', type: 'error', ok: false, message: 'files[0].name must be a non-empty string' });
      noPageErrors(c);
    },
  },
  {
    name: 'reload of local files: the page names the files to open again; opening them brings the view back (quantum, zoom, exclusion, view)',
    async run(c) {
      const p = c.page;
      const files = ['local_clat_hist.1.log', 'local_clat_hist.2.log', 'local.json'].map((f) => fixture('local', f));
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=quantum]', '5000');
      await p.click('[data-testid=file-table] tr[data-file="local_clat_hist.2.log"] input[type=checkbox]');
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ range: [10000, 30000] }));
      await p.click('[data-testid=tab-heatmap]');
      await p.waitForFunction(() => /xf=/.test(location.hash) && /t=10000,30000/.test(location.hash) && /view=heatmap/.test(location.hash));
      await p.reload();
      await p.waitForSelector('[data-testid=reopen-hint]', { state: 'visible' });
      const hint = (await p.textContent('[data-testid=reopen-hint]')) || '';
      for (const f of files) assert.ok(hint.includes(path.basename(f)), `the hint names ${path.basename(f)}: ${hint}`);
      assert.match(hint, /This view showed 3 local files .*open them again and the view \(zoom, exclusions, offsets\) comes back/);
      assert.equal((await state(p)).view, 'heatmap', 'the view state is kept');
      assert.equal(await p.textContent('#view-heatmap .chart-message'), 'Open the 3 files again to see this view');
      await p.screenshot({ path: path.join(SHOTS, 'share-reopen-hint.png') });
      // Opened again: the fragment's state is applied after the load's reset.
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      const s = await state(p);
      assert.deepEqual([s.quantum_ms, s.exclude_sources, s.range, s.view], [5000, ['local_clat_hist.2.log'], [10000, 30000], 'heatmap']);
      assert.equal(await p.isVisible('[data-testid=reopen-hint]'), false);
      const ticked = await p.$eval('[data-testid=file-table] tr[data-file="local_clat_hist.2.log"] input[type=checkbox]', (x) => /** @type {HTMLInputElement} */ (x).checked);
      assert.equal(ticked, false, 'the excluded file stays unticked');
      noPageErrors(c);
    },
  },
  {
    name: 'one heat-map colour scale: the live page (under a notes bar, in a short window), its link with data and `latscope report` without --quantum (500 ms logs: both open at 500 ms, core\'s default quantum) ask the same rows and show the same maximum',
    async run(c) {
      const p = c.page;
      // The place-cs run: the page notes placement and a finer quantum, bars that take the plot's height.
      const files = [fixture('place-cs', 'place-cs.json'), ...fixtureFiles('place-cs', /^pcs_clat_hist\./)];
      await p.setViewportSize({ width: 1200, height: 700 });
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.click('[data-testid=tab-heatmap]');
      const scale = (/** @type {import('playwright-core').Page} */ x) =>
        x.evaluate(() => {
          const v = /** @type {any} */ (window).latscope.views.heatmap;
          let max = 0;
          for (const n of v.hm.counts) max = Math.max(max, n);
          return { q: v.hm.quantum_ms, rows: v.hm.rows, edges: [v.hm.edges_ns[0], v.hm.edges_ns[v.hm.rows]], max: +max.toPrecision(9), legend: [...document.querySelectorAll('#view-heatmap .legend text')].map((t) => t.textContent).join('|'), plotH: v.frame.innerH };
        });
      const ready = (/** @type {import('playwright-core').Page} */ x) => x.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.quanta > 0 && document.querySelector('#view-heatmap .legend'));
      await ready(p);
      await settled(p);
      const live = await scale(p);
      assert.equal(live.q, 500, 'the page opens the 500 ms logs at 500 ms');
      await p.screenshot({ path: path.join(SHOTS, 'one-scale-live.png') });
      await p.click('[data-testid=copy-link-data]');
      await p.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=link-output]')).value !== '');
      const link = await p.inputValue('[data-testid=link-output]');
      const q = await c.context.newPage();
      try {
        await q.goto(link);
        assert.equal(await waitDone(q), 'ready');
        await ready(q);
        await settled(q);
        const shared = await scale(q);
        assert.notEqual(shared.plotH, live.plotH, 'the plots differ in height');
        const { plotH: _a, ...a } = live;
        const { plotH: _b, ...b } = shared;
        assert.deepEqual(b, a, 'the link shows the live page\'s scale');
        const rep = path.join(OUT, 'one-scale-report.html');
        // No --quantum: the report takes the page's default (docs/page-views.md, "One colour scale").
        execFileSync(cliPath(), ['report', '--template', path.join(OUT, 'dist', 'latscope.html'), ...files, '-o', rep], { stdio: 'ignore' });
        await q.goto(`file://${rep}`);
        assert.equal(await waitDone(q), 'ready');
        await q.click('[data-testid=tab-heatmap]');
        await ready(q);
        await settled(q);
        const { plotH: _c, ...r } = await scale(q);
        await q.screenshot({ path: path.join(SHOTS, 'one-scale-report.png') });
        assert.deepEqual(r, a, 'the report shows the live page\'s scale');
      } finally {
        await q.close();
      }
      noPageErrors(c);
    },
  },
  {
    name: 'embedding from another origin: ignored without ?embedOrigin= (same-origin by default), answered when ?embedOrigin= names it',
    async run(c) {
      const dir = path.join(OUT, 'other-origin');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>dashboard</title><link rel="icon" href="data:,"><iframe id="f" width="800" height="600"></iframe>');
      const other = await serveStatic(dir);
      try {
        const p = c.page;
        /** @type {string[]} */
        const notes = [];
        p.on('console', (m) => notes.push(m.text()));
        await p.goto(other.url);
        const ping = (/** @type {string} */ src) =>
          p.evaluate(
            (src) =>
              new Promise((resolve) => {
                const f = /** @type {HTMLIFrameElement} */ (document.getElementById('f'));
                window.addEventListener('message', (ev) => ev.data?.latscope === 1 && resolve(ev.data.type));
                f.addEventListener('load', () => {
                  // Ping a few times: the page may still be starting; no answer in 3 s is 'none'.
                  let n = 0;
                  const t = setInterval(() => (++n > 30 ? (clearInterval(t), resolve('none')) : f.contentWindow?.postMessage({ latscope: 1, type: 'ping', id: n }, '*')), 100);
                });
                f.src = src;
              }),
            src,
          );
        assert.notEqual(new URL(other.url).origin, new URL(c.url).origin);
        assert.equal(await ping(`${c.url}index.html`), 'none', 'another origin gets no answer by default');
        assert.ok(notes.some((n) => /ignored: another origin than the page's own \(allow it with \?embedOrigin=/.test(n)), notes.join(' | '));
        assert.equal(await ping(`${c.url}index.html?embedOrigin=${encodeURIComponent(new URL(other.url).origin)}`), 'pong');
        assert.equal(await ping(`${c.url}index.html?embedOrigin=*`), 'pong');
      } finally {
        await other.close();
      }
      noPageErrors(c);
    },
  },
  {
    name: 'untrusted input runs no script: markup in a file name, an .hlog tag, a fragment, a URL, a posted message; the CSP blocks inline script',
    async run(c) {
      const p = c.page;
      /** @type {string[]} */
      const dialogs = [];
      p.on('dialog', (d) => {
        dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      const dir = path.join(OUT, 'xss');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const evil = path.join(dir, '<img src=x onerror=alert(1)>_clat_hist.1.log');
      fs.copyFileSync(fixture('local', 'local_clat_hist.1.log'), evil);
      const hlog = path.join(dir, 'tagged"><svg onload=alert(2)>.hlog');
      fs.writeFileSync(hlog, fs.readFileSync(fixture('hdr-processor', 'sig3-tagged.hlog'), 'utf8').replace(/Tag=read,/g, 'Tag=<img/src=x/onerror=alert(3)>,'));
      const bad = path.join(dir, '<script>alert(4)<script>.log');
      fs.writeFileSync(bad, '<script>alert(4)</script>\n1000, 0, 4096, <b>bold</b>\n');
      // A crafted fragment: markup in every field, a javascript: URL.
      const frag = '#v=1&view=<img src=x onerror=alert(5)>&g=<script>alert(6)</script>&palette=<svg/onload=alert(7)>&p=50,<b>&xf=<img src=x onerror=alert(8)>&theme="><img src=x onerror=alert(9)>&url=javascript:alert(10)&d=<script>';
      await p.goto(`${c.url}${frag}`);
      await p.setInputFiles('[data-testid=file-input]', [evil, hlog, bad]);
      assert.equal(await waitDone(p), 'ready');
      await p.selectOption('[data-testid=group-by]', 'tag');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.group_by === 'tag');
      // The legend is redrawn when the regrouped answer comes: wait for it (the assertion below says what is missing).
      await p.waitForFunction(() => [...document.querySelectorAll('#view-pctiles svg text')].some((t) => /onerror=alert\(3\)/.test(t.textContent || '')), null, { timeout: 20000 }).catch(() => {});
      // The names are shown as text.
      const names = await p.$$eval('[data-testid=file-table] td.name', (tds) => tds.map((t) => t.textContent));
      assert.ok(names.includes('<img src=x onerror=alert(1)>_clat_hist.1.log'), names.join(' | '));
      const legend = await p.$$eval('#view-pctiles svg text', (ts) => ts.map((t) => t.textContent).join(' '));
      assert.match(legend, /<img\/src=x\/onerror=alert\(3\)>/, 'the tag is drawn as text');
      // A URL with markup in its path (404: its message quotes it).
      const data = await serveStatic(dir, { cors: true });
      const q = await c.context.newPage();
      q.on('dialog', (d) => {
        dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      try {
        await q.goto(`${c.url}#url=${data.url}%3Cimg%20src%3Dx%20onerror%3Dalert(11)%3E.log`);
        assert.equal(await waitDone(q), 'error');
        assert.match((await q.textContent('[data-testid=file-errors] .fetch-error')) || '', /%3Cimg%20src=x%20onerror=alert\(11\)%3E\.log: HTTP 404/);
        // A posted message with markup (from an opener: this page opened by another).
        const [child] = await Promise.all([
          c.context.waitForEvent('page'),
          q.evaluate(() => {
            /** @type {any} */ (window).child = window.open(location.href.replace(/#.*/, ''), 'child');
          }),
        ]);
        child.on('dialog', (d) => {
          dialogs.push(d.message());
          d.dismiss().catch(() => {});
        });
        await child.waitForFunction(() => /** @type {any} */ (window).latscope);
        const reply = await q.evaluate(
          (log) =>
            new Promise((resolve) => {
              window.addEventListener('message', (ev) => ev.data?.id === 1 && resolve(ev.data));
              /** @type {any} */ (window).child.postMessage(
                { latscope: 1, type: 'load', id: 1, files: [{ name: '<img src=x onerror=alert(12)>_clat_hist.1.log', data: log }], view: { view: '<img src=x onerror=alert(13)>', g: '"><svg onload=alert(14)>' } },
                '*',
              );
            }),
          fs.readFileSync(fixture('local', 'local_clat_hist.1.log'), 'utf8'),
        );
        assert.equal(/** @type {any} */ (reply).type, 'loaded', JSON.stringify(reply));
        assert.equal(await child.textContent('[data-testid=file-table] td.name'), '<img src=x onerror=alert(12)>_clat_hist.1.log');
        for (const page of [p, q, child]) {
          assert.equal(await page.$$eval('img[src=x], svg[onload], script:not([src]):not([type="application/json"])', (els) => els.length), 0, 'no markup from the input became elements');
        }
        await child.close();
      } finally {
        await q.close();
        await data.close();
      }
      // The CSP: an inline script injected into the page does not run, and
      // with no #url= the page may not send anything to another origin.
      const blocked = await p.evaluate(async (other) => {
        const s = document.createElement('script');
        s.textContent = 'window.__xss = 1';
        document.body.appendChild(s);
        let fetched = true;
        try {
          await fetch(other);
        } catch {
          fetched = false;
        }
        return { xss: /** @type {any} */ (window).__xss, fetched };
      }, `http://127.0.0.1:9/`);
      assert.deepEqual(blocked, { xss: undefined, fetched: false });
      assert.ok(c.errors.some((e) => /inline script/.test(e)), 'the CSP refused the inline script');
      assert.ok(c.errors.some((e) => /Refused to connect/.test(e)), "the CSP (connect-src 'self') refused the request");
      assert.deepEqual(dialogs, [], 'no alert ran');
      // The help dialog's <form method="dialog"> still closes under form-action.
      await p.keyboard.press('?');
      assert.ok(await p.isVisible('[data-testid=help-panel]'));
      await p.click('[data-testid=help-panel] form button');
      assert.equal(await p.isVisible('[data-testid=help-panel]'), false, 'help closed');
      await p.screenshot({ path: path.join(SHOTS, 'xss-corpus.png') });
      // Only the CSP's own reports are console errors.
      assert.ok(c.errors.every((e) => /Content Security Policy/.test(e)), c.errors.join('\n'));
    },
  },
  {
    name: 'ClickHouse: #url= to the HTTP interface of a real two-shard cluster (tests/clickhouse/run.sh sets LATSCOPE_CH_URL): csv equals the CLI on the same answer',
    skip: () => (process.env.LATSCOPE_CH_URL && process.env.LATSCOPE_CH_TSV ? '' : 'run by tests/clickhouse/run.sh with its servers up'),
    async run(c) {
      const p = c.page;
      const chUrl = /** @type {string} */ (process.env.LATSCOPE_CH_URL);
      // The link docs/cluster-merge.md gives: the whole ClickHouse URL as one encoded url= value.
      await p.goto(`${c.url}#url=${encodeURIComponent(chUrl)}`);
      assert.equal(await waitDone(p), 'ready', (await p.textContent('[data-testid=status]')) || '');
      const s = await state(p);
      const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      const args = ['--quantum', String(s.quantum_ms), '--percentiles', s.percentiles.join(',')];
      assert.equal(csv, cliPctiles(args, [/** @type {string} */ (process.env.LATSCOPE_CH_TSV)]));
      await p.screenshot({ path: path.join(SHOTS, 'clickhouse-url.png') });
      assert.deepEqual(c.errors, []);
    },
  },
  {
    name: 'ClickHouse: #clickhouse= names the cluster-wide view of the compact table (tests/clickhouse/run.sh sets LATSCOPE_CH_SOURCE): csv equals the CLI on the same answer, partial flags included',
    skip: () => (process.env.LATSCOPE_CH_SOURCE && process.env.LATSCOPE_CH_COMPACT ? '' : 'run by tests/clickhouse/run.sh with its servers up'),
    async run(c) {
      const p = c.page;
      // docs/cluster-merge.md, "#clickhouse=": server, user and view; the page builds the query.
      await p.goto(`${c.url}#clickhouse=${encodeURIComponent(/** @type {string} */ (process.env.LATSCOPE_CH_SOURCE))}`);
      assert.equal(await waitDone(p), 'ready', (await p.textContent('[data-testid=status]')) || '');
      const s = await state(p);
      const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      const args = ['--quantum', String(s.quantum_ms), '--percentiles', s.percentiles.join(',')];
      assert.equal(csv, cliPctiles(args, [/** @type {string} */ (process.env.LATSCOPE_CH_COMPACT)]));
      assert.deepEqual(c.errors, []);
    },
  },
];
