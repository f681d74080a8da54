// Option plumbing of methods, latency kinds, coordinated-omission
// correction and heat-map rows by bs/offset: page state -> engine options,
// what the loaded inputs allow, CO group pairing, and (through the WASM
// engine) the page's options giving the CLI's CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { engineOptions } from '../../src/app/options.js';
import { initialState } from '../../src/app/state.js';
import { pctilesOptions, clusterOptions, surfaceOptions, heatmapOptions, spectrumOptions, pctilesAreCluster, groupsOptions, linkPlans, resultOptions } from '../../src/app/queries.js';
import { METHODS, methodChoices, exactAllowed, kindsOf, kindChoices, perIoLoaded, parseCoInterval, selectedLogs } from '../../src/app/methods.js';
import { byteTicks } from '../../src/views/heatmap-view.js';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';
import { formatBytes } from '../../src/util/format.js';
import { coSplit, coPairs } from '../../src/model/co-groups.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIX = path.join(ROOT, 'tests/fixtures');
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const hasCli = fs.existsSync(CLI);

/** @param {Partial<import('../../src/app/state.js').State>} p */
const state = (p) => ({ ...initialState(), ...p });

/** Minimal engine Sources. @param {string} name @param {string} format @param {Record<string, string>} [labels] @param {string} [host] */
const src = (name, format, labels = {}, host = '') => ({ name, format, host, labels, status: { ok: true, message: '' }, series: [{ dir: 'read', labels: {}, role: 'time' }] });

describe('engine options of the new fields', () => {
  it('a fresh page sends neither kinds nor co_interval_ms (the CLI defaults)', () => {
    const o = pctilesOptions(initialState());
    expect(o).not.toHaveProperty('kinds');
    expect(o).not.toHaveProperty('co_interval_ms');
    expect(heatmapOptions(initialState(), 64, null)).not.toHaveProperty('y');
  });
  it('method, kinds and co_interval_ms go to the percentiles and spectrum queries', () => {
    const s = state({ method: 'exact', kinds: 'lat', co_interval_ms: 2.5 });
    expect(pctilesOptions(s)).toMatchObject({ method: 'exact', kinds: 'lat', co_interval_ms: 2.5 });
    const sp = spectrumOptions(s, [0, 5000], []);
    expect(sp).toMatchObject({ method: 'exact', kinds: 'lat', co_interval_ms: 2.5 });
    expect(engineOptions(state({ co_interval_ms: 0 }))).not.toHaveProperty('co_interval_ms');
  });
  it('heat map, its percentile lines and the surface stay on recorded data; kinds still apply', () => {
    const s = state({ kinds: 'slat', co_interval_ms: 1 });
    for (const o of [heatmapOptions(s, 64, null), clusterOptions(s), surfaceOptions(s)]) {
      expect(o).not.toHaveProperty('co_interval_ms');
      expect(o).toMatchObject({ kinds: 'slat' });
    }
    expect(pctilesAreCluster(state({}))).toBe(true);
    expect(pctilesAreCluster(s)).toBe(false);
    expect(pctilesAreCluster(state({ group_by: 'host' }))).toBe(false);
  });
  it('a link with data: fullest first, then without dir unless grouped by it, then coarser whole quanta leaving at least 30 over the run', () => {
    const Q = [100, 200, 500, 1000, 2000, 5000, 10000];
    const p = linkPlans(state({ quantum_ms: 500 }), Q, 60000);
    expect(p.map((x) => [x.quantum_ms, x.labels.join(',')])).toEqual([[500, 'dir,kind'], [500, 'kind'], [1000, 'kind'], [2000, 'kind']]);
    expect(p[0].dropped).toEqual([]);
    expect(p[3].dropped).toEqual(['the directions apart (those chosen added together)', 'the 500 ms quanta (2 s instead)']);
    // Grouped by direction: dir stays; 200 ms is no multiple of 500 ms.
    const g = linkPlans(state({ quantum_ms: 500, group_by: 'host,dir' }), Q, 60000);
    expect(g.map((x) => [x.quantum_ms, x.labels.join(',')])).toEqual([[500, 'host,dir,kind'], [1000, 'host,dir,kind'], [2000, 'host,dir,kind']]);
    expect(resultOptions(state({ quantum_ms: 500 }), p[3])).toMatchObject({ quantum_ms: 2000, group_by: ['kind'] });
  });
  it('a focused group narrows the heat map and its lines only: the percentiles, surface and groups queries keep every file', () => {
    const focus = { key: 'host=h1', exclude_sources: ['b.log'], directions: 'r', unsupported: [] };
    const s = state({ exclude_sources: ['a.log'], focus });
    expect(heatmapOptions(s, 64, null)).toMatchObject({ exclude_sources: ['a.log', 'b.log'], directions: 'r' });
    expect(clusterOptions(s)).toMatchObject({ exclude_sources: ['a.log', 'b.log'], directions: 'r' });
    expect(pctilesAreCluster(s)).toBe(false);
    for (const o of [pctilesOptions(s), surfaceOptions(s), groupsOptions(s)]) expect(o).toMatchObject({ exclude_sources: ['a.log'], directions: 'r,w,t' });
  });
  it('views that draw no error bands ask for none; the percentiles view decides its own (docs/page-speed.md "Bands when drawn")', () => {
    const s = initialState();
    for (const o of [clusterOptions(s), surfaceOptions(s), spectrumOptions(s, [0, 5000], [])]) expect(o.bands).toBe(false);
    expect(pctilesOptions(s)).not.toHaveProperty('bands');
  });
  it('heat map rows by block size or offset: y set, no latency bounds', () => {
    expect(heatmapOptions(state({ heatY: 'bs' }), 80, [1000, 2000])).toEqual({ quantum_ms: 1000, directions: 'r,w,t', rows: 80, y: 'bs' });
    expect(heatmapOptions(state({ heatY: 'offset' }), 40, null)).toMatchObject({ y: 'offset', rows: 40 });
    expect(heatmapOptions(state({ heatY: 'latency' }), 40, [1, 2])).toMatchObject({ min_ns: 1, max_ns: 2 });
  });
});

