import { describe, it, expect } from 'vitest';
import { DEFAULTS, engineOptions } from '../../src/app/options.js';
import { initialState, Store } from '../../src/app/state.js';
import { pctilesOptions, spectrumOptions, snapRange, zoomRange, heatmapOptions, SURFACE_LEVELS, SPECTRUM_LEVELS } from '../../src/app/queries.js';
import { fileSummary, hostsOf, loadSummary, groupingsFor, LOCAL_HOST } from '../../src/app/sources.js';
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
  it('hosts with file counts, naturally sorted, failed and ignored files left out', () => {
    const mk = (/** @type {string} */ host, ok = true) => ({ host, status: { ok, message: '' } });
    const job = { name: 'job.fio', format: 'ignored', ignored: 'fio job file', host: '', status: { ok: true, message: '' }, series: [] };
    expect(hostsOf([mk('h10'), mk('h2'), mk('h2'), mk('h3', false), job])).toEqual([
      { host: 'h2', files: 2 },
      { host: 'h10', files: 1 },
    ]);
  });
  it('logs without a host are the (local) host, the key the engine accepts in offsets and exclusions', () => {
    const local = { name: 'local_clat_hist.1.log', format: 'fio-hist', host: '', labels: { file: 'local_clat_hist.1.log', job: '1' }, status: { ok: true }, series: [{ dir: 'read', role: 'time', labels: { dir: 'read', job: '1' } }] };
    const remote = { ...local, host: 'h1', labels: { ...local.labels, host: 'h1' } };
    const hosts = hostsOf([local, remote]);
    expect(hosts).toEqual([{ host: LOCAL_HOST, files: 1 }, { host: 'h1', files: 1 }]);
    expect(LOCAL_HOST).toBe('(local)');
    const s = { ...initialState(), offsets: { [LOCAL_HOST]: 1500 }, exclude_hosts: [LOCAL_HOST] };
    expect(engineOptions(s)).toMatchObject({ offsets: { '(local)': 1500 }, exclude_hosts: ['(local)'] });
  });
  it('fio json output has no host row and says it covers the whole run', () => {
    const json = { name: 'run.json', format: 'fio-json', host: '', status: { ok: true, message: '' }, series: [] };
    expect(hostsOf([json, { host: 'h1', status: { ok: true } }])).toEqual([{ host: 'h1', files: 1 }]);
    expect(fileSummary(json).host).toBe('whole run');
  });
  it('a series\' own host label (e.g. a tagged .hlog) counts under that host', () => {
    const src = { name: 'a.hlog', format: 'hdr-log', host: '', labels: { file: 'a.hlog' }, status: { ok: true }, series: [{ role: 'time', labels: { host: 'db1', tag: 'get' } }, { role: 'time', labels: { tag: 'put' } }] };
    expect(hostsOf([src])).toEqual([{ host: LOCAL_HOST, files: 1 }, { host: 'db1', files: 1 }]);
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

describe('load summary and group-by choices', () => {
  const ok = { status: { ok: true, message: '' } };
  const log = (/** @type {string} */ name, /** @type {Record<string, string>} */ labels = {}, /** @type {Record<string, string>[]} */ series = [{}]) => ({
    ...ok, name, format: 'fio-hist', labels, series: series.map((l) => ({ role: 'time', labels: l })),
  });
  const ignored = (/** @type {string} */ name, /** @type {string} */ what) => ({ ...ok, name, format: 'ignored', ignored: what, labels: {}, series: [] });
  const broken = { name: 'x_clat_hist.1.log', format: 'fio-hist', labels: {}, series: [], status: { ok: false, message: 'x_clat_hist.1.log: 17 bins' } };

  it('counts logs, ignored files and broken logs for the status line', () => {
    const sum = loadSummary([log('a'), log('b'), ignored('job.fio', 'fio job file'), ignored('README', 'text'), broken]);
    expect(sum).toMatchObject({ logs: 2, ignored: 2, broken: 1, partial: 0 });
    expect(sum.text).toBe('2 logs loaded, 2 files ignored, 1 file with errors (see the messages)');
    expect(loadSummary([log('a')]).text).toBe('1 log loaded');
    expect(loadSummary([log('a'), broken], [], 'in 0.4 s').text).toBe('1 log loaded in 0.4 s, 1 file with errors (see the messages)');
  });
  it('left-out paths count as ignored; a partly read log is said', () => {
    const sum = loadSummary([{ ...log('a.gz'), read_error: 'gzip stream truncated ...' }], [{ name: 'run/.git/', reason: 'version-control folder', files: 3 }, { name: 'run/.DS_Store', reason: 'OS bookkeeping file', files: 1 }]);
    expect(sum.text).toBe('1 log loaded, 4 files ignored, 1 log read in part (see the messages)');
  });
  it('a file named like a log that holds something else is broken, not ignored', () => {
    const named = { name: 'x_clat_hist.1.log', format: 'ignored', ignored: 'text', labels: {}, series: [], status: { ok: false, message: 'x_clat_hist.1.log: named like a fio histogram log but holds text; not read' } };
    expect(loadSummary([log('a'), named])).toMatchObject({ logs: 1, ignored: 0, broken: 1 });
  });
  it('nothing usable: says so (the page shows data-state=error)', () => {
    const sum = loadSummary([ignored('README', 'text'), broken]);
    expect(sum.logs).toBe(0);
    expect(sum.text).toBe('No latency log among the 2 files: 1 file ignored, 1 file with errors (see the messages)');
  });
  it('group-by offers host, job, dir, file; tag/run/kind only when the logs carry several values', () => {
    const base = groupingsFor([log('a', { kind: 'clat', job: '1' }), log('b', { kind: 'clat', job: '2' })]).map(([v]) => v);
    expect(base).toEqual(['all', 'host', 'job', 'dir', 'file', 'host,dir', 'host,job']);
    const tagged = groupingsFor([log('t.hlog', { file: 't.hlog' }, [{ tag: 'get' }, { tag: 'put' }]), ignored('README', 'text')]);
    expect(tagged.map(([v]) => v)).toEqual(['all', 'host', 'job', 'dir', 'file', 'tag', 'host,dir', 'host,job', 'tag,dir']);
    expect(Object.fromEntries(tagged).tag).toBe('each tag');
    const kinds = groupingsFor([log('s1_lat.1.log', { kind: 'lat' }), log('s1_clat.1.log', { kind: 'clat' })]).map(([v]) => v);
    expect(kinds).toContain('kind');
    expect(kinds).not.toContain('tag');
  });
});

describe('file table names', () => {
  it('are shown without the folder they all share', async () => {
    const { commonFolder } = await import('../../src/app/file-rows.js');
    expect(commonFolder(['.fio-results/a.log', '.fio-results/.more/b.log', '.fio-results/.more/'])).toBe('.fio-results/');
    expect(commonFolder(['run/h1/a.log', 'run/h2/a.log'])).toBe('run/');
    expect(commonFolder(['a.log', 'run/b.log'])).toBe('');
    expect(commonFolder(['run/a.log'])).toBe('run/');
    expect(commonFolder([])).toBe('');
  });
});
