// End-to-end cases of the trust summary in the file table and the account
// control (docs/page-views.md "Trust columns and the account"; docs/folders.md):
// tests/fixtures/local holds a histogram log and a per-I/O log of each of
// two jobs and fio's json+ output of the same run. Real files through the
// file input; the page's CSV must be `latscope pctiles` (--account hist)
// on the same files byte for byte. No timing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cliPctiles, fixture, loadThroughInput, download, settled } from './helpers.mjs';
import { SHOTS, OUT } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

/** Every file of tests/fixtures/local (its reference/ folder is no input). */
const LOCAL = () =>
  fs
    .readdirSync(fixture('local'))
    .filter((f) => fs.statSync(fixture('local', f)).isFile())
    .sort()
    .map((f) => fixture('local', f));

/**
 * The file table's rows: name -> the trust fields of the line under the
 * row (null: not shown), the row's classes and the line's warnings.
 * @param {Page} p
 */
function trustTable(p) {
  return p.$$eval('[data-testid=file-table] tbody tr[data-file]:not(.trust-line):not(.offset-editor)', (trs) =>
    Object.fromEntries(
      trs.map((tr) => {
        const line = tr.nextElementSibling?.classList.contains('trust-line') ? tr.nextElementSibling : null;
        const q = (/** @type {string} */ sel) => line?.querySelector(sel)?.textContent ?? null;
        return [
          tr.getAttribute('data-file'),
          {
            fio: q('.fio'),
            unit: q('.unit'),
            acct: q('.acct'),
            ios: q('.ios'),
            facts: q('.trust-facts'),
            cls: tr.className,
            acctTitle: line?.querySelector('.acct')?.getAttribute('title') ?? '',
            warnings: [...(line?.querySelectorAll('.trust-warning') ?? [])].map((d) => d.textContent),
          },
        ];
      }),
    ),
  );
}

/**
 * The local run as fio-3.12 would have left it (as tests/folder_test.cc
 * makes it): json+ saying fio-3.12, whose histogram logs are known to be
 * broken, and the first histogram log cut in half. In out/defective.
 */
function defectiveRun() {
  const dir = path.join(OUT, 'defective');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const f of LOCAL()) {
    let text = fs.readFileSync(f, 'utf8');
    const name = path.basename(f);
    if (name === 'local_clat_hist.1.log') text = text.slice(0, text.indexOf('\n', text.length / 2) + 1);
    if (name === 'local.json') text = text.replace('fio-3.33', 'fio-3.12');
    fs.writeFileSync(path.join(dir, name), text);
  }
  return fs.readdirSync(dir).sort().map((f) => path.join(dir, f));
}

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const TRUST_CASES = [
  {
    name: 'trust: histogram + per-I/O logs + json+ of the same jobs: histogram logs not added, I/Os 8,000 of 8,000, CSV equals `latscope pctiles`; the account switched to histogram logs: CSV equals `latscope pctiles --account hist`',
    async run(c) {
      const p = c.page;
      const files = LOCAL();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      let t = await trustTable(p);
      for (const j of [1, 2]) {
        const hist = t[`local_clat_hist.${j}.log`];
        const perIo = t[`local_clat.${j}.log`];
        assert.ok(hist && perIo, `rows of job ${j}: ${Object.keys(t)}`);
        assert.equal(hist.acct, `not added: counted by local_clat.${j}.log`);
        assert.match(hist.cls, /not-added/);
        assert.match(hist.acctTitle, /adding both would count each I\/O twice/, 'the why is the tooltip');
        assert.equal(hist.ios, null, 'no I/O count for a file not added');
        assert.deepEqual([perIo.fio, perIo.unit, perIo.acct, perIo.ios], ['fio-3.33', 'ns', 'per-I/O', '8,000 of 8,000']);
        assert.equal(perIo.facts, 'fio-3.33 · ns · per-I/O · I/Os 8,000 of 8,000');
        assert.deepEqual(perIo.warnings, [], 'no warning');
        assert.doesNotMatch(perIo.cls, /trust-(warn|doubtful)/);
      }
      assert.equal(t['local.json'].fio, 'fio-3.33');
      assert.equal(t['local.json'].ios, '16,000');
      // The account control, with the default chosen.
      assert.equal(await p.isVisible('[data-testid=account]'), true, 'account control shown');
      assert.equal(await p.inputValue('[data-testid=account]'), 'per-io');
      assert.match((await p.textContent('[data-testid=account-choice]')) || '', /2 files not added/);
      // Still no horizontal scroll at the sidebar's default width.
      const fit = await p.$eval('#file-table', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      assert.ok(fit.scroll <= fit.client, `horizontal scroll: ${fit.scroll} > ${fit.client}`);
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'trust-file-table.png') });
      let csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      assert.equal(csv, cliPctiles([], files));

      // Histogram logs: the per-I/O logs are the ones not added now.
      await p.selectOption('[data-testid=account]', 'hist');
      await p.waitForFunction(() => document.querySelector('[data-testid=file-table] tr[data-file="local_clat.1.log"]')?.classList.contains('not-added'));
      await settled(p);
      t = await trustTable(p);
      for (const j of [1, 2]) {
        assert.equal(t[`local_clat.${j}.log`].acct, `not added: counted by local_clat_hist.${j}.log`);
        const hist = t[`local_clat_hist.${j}.log`];
        assert.equal(hist.acct, 'histogram');
        // fio never logs a job's last window: a histogram log holds a little less than fio counted.
        assert.match(hist.ios || '', /^7,\d{3} of 8,000$/);
      }
      assert.match(await p.evaluate(() => location.hash), /(^#|&)acc=hist(&|$)/);
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'trust-file-table-hist.png') });
      csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      const cliHist = cliPctiles(['--account', 'hist'], files);
      assert.equal(csv, cliHist);
      assert.notEqual(cliHist, cliPctiles([], files), 'the two accounts give different CSVs on these files');

      // A link with acc=hist: the account is restored before the files load.
      // (about:blank first: a change of the fragment alone would not reload the page.)
      await p.goto('about:blank');
      await p.goto(`${c.url}#v=1&acc=hist`);
      await p.setInputFiles('[data-testid=file-input]', files);
      await p.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('data-state') === 'ready');
      await settled(p);
      assert.equal(await p.inputValue('[data-testid=account]'), 'hist');
      csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      assert.equal(csv, cliHist);
      noPageErrors(c);
    },
  },
  {
    name: 'trust: a fio-3.12 run with a cut histogram log: warnings as text under the rows, doubtful rows marked when the histogram logs are used; CSV equals `latscope pctiles --account hist`',
    async run(c) {
      const p = c.page;
      const files = defectiveRun();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      // Per-I/O logs used: the broken histogram logs count nothing, so they are named, not doubtful.
      let t = await trustTable(p);
      const left = t['local_clat_hist.1.log'];
      assert.match(left.acct || '', /^not added/);
      assert.match(left.cls, /trust-warn/);
      assert.doesNotMatch(left.cls, /trust-doubtful/);
      assert.match(left.warnings[0] || '', /^⚠ fio-3\.12 wrote broken histogram logs/);
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'trust-defective-per-io.png') });

      await p.selectOption('[data-testid=account]', 'hist');
      await p.waitForFunction(() => document.querySelector('[data-testid=file-table] tr[data-file="local_clat_hist.1.log"]')?.classList.contains('trust-doubtful'));
      await settled(p);
      t = await trustTable(p);
      const cut = t['local_clat_hist.1.log'];
      assert.equal(cut.acct, 'histogram');
      assert.equal(cut.warnings.length, 2, cut.warnings.join(' | '));
      assert.match(cut.warnings[0], /^✗ doubtful: fio-3\.12 wrote broken histogram logs/);
      assert.match(cut.warnings[1], /^⚠ holds [\d,]+ of the 8,000 I\/Os fio counted/);
      const whole = t['local_clat_hist.2.log'];
      assert.match(whole.cls, /trust-doubtful/, 'the version\'s defect alone makes it doubtful');
      assert.equal(whole.warnings.length, 1);
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'trust-defective-hist.png') });
      const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      assert.equal(csv, cliPctiles(['--account', 'hist'], files));
      noPageErrors(c);
    },
  },
];

