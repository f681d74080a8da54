// The trust summary on the page (docs/page-loading.md §9; core folder.h,
// docs/folders.md): the engine's trust() through
// both implementations (in this thread and behind the worker protocol) on
// tests/fixtures/local, a histogram and a per-I/O log of each of two jobs
// with fio's json+ output; the CSV with the account option equals the
// CLI's; the file table's trust lines and the account control rendered into
// a small fake document; the account in the options and the URL fragment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { engineImpls } from './node-endpoint.js';
import { fakeContainer } from './fake-dom.js';
import { renderFileTable } from '../../src/app/file-table.js';
import { engineOptions, accountsOf } from '../../src/app/options.js';
import { initialState } from '../../src/app/state.js';
import { parseFragment, stateToFragment } from '../../src/app/url-state.js';
import { renderAccountChoice, renderReportInputs, trustCells } from '../../src/app/trust-rows.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LOCAL = path.join(ROOT, 'tests/fixtures/local');
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const hasCli = fs.existsSync(CLI);
/** The files of the local run (its reference/ folder is no input). */
const NAMES = fs.readdirSync(LOCAL).filter((f) => fs.statSync(path.join(LOCAL, f)).isFile()).sort();

/** @param {string} name */
const item = (name) => ({ name, file: new File([fs.readFileSync(path.join(LOCAL, name))], name) });