describe('what the inputs allow', () => {
  const perIo = [src('fl_clat.1.log', 'fio-lat', { kind: 'clat' }), src('fl_lat.1.log', 'fio-lat', { kind: 'lat' })];
  const hist = src('local_clat_hist.1.log', 'fio-hist', { kind: 'clat' });
  it('offers the four methods of options_json.cc', () => {
    expect(METHODS.map((m) => m[0])).toEqual(['interp', 'fio', 'hdr', 'exact']);
  });
  it('exact only when every selected input is a per-I/O log, saying why otherwise', () => {
    const s = initialState();
    expect(exactAllowed(perIo, s)).toBe(true);
    const mixed = methodChoices([...perIo, hist], s).find((c) => c.value === 'exact');
    expect(mixed?.disabled).toBe(true);
    expect(mixed?.title).toMatch(/every selected input .*per-I\/O.*local_clat_hist\.1\.log/);
    expect(methodChoices([], s).find((c) => c.value === 'exact')?.title).toMatch(/none is loaded/);
    // Leaving the histogram log out of the selection makes exact possible.
    expect(exactAllowed([...perIo, hist], state({ exclude_sources: ['local_clat_hist.1.log'] }))).toBe(true);
    expect(methodChoices([...perIo, hist], s).filter((c) => c.disabled).map((c) => c.value)).toEqual(['exact']);
  });
  it('excluded hosts leave their files out of the selection', () => {
    const a = src('x_clat.1.log.h1', 'fio-lat', { kind: 'clat', host: 'h1' }, 'h1');
    const b = src('x_clat_hist.1.log.h2', 'fio-hist', { host: 'h2' }, 'h2');
    expect(selectedLogs([a, b], state({ exclude_hosts: ['h2'] })).map((x) => x.name)).toEqual(['x_clat.1.log.h1']);
    expect(exactAllowed([a, b], state({ exclude_hosts: ['h2'] }))).toBe(true);
  });
  it('kinds: a selector only when several are loaded, default first', () => {
    expect(kindsOf(perIo)).toEqual(['clat', 'lat']);
    expect(kindChoices(kindsOf(perIo))).toEqual([['', 'clat (default)'], ['lat', 'lat']]);
    expect(kindChoices(kindsOf([perIo[0], hist]))).toEqual([]);
    // Without clat the engine keeps lat.
    expect(kindChoices(['lat', 'slat'])).toEqual([['', 'lat (default)'], ['slat', 'slat']]);
    // A series without a kind label counts as clat.
    expect(kindsOf([src('a.hlog', 'hdr-log')])).toEqual(['clat']);
    expect(perIoLoaded(perIo)).toBe(true);
    expect(perIoLoaded([hist])).toBe(false);
  });
});

describe('coordinated-omission groups', () => {
  it('splits a group into the one it doubles and its half', () => {
    expect(coSplit('co=corrected')).toEqual({ base: 'all', co: 'corrected' });
    expect(coSplit('host=127.0.0.1;co=uncorrected')).toEqual({ base: 'host=127.0.0.1', co: 'uncorrected' });
    expect(coSplit('host=a')).toEqual({ base: 'host=a', co: null });
  });
  it('pairs share a base (colour); the corrected half is marked (dashed)', () => {
    const p = coPairs(['host=a;co=corrected', 'host=a;co=uncorrected', 'host=b;co=corrected', 'host=b;co=uncorrected']);
    expect(p.bases).toEqual(['host=a', 'host=b']);
    expect(p.of.map((x) => [x.base, x.corrected])).toEqual([[0, true], [0, false], [1, true], [1, false]]);
    expect(coPairs(['all']).of[0].co).toBe(false);
  });
  it('the interval field: empty or 0 is off, ms accepted, junk refused', () => {
    expect(parseCoInterval('')).toBe(0);
    expect(parseCoInterval(' 0 ')).toBe(0);
    expect(parseCoInterval('2.5 ms')).toBe(2.5);
    expect(() => parseCoInterval('-1')).toThrow(/not an interval in ms/);
    expect(() => parseCoInterval('soon')).toThrow(/"soon"/);
  });
});