/** Every file of a fixture folder (sub-folders are no input). @param {...string} parts */
const FOLDER = (...parts) =>
  fs
    .readdirSync(fixture(...parts))
    .filter((f) => fs.statSync(fixture(...parts, f)).isFile())
    .sort()
    .map((f) => fixture(...parts, f));

// Whole folders whose reading needs the folder's evidence (docs/folders.md):
// 4-column per-I/O logs of fio 3.1 (ns, said by its json+) and of fio 2.21
// (us), per_job_logs=0 segments in the order the jobs ended, a client log
// whose defect only json+ shows. The page settles them when it plans runs;
// its CSV must be the CLI's, which settles them as it reads.
for (const [label, parts] of /** @type {[string, string[]][]} */ ([
  ['fio 3.1 run (4-column per-I/O logs in ns)', ['fio-versions', '3.1']],
  ['fio 2.21 run (4-column per-I/O logs in us)', ['fio-versions', '2.21']],
  ['fio 3.33 per_job_logs=0 folder', ['folders', 'pjl0-both']],
  ['fio 3.33 client/server folder', ['folders', 'cs-both']],
])) {
  TRUST_CASES.push({
    name: `whole folder, ${label}: Open folder's CSV equals \`latscope pctiles\` (default and --account hist)`,
    async run(c) {
      const p = c.page;
      const all = FOLDER(...parts);
      // One run of a version folder: its v job (v.json, v_*.log, v.fio).
      const files = parts[0] === 'fio-versions' ? all.filter((f) => /\/v(\.|_)/.test(f)) : all;
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      for (const [args, acc] of /** @type {[string[], string][]} */ ([[[], 'per-io'], [['--account', 'hist'], 'hist']])) {
        if (acc === 'hist') {
          await p.selectOption('[data-testid=account]', 'hist');
          await settled(p);
        }
        const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        // The page opens at the logs' interval; the CLI is told the same quantum.
        const q = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.quantum_ms);
        assert.equal(csv, cliPctiles([...args, '--quantum', String(q)], files), `${label}, account ${acc}`);
      }
      noPageErrors(c);
    },
  });
}
