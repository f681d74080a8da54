import { describe, it, expect } from 'vitest';
import { DEFAULTS, parsePercentiles, sortPercentiles, engineOptions } from '../../src/app/options.js';
import { initialState, Store } from '../../src/app/state.js';
import { pctilesOptions, spectrumOptions, snapRange, zoomRange, heatmapOptions, SURFACE_LEVELS, SPECTRUM_LEVELS } from '../../src/app/queries.js';
import { fileSummary, hostsOf } from '../../src/app/sources.js';
import { progressText } from '../../src/app/progress.js';

describe('page defaults are the CLI defaults', () => {
  it('a fresh page asks exactly what `latscope pctiles` computes', () => {
    expect(pctilesOptions(initialState())).toEqual({
      quantum_ms: 1000,
      percentiles: ['50', '90', '99', '99.9', '100'],
      group_by: 'all',
      directions: 'r,w,t',
      method: 'interp',
      unit: 'us',
    });
    expect(DEFAULTS.percentiles).toEqual(['50', '90', '99', '99.9', '100']);
  });
  it('selections only appear when set', () => {
    const s = { ...initialState(), exclude_hosts: ['h1'], offsets: { h2: 250, h3: 0 }, range: /** @type {[number, number]} */ ([1000, 5000]) };
    const o = engineOptions(s, { range: true });
    expect(o.exclude_hosts).toEqual(['h1']);
    expect(o.offsets).toEqual({ h2: 250 });
    expect([o.from_ms, o.to_ms]).toEqual([1000, 5000]);
    expect(engineOptions(s).from_ms).toBeUndefined();
  });
});

describe('percentile entry', () => {
  it('keeps the spelling, accepts max/median/p-prefix', () => {
    expect(parsePercentiles('99.95, p99.999 max median')).toEqual(['99.95', '99.999', '100', '50']);
  });
  it('rejects out of range and junk with a sentence', () => {
    expect(() => parsePercentiles('101')).toThrow(/not a percentile between 0 and 100/);
    expect(() => parsePercentiles('abc')).toThrow(/"abc"/);
  });
  it('sorts numerically without duplicates', () => {
    expect(sortPercentiles(['99.9', '50', '100', '99.90', '9'])).toEqual(['9', '50', '99.9', '100']);
  });
});

describe('view queries', () => {
  it('spectrum: one quantum exactly covering the range, on top of user offsets', () => {
    const s = { ...initialState(), offsets: { h1: 100, 'b.log': -50 } };
    const o = spectrumOptions(s, [3000, 8000], [
      { name: 'a.log', host: 'h1' },
      { name: 'b.log', host: 'h1' },
      { name: 'c.log', host: '' },
    ]);
    expect(o.quantum_ms).toBe(5000);
    expect([o.from_ms, o.to_ms]).toEqual([0, 5000]);
    expect(o.offsets).toEqual({ 'a.log': -2900, 'b.log': -3050, 'c.log': -3000 });
    expect(o.percentiles[o.percentiles.length - 1]).toBe('100');
  });
  it('levels are ascending and within 0..100', () => {
    for (const L of [SURFACE_LEVELS, SPECTRUM_LEVELS]) {
      const n = L.map(Number);
      for (let i = 1; i < n.length; i++) expect(n[i]).toBeGreaterThan(n[i - 1]);
      expect(n[0]).toBeGreaterThanOrEqual(0);
      expect(n[n.length - 1]).toBeLessThanOrEqual(100);
    }
    expect(SURFACE_LEVELS[0]).toBe('50');
    expect(SURFACE_LEVELS[SURFACE_LEVELS.length - 1]).toBe('99.99');
  });
  it('heat map options carry the selection, not the percentile options', () => {
    const o = heatmapOptions({ ...initialState(), exclude_sources: ['x'] }, 100, [1e3, 1e6]);
    expect(o).toEqual({ quantum_ms: 1000, directions: 'r,w,t', exclude_sources: ['x'], rows: 100, min_ns: 1e3, max_ns: 1e6 });
  });
  it('brushed ranges snap outward to quanta within the data', () => {
    expect(snapRange([1200, 3100], 1000, [0, 20000])).toEqual([1000, 4000]);
    expect(snapRange([3100, 1200], 1000, null)).toEqual([1000, 4000]);
    expect(snapRange([19500, 25000], 1000, [0, 20000])).toEqual([19000, 20000]);
  });
  it('keyboard zoom halves around the middle, pans, and resets when covering all', () => {
    expect(zoomRange(null, [0, 20000], { zoom: 0.5 }, 1000)).toEqual([5000, 15000]);
    expect(zoomRange([5000, 15000], [0, 20000], { pan: 0.25 }, 1000)).toEqual([7500, 17500]);
    expect(zoomRange([15000, 20000], [0, 20000], { pan: 0.5 }, 1000)).toEqual([15000, 20000]);
    expect(zoomRange([5000, 15000], [0, 20000], { zoom: 2 }, 1000)).toBe(null);
    expect(zoomRange([5000, 6000], [0, 20000], { zoom: 0.5 }, 1000)).toEqual([5000, 6000]);
  });
});