describe('heat map rows in bytes', () => {
  it('formats binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(4096)).toBe('4 KiB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MiB');
  });
  it('ticks: block-size row edges, round offsets', () => {
    expect(byteTicks('bs', [4096, 8192, 16384, 32768], 400)).toEqual([4096, 8192, 16384, 32768]);
    const t = byteTicks('offset', [0, 1e6, 2e6, 3e6, 4e6, 5e6, 6e6, 7e6, 8e6, 9e6, 1e7], 400);
    expect(t.length).toBeGreaterThanOrEqual(4);
    expect(t.length).toBeLessThanOrEqual(9);
    expect(Math.log2(t[1] - t[0]) % 1).toBe(0);
    for (const x of t) expect(x).toBeLessThanOrEqual(1e7);
  });
});

// The page's options through the WASM engine give the CLI's CSV.
describe('page options through the engine equal the CLI', () => {
  const FL = ['fl_clat.1.log', 'fl_lat.1.log', 'fl_slat.1.log'].map((f) => path.join(FIX, 'fio_lat', f));
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  /** @type {any[]} */
  let sources;
  const cli = (/** @type {string[]} */ args) => {
    try {
      return execFileSync(CLI, ['pctiles', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      const err = /** @type {any} */ (e);
      if (err.status === 1 && typeof err.stdout === 'string') return err.stdout;
      throw e;
    }
  };
  beforeAll(async () => {
    engine = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    sources = await engine.loadFiles(FL.map((p) => new File([fs.readFileSync(p)], path.basename(p))));
  });
  afterAll(() => engine?.terminate());

  it('the per-I/O logs allow exact and offer three kinds', () => {
    expect(sources.every((s) => s.format === 'fio-lat')).toBe(true);
    expect(exactAllowed(sources, initialState())).toBe(true);
    expect(kindsOf(sources)).toEqual(['clat', 'lat', 'slat']);
  });
  it('with several kinds the engine keeps clat and says so in a note', async () => {
    const q = await engine.query(pctilesOptions(initialState()));
    expect(q.notes.join(' ')).toMatch(/kinds lat, slat left out/);
    const lat = await engine.query(pctilesOptions(state({ kinds: 'lat' })));
    expect(lat.notes.join(' ')).not.toMatch(/kinds/);
  });
  it.skipIf(!hasCli)('exact, kind lat: CSV equals `latscope pctiles --method exact --kind lat`', async () => {
    const csv = await engine.csv(pctilesOptions(state({ method: 'exact', kinds: 'lat' })));
    expect(csv).toBe(cli(['--method', 'exact', '--kind', 'lat', ...FL]));
  });
  it.skipIf(!hasCli)('CO interval: CSV equals `latscope pctiles --co-interval 1`, both halves present', async () => {
    const csv = await engine.csv(pctilesOptions(state({ co_interval_ms: 1 })));
    expect(csv).toBe(cli(['--co-interval', '1', ...FL]));
    expect(csv).toMatch(/,co=corrected,/);
    expect(csv).toMatch(/,co=uncorrected,/);
  });
  it('heat map by block size: rows in bytes, totals equal the clat lines', async () => {
    const hm = await engine.heatmap(heatmapOptions(state({ heatY: 'bs' }), 64, null));
    expect(hm.y).toBe('bs');
    expect(hm.edges_ns[0]).toBe(4096);
    let n = 0;
    for (const c of hm.counts) n += c;
    expect(n + hm.below + hm.above).toBe(fs.readFileSync(FL[0], 'utf8').trim().split('\n').length);
  });
  it.skipIf(!hasCli)('heat map by block size: the export is core\'s, equal to `latscope heatmap --y bs --header-units`, bytes in the header', async () => {
    const o = heatmapOptions(state({ heatY: 'bs' }), 64, null);
    const csv = await engine.heatmapCsv({ ...o, unit: 'us' });
    expect(csv.split('\n')[0]).toBe('time_ms,bs_lo_bytes,bs_hi_bytes,count');
    expect(csv).toBe(execFileSync(CLI, ['heatmap', '--y', 'bs', '--rows', '64', '--header-units', ...FL], { encoding: 'utf8' }));
    // A range keeps the quanta overlapping it only.
    const lines = csv.trim().split('\n').slice(1);
    const t = Number(lines[lines.length - 1].split(',')[0]);
    const cut = (await engine.heatmapCsv({ ...o, unit: 'us' }, [t, t + 1])).trim().split('\n').slice(1);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((l) => Number(l.split(',')[0]) === t)).toBe(true);
  });
});
