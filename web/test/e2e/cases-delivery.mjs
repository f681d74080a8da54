// End-to-end cases of the page's static delivery (docs/page-loading.md §6):
// the built dist/ served under a sub-path by a plain static server, the
// single-file page opened from file:// with the network refused, a result
// embedded into that page (the `latscope report` contract), and bad
// embedded data.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { canvasStats, cliPath, cliPctiles, download, fixtureFiles, waitDone } from './helpers.mjs';
import { serveStatic } from './server.mjs';
import { OUT, SHOTS } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[], context: import('playwright-core').BrowserContext}} Ctx */

const LOCAL = () => fixtureFiles('local', /_clat_hist\.\d\.log$/);
const SINGLE = () => path.join(OUT, 'dist', 'latscope.html');
const DATA_BLOCK = '<script type="application/json" id="latscope-data">null</script>';

/**
 * Refuses every http(s) request of the context while fn runs and returns
 * the URLs that were attempted (file://, blob: and data: are not network).
 * @param {Ctx} c @param {() => Promise<void>} fn
 */
async function offline(c, fn) {
  /** @type {string[]} */
  const attempted = [];
  /** @param {import('playwright-core').Route} r */
  const refuse = (r) => {
    attempted.push(r.request().url());
    return r.abort();
  };
  await c.context.route(/^https?:/, refuse);
  try {
    await fn();
  } finally {
    await c.context.unroute(/^https?:/, refuse);
  }
  return attempted;
}

/** The four views have drawn something. @param {import('playwright-core').Page} p */
async function viewsRender(p) {
  const lines = await p.evaluate(() => document.querySelectorAll('#view-pctiles svg path').length);
  assert.ok(lines > 2, `percentile lines drawn (${lines} paths)`);
  for (const view of ['heatmap', 'surface']) {
    await p.click(`[data-testid=tab-${view}]`);
    // Painted after the worker answers, so wait for the paint (up to 20 s on a
    // busy machine) instead of a fixed pause; then check it.
    let st = await canvasStats(p, view);
    for (let i = 0; i < 200 && !(st.all > 0.2); i++) {
      await p.waitForTimeout(100);
      st = await canvasStats(p, view);
    }
    assert.ok(st.all > 0.2, `${view} canvas painted (${st.all})`);
  }
  await p.click('[data-testid=tab-spectrum]');
  await p.waitForFunction(() => document.querySelectorAll('#view-spectrum svg path').length > 2, null, { timeout: 20000 }).catch(() => {});
  const curves = await p.evaluate(() => document.querySelectorAll('#view-spectrum svg path').length);
  assert.ok(curves > 2, `spectrum drawn (${curves} paths)`);
  await p.click('[data-testid=tab-pctiles]');
}

/** A result file made by the native CLI from the local run's histogram logs. */
function cliResult() {
  const out = path.join(OUT, 'local-1000.lsr');
  execFileSync(cliPath(), ['reduce', '--quantum', '1000', ...LOCAL(), '-o', out], { stdio: 'ignore' });
  return out;
}

/**
 * latscope.html with data in its data block (as `latscope report` writes it).
 * @param {string} json the block's text @param {string} name output file name
 */
