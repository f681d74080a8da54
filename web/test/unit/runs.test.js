// Runs through the engine (both implementations: in this thread and behind
// the worker protocol) with the two real fio runs of tests/fixtures/ab:
// assignRuns finds them as the CLI does, compareRuns prints what
// `latscope summary --compare` prints (docs/runs.md), and the page's pure
// helpers (add-files.js, views/compare-view.js) keep their promises.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { engineImpls } from './node-endpoint.js';
import { mergeItems } from '../../src/app/add-files.js';
import { columnShares, shareDifference, compareCellText } from '../../src/views/compare-view.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const AB = path.join(ROOT, 'tests/fixtures/ab');
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const hasCli = fs.existsSync(CLI);
const NAMES = ['a/a.json', 'a/a_clat_hist.1.log', 'b/b.json', 'b/b_clat_hist.1.log'];

/** @param {string} name */
const item = (name) => ({ name: `ab/${name}`, file: new File([fs.readFileSync(path.join(AB, name))], path.basename(name)) });

const IMPLS = engineImpls(2);

describe.each(IMPLS)('runs (%s)', (_name, make) => {
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  beforeAll(async () => {
    engine = await make();
  });
  afterAll(() => engine?.terminate());

  it('finds the two runs by their json outputs and labels every file', async () => {
    await engine.reset();
    await engine.loadFiles(NAMES.map(item));
    const plan = await engine.assignRuns({ by: 'auto' });
    expect(plan.several).toBe(true);
    expect(plan.runs.map((r) => [r.name, r.files])).toEqual([
      ['a', ['ab/a/a.json', 'ab/a/a_clat_hist.1.log']],
      ['b', ['ab/b/b.json', 'ab/b/b_clat_hist.1.log']],
    ]);
    expect(plan.evidence.join(' ')).toMatch(/2 fio json outputs/);
    const runs = Object.fromEntries((await engine.sources()).map((s) => [s.name, /** @type {any} */ (s).labels.run]));
    expect(runs).toEqual({ 'ab/a/a.json': 'a', 'ab/a/a_clat_hist.1.log': 'a', 'ab/b/b.json': 'b', 'ab/b/b_clat_hist.1.log': 'b' });
    // One run: no label, nothing several.
    await engine.reset();
    await engine.loadFiles(NAMES.slice(0, 2).map(item));
    const one = await engine.assignRuns({});
    expect(one.several).toBe(false);
    expect(one.runs.length).toBe(1);
    // ... and no label, as in the CLI (docs/runs.md): outputs stay those of unlabelled files.
    expect((await engine.sources()).map((s) => /** @type {any} */ (s).labels.run ?? '')).toEqual(['', '']);
  });

  it.skipIf(!hasCli)('compareRuns equals `latscope summary --compare` (csv and json), fio\'s exact figures from the json+ sources', async () => {
    await engine.reset();
    await engine.loadFiles(NAMES.map(item));
    await engine.assignRuns({ by: 'auto' });
    const files = NAMES.map((n) => path.join(AB, n));
    for (const [pcts, unit, format] of [['50,99', 'us', 'csv'], ['50,90,99,99.9,100', 'ms', 'csv'], ['1,50,99.99', 'ns', 'json']]) {
      const got = await engine.compareRuns({ percentiles: pcts, unit, format: /** @type {any} */ (format) });
      const want = execFileSync(CLI, ['summary', '--compare', '--format', format, '--unit', unit, '--percentiles', pcts, ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      // The CLI names files by the paths it was given; the page by the picked paths.
      expect(got.text).toBe(format === 'json' ? want.split(`${AB}/`).join('ab/') : want);
    }
    const got = await engine.compareRuns({ percentiles: '50,99', unit: 'us' });
    expect(got.notes).toContain('run a (json+ ab/a/a.json)');
    // fio's exact mean (not the bins' midpoints) comes from the json+ source itself.
    const mean = got.text.split('\n').find((l) => l.startsWith('read,mean,'));
    const fioMean = JSON.parse(fs.readFileSync(path.join(AB, 'a/a.json'), 'utf8')).jobs[0].read.clat_ns.mean / 1000;
    expect(Number(mean?.split(',')[2])).toBe(fioMean);
  });

  it('compareRuns refuses one run, naming it', async () => {
    await engine.reset();
    await engine.loadFiles(NAMES.slice(0, 2).map(item));
    await engine.assignRuns({});
    await expect(engine.compareRuns({ percentiles: '50', unit: 'us' })).rejects.toThrow(/needs two runs/);
  });
});

describe('add files', () => {
  const f = (/** @type {string} */ s) => new File([s], 'x');
  it('keeps what is loaded, replaces the same file, keeps a namesake apart', () => {
    const a = { name: 'a.log', file: f('1') };
    const b = { name: 'b.log', file: f('2') };
    const other = { name: 'a.log', file: f('other') };
    expect(mergeItems([a], [b]).map((i) => i.name)).toEqual(['a.log', 'b.log']);
    expect(mergeItems([a, b], [a]).map((i) => i.name)).toEqual(['a.log', 'b.log']);
    expect(mergeItems([a], [other]).map((i) => i.name)).toEqual(['a.log', 'added-2/a.log']);
  });
});

describe('A/B table cells', () => {
  it('latencies with their unit, three significant digits; samples as a count; the change signed; notes as they are', () => {
    // Rows as latscope summary --compare prints them (tests/ fixture ab, unit us).
    const mean = ['read', 'mean', '373.756480641', '498.198624667', '33.29', '', '', '', '', ''];
    expect(mean.map((_, j) => compareCellText(mean, j, 'us'))).toEqual(['read', 'mean', '374 µs', '498 µs', '+33.3%', '', '', '', '', '']);
    const p999 = ['read', 'p99.9', '9502.72', '7962.624', '-16.21', '4784.128', '', '5111.808', '', 'within sampling noise (95% bands overlap)'];
    expect(p999.map((_, j) => compareCellText(p999, j, 'us'))).toEqual(['read', 'p99.9', '9,503 µs', '7,963 µs', '−16.2%', '4,784 µs', '', '5,112 µs', '', 'within sampling noise (95% bands overlap)']);
    const n = ['read', 'samples', '1498', '1500', '0.13', '', '', '', '', ''];
    expect(compareCellText(n, 2, 'us')).toBe('1,498');
    expect(compareCellText(n, 4, 'us')).toBe('+0.13%');
    // Another unit: the numbers are in it, and it is named.
    expect(compareCellText(['read', 'p50', '0.136192', '0.246784', '81.2', '', '', '', '', ''], 3, 'ms')).toBe('0.247 ms');
    expect(compareCellText(['read', 'p50', '136192', '', '0', '', '', '', '', ''], 2, 'ns')).toBe('136,192 ns');
    expect(compareCellText(['read', 'p50', '136192', '', '0', '', '', '', '', ''], 4, 'ns')).toBe('0%');
    // Not a number: as it is.
    expect(compareCellText(['read', 'p50', 'n/a', '', '', '', '', '', '', ''], 2, 'us')).toBe('n/a');
  });
});

describe('A/B difference', () => {
  it('compares each quantum by shares of its I/Os, over the quanta both runs have', () => {
    const a = { quanta: 2, rows: 2, counts: new Float64Array([3, 1, 0, 0]) };
    const b = { quanta: 3, rows: 2, counts: new Float64Array([10, 30, 5, 5, 7, 0]) };
    expect([...columnShares(a)]).toEqual([0.75, 0.25, 0, 0]);
    const d = shareDifference(a, b);
    expect(d.quanta).toBe(2);
    expect([...d.diff]).toEqual([-0.5, 0.5, 0.5, 0.5]);
    expect(d.maxAbs).toBe(0.5);
  });
});
