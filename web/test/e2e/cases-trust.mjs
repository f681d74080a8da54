// End-to-end cases of the trust summary in the file table and the account
// control (docs/page-loading.md §9; docs/folders.md):
// tests/fixtures/local holds a histogram log and a per-I/O log of each of
// two jobs and fio's json+ output of the same run. Real files through the
// file input; the page's CSV must be `latscope pctiles` (--account hist)
// on the same files byte for byte. No timing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { cliPath, cliPctiles, fixture, loadThroughInput, download, settled, waitDone } from './helpers.mjs';
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
 * The file table's rows: name -> the trust columns (fio version, unit, I/Os
 * and its tooltip; acct: "not added: counted by X" for a file another log
 * counts, else null), the row's classes and the warnings of the line under it.
 * @param {Page} p
 */
function trustTable(p) {
  return p.$$eval('[data-testid=file-table] tbody tr[data-file]:not(.trust-line):not(.offset-editor)', (trs) =>
    Object.fromEntries(
      trs.map((tr) => {
        const line = tr.nextElementSibling?.classList.contains('trust-line') ? tr.nextElementSibling : null;
        const q = (/** @type {string} */ sel) => tr.querySelector(sel)?.textContent || null;
        const ios = tr.querySelector('td.ios');
        const iosTitle = ios?.getAttribute('title') ?? '';
        return [
          tr.getAttribute('data-file'),
          {
            fio: q('td.fio'),
            unit: q('td.unit'),
            ios: q('td.ios'),
            iosTitle,
            acct: ios?.classList.contains('not-added') ? iosTitle.split('\n')[0] : null,
            cls: tr.className,
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

/**
 * `latscope report` of these files into the single-file page run.mjs built
 * (exit 1 is a report with doubtful inputs: written all the same).
 * @param {string} name output file in out/ @param {string[]} args @param {string[]} files
 */
function cliReport(name, args, files) {
  const out = path.join(OUT, name);
  const r = spawnSync(cliPath(), ['report', '--template', path.join(OUT, 'dist', 'latscope.html'), ...args, ...files, '-o', out], { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `latscope report exit ${r.status}: ${r.stderr}`);
  return { out, status: r.status, stderr: r.stderr };
}

/**
 * The report's inputs under the file table (file-table.js renderReportInputs):
 * name -> the trust line's fields, the row's classes, the warnings.
 * @param {Page} p
 */
function inputsTable(p) {
  return p.$eval('[data-testid=report-inputs]', (el) => ({
    hidden: /** @type {HTMLElement} */ (el).hidden,
    head: el.querySelector('.inputs-head')?.textContent ?? '',
    ignored: [...el.querySelectorAll('.ignored-files li')].map((li) => li.getAttribute('data-file')),
    rows: Object.fromEntries(
      [...el.querySelectorAll('tr[data-input]')].map((tr) => {
        const line = tr.nextElementSibling?.classList.contains('trust-line') ? tr.nextElementSibling : null;
        return [
          tr.querySelector('td.name')?.textContent,
          {
            file: tr.getAttribute('data-input'),
            facts: line?.querySelector('.trust-facts')?.textContent ?? null,
            cls: tr.className,
            warnings: [...(line?.querySelectorAll('.trust-warning') ?? [])].map((d) => d.textContent),
          },
        ];
      }),
    ),
  }));
}

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const TRUST_CASES = [
  {
    name: "trust: a group_reporting run (numjobs=3, one json+ entry) sets the run's 3 logs against its group's count, no row doubtful; fio's compressed .log.fz files say what to do; CSV equals `latscope pctiles`",
    /** @param {Ctx} c */
    async run(c) {
      const p = c.page;
      const dir = fixture('folders', 'grouped');
      const files = [
        ...fs.readdirSync(dir).sort().map((f) => path.join(dir, f)),
        fixture('fz', 'fz_clat.1.log.fz'),
        fixture('fz', 'fz_clat_hist.1.log.fz'),
      ];
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      const t = await trustTable(p);
      const json = t['grouped.json'];
      assert.ok(json, Object.keys(t).join(', '));
      assert.equal(json.ios, '2,701/2,701');
      for (const [name, row] of Object.entries(t)) {
        assert.doesNotMatch(row.cls, /trust-(warn|doubtful)/, name);
        assert.deepEqual(row.warnings, [], name);
      }
      const errors = await p.$$eval('[data-testid=file-errors] .file-error-msg', (ds) => ds.map((d) => d.textContent));
      assert.ok(errors.some((e) => /fz_clat\.1\.log\.fz: a fio log stored compressed \(log_store_compressed=1\): not read; 'fio --inflate-log=fz_clat\.1\.log\.fz > fz_clat\.1\.log'/.test(e ?? '')), errors.join('\n'));
      assert.ok(errors.some((e) => /fz_clat_hist\.1\.log\.fz: a fio histogram log stored compressed .* without its histograms/.test(e ?? '')), errors.join('\n'));
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'trust-grouped-fz.png') });
      const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      // The .fz files make the CLI exit 2 (unusable) and add nothing: the CSV is that of the other files.
      const q = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.quantum_ms);
      assert.equal(csv, cliPctiles(['--quantum', String(q)], files.filter((f) => !f.endsWith('.fz'))));
      assert.deepEqual(c.errors, []);
    },
  },
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
        assert.match(hist.iosTitle, /adding both would count each I\/O twice/, 'the why is the tooltip');
        assert.equal(hist.ios, 'not added', 'no I/O count for a file not added');
        assert.deepEqual([perIo.fio, perIo.unit, perIo.acct, perIo.ios], ['fio-3.33', 'ns', null, '8,000/8,000']);
        assert.match(perIo.iosTitle, /^holds 8,000 of the 8,000 I\/Os fio counted \(its json\+ output\)$/);
        assert.deepEqual(perIo.warnings, [], 'no warning');
        assert.doesNotMatch(perIo.cls, /trust-(warn|doubtful)/);
      }
      assert.equal(t['local.json'].fio, 'fio-3.33');
      assert.equal(t['local.json'].ios, '16k');
      assert.equal(t['local.json'].iosTitle, '16,000 I/Os');
      // The account control, with the default chosen.
      assert.equal(await p.isVisible('[data-testid=account]'), true, 'account control shown');
      assert.equal(await p.inputValue('[data-testid=account]'), 'per-io');
      assert.match((await p.textContent('[data-testid=account-choice]')) || '', /2 files not added/);
      // The trust columns are inside the sidebar at its default width.
      const fit = await p.evaluate(() => ({
        cells: Math.max(...Array.from(document.querySelectorAll('#file-table td.unit, #file-table td.ios')).map((td) => td.getBoundingClientRect().right)),
        side: /** @type {HTMLElement} */ (document.querySelector('#sidebar')).getBoundingClientRect().right,
      }));
      assert.ok(fit.cells <= fit.side, JSON.stringify(fit));
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
        assert.equal(hist.acct, null);
        // fio never logs a job's last window: a histogram log holds a little less than fio counted.
        assert.match(hist.ios || '', /^7,\d{3}\/8,000$/);
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
      assert.equal(cut.acct, null);
      assert.match(cut.ios || '', /^[\d,]+\/8,000$/);
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

TRUST_CASES.push(
  {
    name: 'report inputs: `latscope report` of tests/fixtures/local opened from file://: each input named with its trust line (histogram logs not added, per-I/O logs I/Os 8,000 of 8,000), the job file ignored',
    async run(c) {
      const p = c.page;
      const files = LOCAL();
      const rep = cliReport('report-inputs.html', [], files);
      assert.equal(rep.status, 0, rep.stderr);
      await p.goto(pathToFileURL(rep.out).href);
      assert.equal(await waitDone(p), 'ready', await p.textContent('[data-testid=status]'));
      await settled(p);
      const t = await inputsTable(p);
      assert.equal(t.hidden, false);
      assert.equal(t.head, 'Made from 6 files');
      for (const j of [1, 2]) {
        assert.deepEqual(t.rows[`local_clat_hist.${j}.log`], { file: fixture('local', `local_clat_hist.${j}.log`), facts: `not added: counted by local_clat.${j}.log`, cls: 'not-added', warnings: [] });
        assert.deepEqual(t.rows[`local_clat.${j}.log`], { file: fixture('local', `local_clat.${j}.log`), facts: 'fio-3.33 · ns · per-I/O · I/Os 8,000 of 8,000', cls: '', warnings: [] });
      }
      assert.equal(t.rows['local.json'].facts, 'fio-3.33 · I/Os 16,000');
      assert.deepEqual(Object.keys(t.rows).length, 5);
      assert.deepEqual(t.ignored, [fixture('local', 'local.fio')]);
      // The inputs fit the sidebar's default width as the file table does.
      const fit = await p.$eval('#report-inputs', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      assert.ok(fit.scroll <= fit.client, `horizontal scroll: ${fit.scroll} > ${fit.client}`);
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'report-inputs.png') });
      // Other files opened in the report's page replace its result: its inputs go with it.
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      await p.waitForFunction(() => document.querySelector('[data-testid=file-table] tr[data-file="local_clat.1.log"]'));
      assert.equal(await p.$eval('[data-testid=report-inputs]', (el) => /** @type {HTMLElement} */ (el).hidden && el.children.length), 0);
      noPageErrors(c);
    },
  },
  {
    name: 'report inputs: `latscope report --account hist` of the fio-3.12 run with a cut histogram log, from file://: the warnings as text, the histogram logs doubtful, counted in the heading',
    async run(c) {
      const p = c.page;
      const files = defectiveRun();
      const rep = cliReport('report-inputs-defective.html', ['--account', 'hist'], files);
      assert.equal(rep.status, 1, 'doubtful inputs: exit 1');
      await p.goto(pathToFileURL(rep.out).href);
      assert.equal(await waitDone(p), 'ready', await p.textContent('[data-testid=status]'));
      await settled(p);
      const t = await inputsTable(p);
      assert.equal(t.head, 'Made from 6 files · 2 doubtful');
      for (const j of [1, 2]) assert.equal(t.rows[`local_clat.${j}.log`].facts, `not added: counted by local_clat_hist.${j}.log`);
      const cut = t.rows['local_clat_hist.1.log'];
      assert.match(cut.cls, /trust-doubtful/);
      assert.match(cut.facts || '', /^fio-3\.12 · ns · histogram · I\/Os [\d,]+ of 8,000$/);
      assert.equal(cut.warnings.length, 2, cut.warnings.join(' | '));
      assert.match(cut.warnings[0], /^✗ doubtful: fio-3\.12 wrote broken histogram logs/);
      assert.match(cut.warnings[1], /^⚠ holds [\d,]+ of the 8,000 I\/Os fio counted/);
      const whole = t.rows['local_clat_hist.2.log'];
      assert.match(whole.cls, /trust-doubtful/, 'the version\'s defect alone makes it doubtful');
      assert.equal(whole.warnings.length, 1);
      assert.equal(t.rows['local.json'].facts, 'fio-3.12 · I/Os 16,000');
      await p.locator('.files').screenshot({ path: path.join(SHOTS, 'report-inputs-defective.png') });
      noPageErrors(c);
    },
  },
);

/** Every file of a fixture folder (sub-folders are no input). @param {...string} parts */
// The folder's files with its json+ and a gzip copy of it (gzip -k) in a
// folder of their own: the copy is left out, the CSV is the folder's.
const withJsonCopy = (/** @type {string[]} */ files) => {
  const dir = path.join(OUT, 'json-copy');
  fs.mkdirSync(dir, { recursive: true });
  const out = files.map((f) => {
    const to = path.join(dir, path.basename(f));
    fs.copyFileSync(f, to);
    return to;
  });
  for (const f of out.filter((x) => x.endsWith('.json'))) {
    fs.writeFileSync(`${f}.gz`, zlib.gzipSync(fs.readFileSync(f)));
    out.push(`${f}.gz`);
  }
  return out.sort();
};

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
// its CSV must be the CLI's, which settles them as it reads. Also a job's
// logs under two prefixes its json+ names, one run's status reports, and a
// log beside the json+ of a run that wrote none.
for (const [label, parts] of /** @type {[string, string[]][]} */ ([
  ['fio 3.1 run (4-column per-I/O logs in ns)', ['fio-versions', '3.1']],
  ['fio 2.21 run (4-column per-I/O logs in us)', ['fio-versions', '2.21']],
  ['fio 3.33 per_job_logs=0 folder', ['folders', 'pjl0-both']],
  ['fio 3.33 client/server folder', ['folders', 'cs-both']],
  ['fio 3.33 folder of every log kind', ['folders', 'all-kinds']],
  ['fio 3.33 coarse histogram + log_avg_msec folder', ['folders', 'coarse-avg']],
  ['fio 3.33 log_unix_epoch folder', ['folders', 'epoch-both']],
  ["fio 3.33 folder of one job's logs under two prefixes", ['folders', 'two-prefixes']],
  ['fio 3.33 --status-interval folder (a json+ report a second)', ['folders', 'status']],
  ["fio 3.33 folder of one run's log beside a later run's json+ (no logs)", ['folders', 'other-run']],
  ['fio 3.33 folder of every log kind, its json+ beside a gzip copy (gzip -k)', ['folders', 'all-kinds', '+json.gz']],
])) {
  TRUST_CASES.push({
    name: `whole folder, ${label}: Open folder's CSV equals \`latscope pctiles\` (default and --account hist)`,
    async run(c) {
      const p = c.page;
      const all = parts.at(-1) === '+json.gz' ? withJsonCopy(FOLDER(...parts.slice(0, -1))) : FOLDER(...parts);
      // One run of a version folder: its v job (v.json, v_*.log, v.fio).
      const files = parts[0] === 'fio-versions' ? all.filter((f) => /\/v(\.|_)/.test(f)) : all;
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      for (const [args, acc] of /** @type {[string[], string][]} */ ([[[], 'per-io'], [['--account', 'hist'], 'hist']])) {
        if (acc === 'hist') {
          // The control shows only when a job has two accounts (coarse-avg's
          // per-I/O logs are window averages, no account: the CSV is one).
          if (!(await p.isVisible('[data-testid=account]'))) {
            assert.equal(cliPctiles(args, files), cliPctiles([], files), `${label}: one account, one CSV`);
            continue;
          }
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

// Logs the page reads with what their writer says of them: fio >= 3.37's
// log_window_value=both logs (a window's average and maximum on one line)
// and YCSB's HdrHistogram logs (microseconds, named by their first comment).
// Opened through the file input, the CSV is `latscope pctiles`'s at the same
// quantum and the notes say what the numbers are (docs/formats-fio-lat.md,
// "log_avg_msec logs"; docs/formats-hdr.md, "Units").
for (const [label, files, said, shot] of /** @type {[string, string[], RegExp, string][]} */ ([
  [
    "fio 3.42 log_window_value=both clat logs (each window's average and maximum)",
    ['wboth_clat.1.log', 'wbo_clat.2.log'].map((f) => fixture('window-value', f)),
    /log_window_value=both: each line holds a window's average and its maximum/,
    'window-value-both.png',
  ],
  // The file table's unit cell: µs, its title the header line that says so.
  ["YCSB's HdrHistogram logs (microseconds)", ['READ.hdr', 'UPDATE.hdr'].map((f) => fixture('ycsb', f)), /µs/, 'ycsb-hdr.png'],
])) {
  TRUST_CASES.push({
    name: `writer's meaning, ${label}: Open's CSV equals \`latscope pctiles\`, the page says what the values are`,
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
      const q = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.quantum_ms);
      assert.equal(csv, cliPctiles(['--quantum', String(q)], files), label);
      const where = files[0].endsWith('.hdr') ? '.files' : '[data-testid=query-notes]';
      const text = (await p.textContent(where)) || '';
      assert.match(text, said, text);
      // The strip under the chart counts what the rows count: windows for log_avg_msec rows.
      const strip = (await p.textContent('.strip')) || '';
      assert.match(strip, files[0].endsWith('.hdr') ? /IOPS/ : /windows\/s/, strip);
      await p.screenshot({ path: path.join(SHOTS, shot) });
      noPageErrors(c);
    },
  });
}