/** `latscope pctiles ARGS... FILES` (exit 1: doubtful numbers or skipped lines; the CSV is whole). @param {string[]} args */
function cliPctiles(args) {
  try {
    return execFileSync(CLI, ['pctiles', ...args, ...NAMES.map((n) => path.join(LOCAL, n))], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    const err = /** @type {any} */ (e);
    if (err.status === 1) return String(err.stdout);
    throw e;
  }
}

/** @param {any[]} rows @param {string} file */
const rowOf = (rows, file) => {
  const r = rows.find((x) => x.file === file);
  if (!r) throw new Error(`no trust row of ${file}: ${rows.map((x) => x.file)}`);
  return r;
};

describe.each(engineImpls(2))('trust (%s)', (_name, make) => {
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  beforeAll(async () => {
    engine = await make();
    await engine.loadFiles(NAMES.map(item));
    await engine.assignRuns({ by: 'auto' });
  });
  afterAll(() => engine?.terminate());

  it('names the histogram logs not added and compares the per-I/O logs with fio\'s count', async () => {
    const rows = await engine.trust([]);
    for (const j of [1, 2]) {
      const io = rowOf(rows, `local_clat.${j}.log`);
      expect(io).toMatchObject({ account: 'per-io', unit: 'ns', fio_version: 'fio-3.33', used_instead: '', ios: 8000, fio_ios: 8000, compared: true, doubtful: false });
      const h = rowOf(rows, `local_clat_hist.${j}.log`);
      expect(h.used_instead).toBe(`local_clat.${j}.log`);
      expect(h.notes.join(' ')).toMatch(/adding both would count each I\/O twice/);
    }
    expect(rowOf(rows, 'local.json').fio_version).toBe('fio-3.33');
  });

  it('with the histogram account the per-I/O logs are the ones left out', async () => {
    const rows = await engine.trust(['hist']);
    expect(rowOf(rows, 'local_clat.1.log').used_instead).toBe('local_clat_hist.1.log');
    const h = rowOf(rows, 'local_clat_hist.1.log');
    expect(h).toMatchObject({ used_instead: '', compared: true, fio_ios: 8000 });
    // fio never logs a job's last, partial window.
    expect(h.ios).toBeLessThan(8000);
  });

  it('an unticked per-I/O log gives its job back to the histogram log', async () => {
    const rows = await engine.trust([], ['local_clat.1.log']);
    expect(rowOf(rows, 'local_clat_hist.1.log').used_instead).toBe('');
    expect(rowOf(rows, 'local_clat_hist.2.log').used_instead).toBe('local_clat.2.log');
  });

  it('refuses an account it does not know, with the engine\'s sentence', async () => {
    await expect(engine.trust(['both'])).rejects.toMatchObject({ name: 'EngineError', message: expect.stringMatching(/unknown account "both"/) });
  });

  it.skipIf(!hasCli)('the CSV equals `latscope pctiles` and `latscope pctiles --account hist`', async () => {
    expect(await engine.csv(engineOptions(initialState()))).toBe(cliPctiles([]));
    expect(await engine.csv(engineOptions({ ...initialState(), account: 'hist' }))).toBe(cliPctiles(['--account', 'hist']));
  });
});

/** @returns {import('../../src/engine/inthread.js').TrustRow} */
function trustRow(/** @type {Partial<import('../../src/engine/inthread.js').TrustRow>} */ over) {
  return { file: 'x', what: 'fio per-I/O log (clat)', fio_version: 'fio-3.33', unit: 'ns', account: 'per-io', used_instead: '', ios: 8000, fio_ios: 8000, compared: true, repairs: '', warnings: [], notes: [], doubtful: false, ok: true, ...over };
}

/** A loaded log as the engine describes it (report.h source_json), as much as the table reads. @param {string} name @param {string} format */
function source(name, format) {
  return { name, format, layout: '', prefix: '', job: '1', host: '', labels: {}, status: { ok: true, message: '' }, series: [{ dir: 'read', job: '1', repaired: false, role: 'time', labels: {} }], issues: [], examples: [], records: 8000, lines: 8000, bytes: 1 };
}

/**
 * Renders the table of these sources and trust rows into a fake document.
 * @param {any[]} sources @param {any[] | null} trust
 */
function render(sources, trust) {
  const { doc, el } = fakeContainer();
  const hostEl = doc.createElement('div');
  const errEl = doc.createElement('div');
  const noop = () => {};
  renderFileTable(/** @type {any} */ (el), /** @type {any} */ (hostEl), /** @type {any} */ (errEl), {
    sources,
    pending: new Map(),
    state: initialState(),
    trust,
    onToggleFile: noop,
    onToggleHost: noop,
    onOffset: noop,
    onFileOffset: noop,
  });
  const rows = el.querySelectorAll('tr').filter((tr) => tr.dataset.file);
  /** The file's row and the trust line under it. @param {string} name */
  const of = (name) => {
    const row = rows.find((r) => r.dataset.file === name && !r.classList.contains('trust-line'));
    const line = row?.nextElementSibling?.classList.contains('trust-line') ? row.nextElementSibling : null;
    return { row, line };
  };
  return { doc, el, rows, of };
}

describe('trustCells', () => {
  it('a per-I/O log compared with fio\'s count', () => {
    const c = trustCells(trustRow({}));
    expect([c.fio.text, c.unit.text, c.account.text, c.ios.text]).toEqual(['fio-3.33', 'ns', 'per-I/O', '8,000 of 8,000']);
    expect(c.ios.title).toMatch(/holds 8,000 of the 8,000 I\/Os fio counted/);
    expect(c.notAdded).toBe(false);
  });

  it('a histogram log another log counts: "not added: counted by X", the why as the tooltip, no I/O count', () => {
    const why = 'not added: counts the same I/Os of job 1 (clat) as the per-I/O log run/local_clat.1.log, which is used';
    const c = trustCells(trustRow({ file: 'run/local_clat_hist.1.log', account: 'hist', used_instead: 'run/local_clat.1.log', ios: 7205, fio_ios: 0, compared: false, notes: [why] }), (n) => n.replace(/^run\//, ''));
    expect(c.account.text).toBe('not added: counted by local_clat.1.log');
    expect(c.account.title).toBe(why);
    expect(c.ios.text).toBe('');
    expect(c.notAdded).toBe(true);
  });

  it('a version inferred from the layout, a unit in µs decided from the folder, a count fio did not give', () => {
    const c = trustCells(trustRow({ fio_version: 'fio 2 (1216 bins)', unit: 'us', account: 'hist', ios: 123456, fio_ios: 0, compared: false, notes: ['unit: us, decided by the run\'s json+ (fio-2.21)'] }));
    expect(c.fio.text).toBe('fio 2');
    expect(c.fio.title).toMatch(/inferred from the log itself/);
    expect(c.unit.text).toBe('µs');
    expect(c.unit.title).toMatch(/decided by the run's json\+/);
    expect(c.ios.text).toBe('123,456');
    expect(c.ios.title).toMatch(/not compared/);
  });
});

describe('trustCells: which files show an I/O count', () => {
  it('fio logs and fio json+ do; a result (fixed-point bins, not I/Os) does not', () => {
    const result = trustRow({ what: 'latscope result', fio_version: '', unit: '', account: '', ios: 3867886485537, fio_ios: 0, compared: false });
    expect(trustCells(result, undefined, 'result').ios.text).toBe('');
    const json = trustRow({ what: 'fio json+ output', unit: '', account: '', ios: 16000, fio_ios: 0, compared: false });
    expect(trustCells(json, undefined, 'fio-json').ios.text).toBe('16,000');
  });

  it('a result has no trust line at all', () => {
    const t = render([source('day.lsr', 'result')], [trustRow({ file: 'day.lsr', what: 'latscope result', fio_version: '', unit: '', account: '', ios: 3867886485537, fio_ios: 0, compared: false })]);
    expect(t.of('day.lsr').line).toBe(null);
  });
});

describe('the file table with the trust summary', () => {
  const SOURCES = [source('local_clat.1.log', 'fio-lat'), source('local_clat_hist.1.log', 'fio-hist'), source('local.json', 'fio-json')];
  const TRUST = [
    trustRow({ file: 'local_clat.1.log', repairs: 'client/server defect repaired (2 series)' }),
    trustRow({ file: 'local_clat_hist.1.log', account: 'hist', what: 'fio histogram log', used_instead: 'local_clat.1.log', ios: 7205, fio_ios: 0, compared: false, notes: ['not added: counts the same I/Os of job 1 (clat) as the per-I/O log local_clat.1.log'] }),
    trustRow({ file: 'local.json', account: '', unit: '', what: 'fio json+ output', ios: 16000, fio_ios: 0, compared: false }),
  ];

  it('columns of each log: fio version, unit, I/Os of fio\'s count or "not added"; no line without warnings', () => {
    const t = render(SOURCES, TRUST);
    const io = t.of('local_clat.1.log');
    expect(io.row?.querySelector('td.fio')?.textContent).toBe('fio-3.33');
    expect(io.row?.querySelector('td.unit')?.textContent).toBe('ns');
    expect(io.row?.querySelector('td.ios')?.textContent).toBe('8,000/8,000');
    expect(io.row?.querySelector('td.ios')?.title).toMatch(/^holds 8,000 of the 8,000 I\/Os fio counted/);
    expect(io.line).toBe(null);
    // Repairs are the rep column's: its tooltip, not another line.
    expect(io.row?.querySelector('td.rep')?.title).toMatch(/^client\/server defect repaired \(2 series\)/);
    const h = t.of('local_clat_hist.1.log');
    expect(h.row?.classList.contains('not-added')).toBe(true);
    const ios = h.row?.querySelector('td.ios');
    expect(ios?.textContent).toBe('not added');
    expect(ios?.title).toMatch(/^not added: counted by local_clat\.1\.log\nnot added: counts the same I\/Os/);
    expect(t.of('local.json').row?.querySelector('td.ios')?.textContent).toBe('16k');
    expect(t.of('local.json').row?.querySelector('td.ios')?.title).toBe('16,000 I/Os');
  });

  it('warnings as text under the row, the row marked; a doubtful row more so', () => {
    const warned = trustRow({ file: 'local_clat.1.log', warnings: ['fio-3.3 wrote pairs of records with the same timestamp (fio issue #682)'] });
    const doubtful = trustRow({ file: 'local_clat_hist.1.log', account: 'hist', doubtful: true, ios: 3605, warnings: ['fio-3.12 wrote broken histogram logs', 'holds 3,605 of the 8,000 I/Os fio counted: more missing than fio\'s unlogged last window explains'] });
    const t = render(SOURCES.slice(0, 2), [warned, doubtful]);
    const w = t.of('local_clat.1.log');
    expect(w.row?.classList.contains('trust-warn')).toBe(true);
    expect(w.line?.classList.contains('warn')).toBe(true);
    // The line holds the warnings only (the facts are columns) and spans the columns after the checkbox.
    expect(w.line?.querySelector('.trust-facts')).toBe(null);
    expect(w.line?.children[1].colSpan).toBe((w.row?.children.length ?? 0) - 1);
    expect(w.line?.querySelectorAll('.trust-warning').map((d) => d.textContent)).toEqual(['⚠ fio-3.3 wrote pairs of records with the same timestamp (fio issue #682)']);
    const d = t.of('local_clat_hist.1.log');
    expect(d.row?.classList.contains('trust-doubtful')).toBe(true);
    expect(d.row?.classList.contains('trust-warn')).toBe(false);
    expect(d.line?.querySelectorAll('.trust-warning').map((x) => x.textContent)).toEqual([
      '✗ doubtful: fio-3.12 wrote broken histogram logs',
      '⚠ holds 3,605 of the 8,000 I/Os fio counted: more missing than fio\'s unlogged last window explains',
    ]);
  });

  it('tables of 40 files each: a file\'s trust line stays in its table and does not count', () => {
    const names = Array.from({ length: 45 }, (_, i) => `local_clat_hist.${i + 1}.log`);
    const t = render(names.map((n) => source(n, 'fio-hist')), names.map((n) => trustRow({ file: n, account: 'hist', fio_version: 'fio 3 (1856 bins)', compared: false, warnings: [`w${n}`] })));
    const [first, box] = t.el.children;
    expect(t.el.children.length).toBe(2);
    const rowsOf = (/** @type {any} */ table) => table.querySelectorAll('tr').filter((/** @type {any} */ tr) => tr.dataset.file || tr.dataset.trustFor);
    expect(rowsOf(first).length).toBe(80);
    expect(rowsOf(first).at(-1).classList.contains('trust-line')).toBe(true);
    expect(rowsOf(box).length).toBe(10);
    expect(box.classList.contains('file-chunk')).toBe(true);
  });

  it('no trust summary (an engine without it, or still loading): no lines, the table as before', () => {
    const t = render(SOURCES, null);
    expect(t.rows.filter((r) => r.classList.contains('trust-line'))).toEqual([]);
    expect(t.rows.length).toBe(3);
  });

  it('names and sentences are text only, never markup', () => {
    const evil = '<img src=x onerror=alert(1)>.log';
    const t = render([source(evil, 'fio-hist'), source('b.log', 'fio-lat')], [
      trustRow({ file: evil, account: 'hist', used_instead: 'b.log', notes: ['not added: <b>x</b>'], warnings: ['<script>alert(1)</script>'] }),
      trustRow({ file: 'b.log', used_instead: evil, notes: [`not added: ${evil}`] }),
    ]);
    expect(t.of(evil).line?.querySelector('.trust-warning')?.textContent).toBe('⚠ <script>alert(1)</script>');
    expect(t.of('b.log').row?.querySelector('td.ios')?.title).toMatch(new RegExp(`^not added: counted by ${evil.replace(/[()]/g, '\\$&')}`));
    expect(t.of(evil).row?.querySelector('td.name')?.textContent).toBe(evil);
    // innerHTML carries the fixed header only.
    expect(t.doc.htmlWritten.some((h) => /img|script|<b>/.test(h))).toBe(false);
  });
});

describe('a report\'s inputs (its embedded trust summary) under the file table', () => {
  /** Renders the inputs into a fake document. @param {any[] | null} rows @param {number} [dropped] */
  function inputs(rows, dropped) {
    const { doc, el } = fakeContainer();
    renderReportInputs(/** @type {any} */ (el), rows, dropped);
    /** The input's row and the trust line under it. @param {string} file */
    const of = (file) => {
      const row = el.querySelectorAll('tr').find((r) => r.dataset.input === file);
      const line = row?.nextElementSibling?.classList.contains('trust-line') ? row.nextElementSibling : null;
      return { row, line };
    };
    return { doc, el, of };
  }
  // As `latscope report` on tests/fixtures/local writes them (core trust_json; histogram logs not read).
  const RUN = 'tests/fixtures/local/';
  const ROWS = [
    trustRow({ file: `${RUN}local_clat_hist.1.log`, what: 'fio histogram log', fio_version: '', unit: '', account: 'hist', used_instead: `${RUN}local_clat.1.log`, ios: 0, fio_ios: 0, compared: false, notes: ['not read: counts the same I/Os of job 1 (clat) as the per-I/O log local_clat.1.log, which is used'] }),
    trustRow({ file: `${RUN}local.json`, what: 'fio json+ output', unit: '', account: '', ios: 16000, fio_ios: 0, compared: false }),
    trustRow({ file: `${RUN}local.fio`, what: 'not a latency log (fio job file)', fio_version: '', unit: '', account: '', ios: 0, fio_ios: 0, compared: false }),
    trustRow({ file: `${RUN}local_clat.1.log` }),
  ];

  it('each input\'s name and the same trust line as a loaded file; files that are no log in the collapsed list', () => {
    const t = inputs(ROWS);
    expect(t.el.hidden).toBe(false);
    expect(t.el.querySelector('.inputs-head')?.textContent).toBe('Made from 4 files');
    // In the file table's order (names.js naturalCompare), without the folder they share (the full name and what it is: the tooltip).
    expect(t.el.querySelectorAll('tr').filter((r) => r.dataset.input).map((r) => r.querySelector('td.name')?.textContent)).toEqual(['local_clat_hist.1.log', 'local_clat.1.log', 'local.json']);
    const io = t.of(`${RUN}local_clat.1.log`);
    expect(io.row?.querySelector('td.name')?.title).toBe(`${RUN}local_clat.1.log\nfio per-I/O log (clat)`);
    expect(io.line?.querySelector('.trust-facts')?.textContent).toBe('fio-3.33 · ns · per-I/O · I/Os 8,000 of 8,000');
    expect(io.line?.dataset.trustFor).toBe(`${RUN}local_clat.1.log`);
    const h = t.of(`${RUN}local_clat_hist.1.log`);
    expect(h.row?.classList.contains('not-added')).toBe(true);
    expect(h.line?.querySelector('.trust-facts')?.textContent).toBe('not added: counted by local_clat.1.log');
    expect(h.line?.querySelector('.acct')?.title).toMatch(/^not read: counts the same I\/Os/);
    expect(t.of(`${RUN}local.json`).line?.querySelector('.trust-facts')?.textContent).toBe('fio-3.33 · I/Os 16,000');
    const ig = t.el.querySelector('details.ignored-files');
    expect(ig?.querySelector('summary')?.textContent).toBe('1 file ignored (not latency logs)');
    expect(ig?.querySelectorAll('li').map((li) => li.textContent)).toEqual(['local.fiofio job file']);
    expect(t.of(`${RUN}local.fio`).row).toBe(undefined);
  });

  it('warnings as text, doubtful rows marked as the file table marks them, counted in the heading; an unusable input said', () => {
    const t = inputs([
      trustRow({ file: 'a_clat_hist.1.log', account: 'hist', doubtful: true, ios: 3605, warnings: ['fio-3.12 wrote broken histogram logs', 'holds 3,605 of the 8,000 I/Os fio counted'] }),
      trustRow({ file: 'b_clat.1.log', warnings: ['unit guessed'] }),
      trustRow({ file: 'c.log', what: 'unusable', ok: false, fio_version: '', unit: '', account: '', ios: 0, compared: false }),
    ]);
    expect(t.el.querySelector('.inputs-head')?.textContent).toBe('Made from 3 files · 1 doubtful · 1 unusable');
    const d = t.of('a_clat_hist.1.log');
    expect(d.row?.classList.contains('trust-doubtful')).toBe(true);
    expect(d.line?.classList.contains('doubtful')).toBe(true);
    expect(d.line?.querySelectorAll('.trust-warning').map((x) => x.textContent)).toEqual(['✗ doubtful: fio-3.12 wrote broken histogram logs', '⚠ holds 3,605 of the 8,000 I/Os fio counted']);
    const w = t.of('b_clat.1.log');
    expect(w.row?.classList.contains('trust-warn')).toBe(true);
    expect(w.line?.querySelectorAll('.trust-warning').map((x) => x.textContent)).toEqual(['⚠ unit guessed']);
    const u = t.of('c.log');
    expect(u.row?.classList.contains('file-error')).toBe(true);
    expect(u.line?.querySelectorAll('.trust-warning').map((x) => x.textContent)).toEqual(['⚠ not usable: left out of the result']);
  });

  it('no inputs (a page without a report, or its data names none): hidden and empty; rows that could not be read are said', () => {
    const t = inputs(null);
    expect(t.el.hidden).toBe(true);
    expect(t.el.children.length).toBe(0);
    const e = inputs([], 3);
    expect(e.el.hidden).toBe(false);
    expect(e.el.querySelector('.inputs-head')?.textContent).toBe('Made from 0 files');
    expect(e.el.querySelector('.file-warn-msg')?.textContent).toMatch(/^3 inputs of the page's data could not be read/);
  });

  it('names and sentences are text only, never markup; a long list in tables of 40', () => {
    const evil = '<img src=x onerror=alert(1)>.log';
    const t = inputs([
      trustRow({ file: evil, account: 'hist', used_instead: '</script><b>x</b>', notes: ['not read: <b>x</b>'], warnings: ['<script>alert(1)</script>'] }),
      ...Array.from({ length: 45 }, (_, i) => trustRow({ file: `f${i}.log` })),
    ]);
    expect(t.of(evil).row?.querySelector('td.name')?.textContent).toBe(evil);
    expect(t.of(evil).line?.querySelector('.acct')?.textContent).toBe('not added: counted by </script><b>x</b>');
    expect(t.of(evil).line?.querySelector('.trust-warning')?.textContent).toBe('⚠ <script>alert(1)</script>');
    expect(t.doc.htmlWritten.some((h) => /img|script|<b>/.test(h))).toBe(false);
    expect(t.el.querySelectorAll('table').length).toBe(2);
  });
});

describe('the account control', () => {
  it('hidden when no job has two accounts, else a select with the state\'s choice that sets the state', () => {
    const { doc, el } = fakeContainer();
    /** @type {string[]} */
    const set = [];
    renderAccountChoice(/** @type {any} */ (el), [trustRow({})], 'per-io', (a) => set.push(a));
    expect(el.hidden).toBe(true);
    renderAccountChoice(/** @type {any} */ (el), [trustRow({}), trustRow({ file: 'h', used_instead: 'x' })], 'hist', (a) => set.push(a));
    expect(el.hidden).toBe(false);
    const sel = /** @type {any} */ (el.querySelector('select'));
    expect(sel.value).toBe('hist');
    expect(sel.querySelectorAll('option').map((/** @type {any} */ o) => [o.value, o.textContent])).toEqual([
      ['per-io', 'per-I/O logs where a job has both'],
      ['hist', 'histogram logs'],
    ]);
    expect(el.textContent).toMatch(/1 file not added/);
    sel.value = 'per-io';
    sel.dispatch('change');
    expect(set).toEqual(['per-io']);
    expect(doc.htmlWritten).toEqual([]);
  });
});

describe('the account in the options and the fragment', () => {
  it('queries get "accounts" only for the histogram account: a fresh page sends the CLI defaults', () => {
    expect(engineOptions(initialState())).not.toHaveProperty('accounts');
    expect(engineOptions({ ...initialState(), account: 'hist' }).accounts).toEqual(['hist']);
    expect(accountsOf(initialState())).toEqual([]);
  });

  it('acc=hist in the fragment, validated; written only when not the default', () => {
    expect(parseFragment('#v=1&acc=hist').state.account).toBe('hist');
    expect(parseFragment('#v=1&acc=per-io').state.account).toBe('per-io');
    const bad = parseFragment('#v=1&acc=both');
    expect(bad.state.account).toBeUndefined();
    expect(bad.notes.join(' ')).toMatch(/acc="both" ignored: not per-io or hist/);
    expect(stateToFragment({ ...initialState(), account: 'hist' })).toBe('v=1&acc=hist');
    expect(stateToFragment(initialState())).toBe('v=1');
  });
});

// Past the memory budget files are reduced as they are read (docs/page-loading.md
// section 7): a reduced per-I/O log keeps its account, so its job's histogram
// log is still left out and the run counts each I/O once (16,000 I/Os over
// 10 s: 1,600 a second, not 3,200).
describe.each(engineImpls(1))('trust under the memory budget (%s)', (_name, make) => {
  it('reduced logs keep one account of every I/O', async () => {
    const engine = await make();
    try {
      const sources = await engine.loadFiles(NAMES.map(item), { budget: { bytes: 20000, quantum_ms: 1000 } });
      expect(sources.some((x) => x.reduced?.quantum_ms === 1000)).toBe(true);
      await engine.assignRuns({ by: 'auto' });
      const rows = await engine.trust([]);
      expect(rowOf(rows, 'local_clat.1.log').account).toBe('per-io');
      expect(rowOf(rows, 'local_clat_hist.1.log').used_instead).toBe('local_clat.1.log');
      const csv = await engine.csv({ quantum_ms: 1000 });
      const total = csv.trim().split('\n').slice(1).reduce((a, l) => a + Number(l.split(',')[2]), 0);
      expect(Math.round(total)).toBe(16000);
    } finally {
      engine.terminate();
    }
  });
});