describe('store', () => {
  it('notifies the changed keys only', () => {
    const st = new Store(initialState());
    /** @type {string[][]} */
    const seen = [];
    st.subscribe((c) => seen.push([...c]));
    st.set({ quantum_ms: 1000, unit: 'ms' });
    st.set({ unit: 'ms' });
    expect(seen).toEqual([['unit']]);
  });
});

describe('file table summaries', () => {
  const src = {
    name: 'run/s1_clat_hist.1.log.10.0.0.1',
    format: 'fio-hist',
    layout: 'fio3',
    host: '10.0.0.1',
    job: '1',
    records: 38,
    status: { ok: true, message: '' },
    series: [
      { dir: 'read', job: '1', repaired: true },
      { dir: 'write', job: '1', repaired: true },
    ],
    issues: [{ name: 'bad_number', severity: 'error', description: 'a field is not a number', count: 2 }],
    examples: [{ issue: 'bad_number', line: 7, column: 12, text: '1002, 0, 4096, x' }],
  };
  it('summarises one file', () => {
    const s = fileSummary(src);
    expect(s).toMatchObject({ ok: true, format: 'fio-hist (fio3)', host: '10.0.0.1', jobs: '1', dirs: 'rw', records: '38', repaired: 'yes', skipped: 2 });
    expect(s.skippedDetail).toBe('2 × a field is not a number (e.g. line 7, column 12: 1002, 0, 4096, x)');
  });
  it('the repair is a note of the repaired column, not a skipped line', () => {
    const s = fileSummary({ ...src, issues: [{ name: 'repaired', severity: 'warning', description: 'defect repaired', count: 2 }], examples: [] });
    expect(s.skipped).toBe(0);
    expect(s.skippedDetail).toBe('');
    expect(s.notes).toBe('2 × defect repaired');
  });
  it('a failed file keeps its message', () => {
    const s = fileSummary({ name: 'x', status: { ok: false, message: 'line 1: 17 bins; expected one of 1856, 928, ...' }, series: [] });
    expect(s.ok).toBe(false);
    expect(s.message).toMatch(/17 bins/);
    expect(s.repaired).toBe('');
  });
  it('hosts with file counts, naturally sorted, failed files left out', () => {
    const mk = (/** @type {string} */ host, ok = true) => ({ host, status: { ok, message: '' } });
    expect(hostsOf([mk('h10'), mk('h2'), mk('h2'), mk('h3', false)])).toEqual([
      { host: 'h2', files: 2 },
      { host: 'h10', files: 1 },
    ]);
  });
  it('fio json output has no host row and says it covers the whole run', () => {
    const json = { name: 'run.json', format: 'fio-json', host: '', status: { ok: true, message: '' }, series: [] };
    expect(hostsOf([json, { host: 'h1', status: { ok: true } }])).toEqual([{ host: 'h1', files: 1 }]);
    expect(fileSummary(json).host).toBe('whole run');
  });
  it('examples without a line show no position', () => {
    const src = {
      name: 'a', status: { ok: true }, series: [],
      issues: [{ name: 'saturated', severity: 'warning', description: 'samples in the last bin', count: 1 }],
      examples: [{ issue: 'saturated', line: 0, column: 0, text: 'read (job 1): 2 samples' }],
    };
    expect(fileSummary(src).skippedDetail).toBe('1 × samples in the last bin (e.g. read (job 1): 2 samples)');
  });
});

describe('progress text', () => {
  it('bytes, rate, files and time left', () => {
    expect(progressText(50e6, 200e6, 2, 1, 4)).toBe('50.0 MB of 200.0 MB · 25.0 MB/s · 1 of 4 files · ~0:06 left');
    expect(progressText(0, 1000, 0, 0, 1)).toBe('0 B of 1.0 kB · 0 of 1 files');
  });
});
