// The percentile field and a link's p= and gp= read by core
// (engine.parsePercentiles, core percentile_list.h), the page's only
// reader of percentile lists, in both engine implementations (in this
// thread and behind the worker protocol): the lists core answers, its
// sentence for a bad item, and the CSV of the field's list equal to
// `latscope pctiles --percentiles` given the same text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { engineImpls } from './node-endpoint.js';
import { PercentileField } from '../../src/app/pct-field.js';
import { parseFragment } from '../../src/app/url-state.js';
import { takeLists } from '../../src/app/url-sync.js';
import { Store, initialState } from '../../src/app/state.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const S1 = path.join(ROOT, 'tests/fixtures/fio-s1/');
const names = () => fs.readdirSync(S1).filter((n) => n.includes('_clat_hist.')).sort();
const files = () => names().map((n) => ({ name: n, file: new File([fs.readFileSync(path.join(S1, n))], n) }));

/** `latscope pctiles --percentiles TEXT` on the same logs. @param {string} text */
function cliCsv(text) {
  const r = spawnSync(CLI, ['pctiles', '--percentiles', text, ...names().map((n) => path.join(S1, n))], { encoding: 'utf8', maxBuffer: 1 << 26 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The CSV header's percentile columns. @param {string} csv */
const pcols = (csv) => csv.split('\n')[0].split(',').filter((c) => /^p\d|^p\./.test(c));

describe.each(engineImpls(2))('percentiles read by core (%s)', (_name, make) => {
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  beforeAll(async () => {
    engine = await make();
  });
  afterAll(() => engine?.terminate());

  it('reads every form, sorted, one per value, before any file is loaded', async () => {
    const cases = /** @type {[string, string, string[], number[]][]} */ ([
      ['50,90,99,99.9,100', '', ['50', '90', '99', '99.9', '100'], [50, 90, 99, 99.9, 100]],
      ['50,99.9', '99.95, p99.999 max median 99.90', ['50', '99.9', '99.95', '99.999', '100'], [50, 99.9, 99.95, 99.999, 100]],
      ['', 'P99;Max\t.5', ['.5', '99', '100'], [0.5, 99, 100]],
      ['', ',,99.90,;99.9,', ['99.90'], [99.9]],
    ]);
    for (const [presets, text, percentiles, values] of cases) {
      expect(await engine.parsePercentiles({ presets, text })).toEqual({ percentiles, values });
    }
  });

  it('refuses a bad item with core\'s sentence naming it and its place', async () => {
    await expect(engine.parsePercentiles({ presets: '50', text: '99.99 abc' })).rejects.toThrow(
      'percentile "abc" (item 2, column 7) is not a percentile: write a number from 0 to 100 (99.9 or p99.9), max or median',
    );
    await expect(engine.parsePercentiles({ presets: '', text: '101' })).rejects.toThrow('percentile "101" (item 1, column 1) is over 100: a percentile is from 0 to 100');
    await expect(engine.parsePercentiles({ presets: '', text: ' ; ' })).rejects.toThrow('no percentile chosen');
  });

  it('the field: core\'s list into the state, its sentence for a bad item, the state kept', async () => {
    const store = new Store(initialState());
    const field = new PercentileField(store, async () => engine);
    expect(await field.set('percentiles', '50,99', 'p99.99 max')).toBe('');
    expect(store.state.percentiles).toEqual(['50', '99', '99.99', '100']);
    expect(await field.set('percentiles', '50', '99.99 1e3')).toMatch(/^percentile "1e3" \(item 2, column 7\) is not a percentile/);
    expect(store.state.percentiles).toEqual(['50', '99', '99.99', '100']);
    // The last text asked wins, whatever order core answers in.
    const a = field.set('percentiles', '', '90');
    const b = field.set('percentiles', '', '95');
    await Promise.all([a, b]);
    expect(store.state.percentiles).toEqual(['95']);
    expect(await field.set('groupsP', '', 'max')).toBe('');
    expect(store.state.groupsP).toBe('100');
    expect(await field.set('groupsP', '', '50,99')).toBe('the groups view shows one percentile, not 2');
    expect(store.state.groupsP).toBe('100');
  });

  it('percentiles SLA rules name are added in order, without dropping a list being read', async () => {
    const store = new Store(initialState());
    const field = new PercentileField(store, async () => engine);
    await field.add('99.95');
    expect(store.state.percentiles).toEqual(['50', '90', '99', '99.9', '99.95', '100']);
    // A link's list asked before the addition's answer: the link's list is the one kept, in either order of answers.
    const link = field.set('percentiles', '', '50,99.9');
    await Promise.all([link, field.add('99.99')]);
    expect(await link).toBe('');
    expect(store.state.percentiles).toEqual(['50', '99.9']);
  });

  it('a link\'s p= and gp= as text, read by core into the state', async () => {
    const frag = parseFragment('#v=1&view=groups&p=max,p99.9,50,99.90&gp=P99.9');
    const state = { ...frag.state };
    const lists = takeLists(state, frag.state);
    expect(state).toEqual({ view: 'groups' });
    expect(lists).toEqual([
      { key: 'percentiles', text: 'max,p99.9,50,99.90' },
      { key: 'groupsP', text: 'P99.9' },
    ]);
    const store = new Store(initialState());
    const field = new PercentileField(store, async () => engine);
    for (const { key, text } of lists) expect(await field.set(key, '', text)).toBe('');
    expect(store.state.percentiles).toEqual(['50', '99.9', '100']);
    expect(store.state.groupsP).toBe('99.9');
  });

  it('the field\'s list gives the CSV `latscope pctiles --percentiles` gives for the same text', async () => {
    await engine.loadFiles(files());
    const text = '50 p99.90 max';
    const { percentiles } = await engine.parsePercentiles({ presets: '', text });
    const csv = await engine.csv({ percentiles });
    expect(pcols(csv)).toEqual(['p50', 'p99.90', 'p100']);
    expect(csv).toBe(cliCsv(text));
  });
});