function withData(json, name) {
  const html = fs.readFileSync(SINGLE(), 'utf8');
  assert.equal(html.split(DATA_BLOCK).length, 2, 'latscope.html holds the data block exactly once');
  const out = path.join(OUT, name);
  fs.writeFileSync(out, html.replace(DATA_BLOCK, () => `<script type="application/json" id="latscope-data">${json}</script>`));
  return out;
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const DELIVERY_CASES = [
  {
    name: 'dist/ under a sub-path of a plain static server: the demo and a real log load, the views render, every request stays under the path',
    async run(c) {
      // /some/sub/path/ -> dist (a symlink), served by the same plain server.
      const root = path.join(OUT, 'subpath-root');
      fs.rmSync(root, { recursive: true, force: true });
      fs.mkdirSync(path.join(root, 'some', 'sub'), { recursive: true });
      fs.symlinkSync(path.join(OUT, 'dist'), path.join(root, 'some', 'sub', 'path'));
      const server = await serveStatic(root);
      try {
        const p = c.page;
        const base = `${server.url}some/sub/path/`;
        await p.goto(base);
        await p.click('[data-testid=demo-button]');
        assert.equal(await waitDone(p), 'ready');
        await viewsRender(p);
        await p.setInputFiles('[data-testid=file-input]', LOCAL());
        assert.equal(await waitDone(p), 'ready');
        await p.waitForFunction(() => /2 logs loaded/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
        await viewsRender(p);
        const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        assert.equal(csv, cliPctiles([], LOCAL()));
        const outside = server.requests.filter((r) => !r.startsWith('/some/sub/path/'));
        assert.deepEqual(outside, [], 'requests outside the sub-path');
        assert.ok(server.requests.some((r) => r.endsWith('/wasm/latscope.wasm')), 'the .wasm is fetched as a plain file');
        assert.deepEqual(c.errors, []);
      } finally {
        await server.close();
      }
    },
  },
  {
    name: 'latscope.html from file:// with every network request refused: a real log through the file input, views render, csv equals the CLI, inline script refused, a link with data opens',
    async run(c) {
      const p = c.page;
      const attempted = await offline(c, async () => {
        await p.goto(pathToFileURL(SINGLE()).href);
        await p.setInputFiles('[data-testid=file-input]', LOCAL());
        assert.equal(await waitDone(p), 'ready', await p.textContent('[data-testid=status]'));
        await viewsRender(p);
        const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        assert.equal(csv, cliPctiles([], LOCAL()));
        await p.click('[data-testid=tab-heatmap]');
        await p.waitForTimeout(400);
        await p.screenshot({ path: path.join(SHOTS, 'single-file.png') });
        // The policy allows the page's own inline script by hash, nothing injected.
        const xss = await p.evaluate(() => {
          const s = document.createElement('script');
          s.textContent = 'window.__xss = 1';
          document.body.appendChild(s);
          return /** @type {any} */ (window).__xss;
        });
        assert.equal(xss, undefined);
        // Copy link with data works from file:// too: the link is this file plus the result.
        await p.click('[data-testid=copy-link-data]');
        await p.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=link-output]')).value !== '');
        const link = await p.inputValue('[data-testid=link-output]');
        assert.ok(link.startsWith(`${pathToFileURL(SINGLE()).href}#v=1&`), link.slice(0, 120));
        const q = await c.context.newPage();
        try {
          await q.goto(link);
          assert.equal(await waitDone(q), 'ready');
          const lsr = path.join(OUT, 'single-link.lsr');
          fs.writeFileSync(lsr, Buffer.from(await p.evaluate(async () => [...(await /** @type {any} */ (window).latscope.resultFile()).bytes])));
          assert.equal((await download(q, '[data-testid=export-csv]')).bytes.toString('utf8'), cliPctiles([], [lsr]));
        } finally {
          await q.close();
        }
      });
      assert.deepEqual(attempted, [], 'network requests attempted');
      const files = await p.evaluate(() => [...document.querySelectorAll('script[src], link[href]')].map((e) => e.getAttribute('src') || e.getAttribute('href')));
      assert.deepEqual(files.filter((f) => f !== 'data:,'), [], 'no file referenced');
      assert.ok(c.errors.every((e) => /Content Security Policy/.test(e)), c.errors.join('\n'));
      assert.ok(c.errors.some((e) => /inline script/.test(e)), 'the CSP refused the injected script');
    },
  },
  {
    name: 'latscope.html with an embedded result (latscope report): loads it from file:// offline with its name and view; csv equals `latscope pctiles` on the result file',
    async run(c) {
      const lsr = cliResult();
      const name = 'nightly <img src=x> run 42.lsr';
      // `latscope report` escapes < as \u003c so the text cannot close the element.
      const json = JSON.stringify({ version: 1, name, result: fs.readFileSync(lsr).toString('base64'), view: { view: 'heatmap', q: 2000, p: '50,99,99.9', g: 'job' } }).replace(/</g, '\\u003c');
      const page = withData(json, 'report-local.html');
      const p = c.page;
      const attempted = await offline(c, async () => {
        await p.goto(pathToFileURL(page).href);
        assert.equal(await waitDone(p), 'ready', await p.textContent('[data-testid=status]'));
        const s = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
        assert.deepEqual([s.view, s.quantum_ms, s.percentiles, s.group_by], ['heatmap', 2000, ['50', '99', '99.9'], 'job']);
        const table = (await p.textContent('[data-testid=file-table]')) || '';
        assert.ok(table.includes(name), `the file table names the result: ${table.slice(0, 200)}`);
        assert.equal(await p.locator('img[src=x]').count(), 0, 'the name is text, not markup');
        const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        assert.equal(csv, cliPctiles(['--quantum', '2000', '--percentiles', '50,99,99.9', '--group-by', 'job'], [lsr]));
        await p.waitForTimeout(400);
        await p.screenshot({ path: path.join(SHOTS, 'single-file-embedded.png') });
        // The viewer's changes go to the fragment and survive a reload.
        await p.selectOption('[data-testid=quantum]', '5000');
        await p.waitForFunction(() => /q=5000/.test(location.hash));
        await p.reload();
        assert.equal(await waitDone(p), 'ready');
        const again = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
        assert.deepEqual([again.view, again.quantum_ms], ['heatmap', 5000]);
      });
      assert.deepEqual(attempted, [], 'network requests attempted');
      assert.deepEqual(c.errors, []);
    },
  },
  {
    name: '`latscope report` on real logs with the built latscope.html as template: opens from file:// offline; csv equals `latscope pctiles` on its result and on the logs; the SLA verdict is written',
    async run(c) {
      const html = path.join(OUT, 'report-cli.html');
      const md = path.join(OUT, 'report-cli.md');
      execFileSync(cliPath(), ['report', '--template', SINGLE(), '--sla', 'p99<=1s', '--sla-summary', 'md', md, ...LOCAL(), '-o', html], { stdio: 'ignore' });
      assert.match(fs.readFileSync(md, 'utf8'), /PASS/);
      const p = c.page;
      const attempted = await offline(c, async () => {
        await p.goto(pathToFileURL(html).href);
        assert.equal(await waitDone(p), 'ready', await p.textContent('[data-testid=status]'));
        const s = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
        const table = (await p.textContent('[data-testid=file-table]')) || '';
        assert.ok(table.includes('local_clat_hist.1.log'), `the file table names the report's input: ${table.slice(0, 200)}`);
        const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        const args = ['--quantum', String(s.quantum_ms), '--percentiles', s.percentiles.join(',')];
        if (s.group_by && s.group_by !== 'all') args.push('--group-by', s.group_by);
        // The page answers as pctiles on the result the report holds (reduce of the same logs), which
        // is pctiles on the logs, min and max included (docs/result-format.md, "min, max, p0 and p100").
        const lsr = path.join(OUT, 'report-cli.lsr');
        execFileSync(cliPath(), ['reduce', ...LOCAL(), '-o', lsr], { stdio: 'ignore' });
        assert.equal(csv, cliPctiles(args, [lsr]), 'the report page answers as pctiles on its result');
        assert.equal(csv, cliPctiles(args, LOCAL()), 'the report page answers as pctiles on the logs');
        // The report's --sla rules are the page's (shading, summary): docs/ci-reports.md.
        assert.deepEqual(s.sla, ['p99<=1s']);
        await viewsRender(p);
        await p.screenshot({ path: path.join(SHOTS, 'report-cli.png') });
      });
      assert.deepEqual(attempted, [], 'network requests attempted');
      assert.deepEqual(c.errors, []);
    },
  },
  {
    name: 'latscope.html with bad embedded data: one sentence, the page stays usable',
    async run(c) {
      const p = c.page;
      const cases = [
        ['{"version":1,"name":"x.lsr","result":"bm90IGEgcmVzdWx0"}', /not a latscope result file/],
        ['{"version":7,"name":"x.lsr","result":""}', /version 7.*newer latscope/],
        ['{"version":1,', /not JSON/],
      ];
      for (const [json, re] of /** @type {[string, RegExp][]} */ (cases)) {
        const page = withData(json, 'report-bad.html');
        await p.goto(pathToFileURL(page).href);
        assert.equal(await waitDone(p), 'error');
        assert.match((await p.textContent('[data-testid=status]')) || '', re);
      }
      // Truncated result bytes: the engine names what is wrong in the file table.
      const bytes = fs.readFileSync(cliResult());
      const page = withData(JSON.stringify({ version: 1, name: 'cut.lsr', result: bytes.subarray(0, 200).toString('base64') }), 'report-cut.html');
      await p.goto(pathToFileURL(page).href);
      assert.equal(await waitDone(p), 'error');
      assert.match((await p.textContent('[data-testid=file-errors]')) || '', /cut\.lsr.*result/s);
      // Still usable: a log through the file input.
      await p.setInputFiles('[data-testid=file-input]', LOCAL());
      assert.equal(await waitDone(p), 'ready');
      assert.deepEqual(c.errors.filter((e) => !/embedded data/.test(e)), []);
    },
  },
];
