// One test suite, run against both engine implementations (every behaviour checked on both):
//   inthread — the WASM engine in this thread
//   worker   — the pool of workers behind the protocol (protocol.js), here on
//              Node worker_threads running the same serve.js as the page's
//              Web Workers (Chromium runs the real Web Worker in the e2e tests)
// with real fio logs from tests/fixtures, and the page's CSV compared byte for
// byte with the native CLI's `latscope pctiles` on the same files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';
import { engineImpls, nodeWorkerEndpoint } from './node-endpoint.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIX = path.join(ROOT, 'tests/fixtures');
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const hasCli = fs.existsSync(CLI);

const S1 = ['1.log.127.0.0.1', '1.log.127.0.0.2', '2.log.127.0.0.1', '2.log.127.0.0.2'].map((s) =>
  path.join(FIX, 'fio-s1', `s1_clat_hist.${s}`),
);
const LOCAL = [1, 2].map((j) => path.join(FIX, 'local', `local_clat_hist.${j}.log`));
const GZ = [1, 2].map((j) => path.join(FIX, 'gz', `local_clat_hist.${j}.log.gz`));
/** A tagged HdrHistogram log, once the hdr reader is registered (core/src/formats/registry.cc). */
const HLOG = fs.readFileSync(path.join(ROOT, 'core/src/formats/registry.cc'), 'utf8').includes('hdr_log_format(),')
  ? path.join(FIX, 'hdr-processor', 'sig3-tagged.hlog')
  : null;

/** A File held in memory (Node's disk-backed blobs cannot cross worker_threads). */
function fileOf(/** @type {string} */ p, name = path.basename(p)) {
  return new File([fs.readFileSync(p)], name);
}

/** `latscope pctiles ARGS... FILES...` stdout (exit code 1 = some lines skipped is fine). */
function cli(/** @type {string[]} */ args) {
  try {
    return execFileSync(CLI, ['pctiles', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    const err = /** @type {any} */ (e);
    if (err.status === 1 && typeof err.stdout === 'string') return err.stdout;
    throw e;
  }
}

const wasm = nodeWasmSource();
const IMPLS = engineImpls(3);

describe.each(IMPLS)('engine (%s)', (_name, make) => {
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  beforeAll(async () => {
    engine = await make();
  });
  afterAll(() => engine?.terminate());

  it('loads real client/server logs: one Source per file, in order, repaired', async () => {
    await engine.reset();
    const sources = await engine.loadFiles(S1.map((p) => fileOf(p)));
    expect(sources.map((s) => s.name)).toEqual(S1.map((p) => path.basename(p)));
    for (const s of sources) {
      expect(s.status).toEqual({ ok: true, message: '' });
      expect(s.format).toBe('fio-hist');
      expect(s.host).toMatch(/^127\.0\.0\.[12]$/);
      expect(s.records).toBeGreaterThan(30);
      expect(s.series.map((/** @type {any} */ x) => x.dir).sort()).toEqual(['read', 'write']);
      // fio-s1 carries the client/server accumulation defect (FORMATS.md).
      expect(s.series.every((/** @type {any} */ x) => x.repaired)).toBe(true);
    }
    expect((await engine.sources()).map((s) => s.name)).toEqual(sources.map((s) => s.name));
  });

  it.skipIf(!hasCli)('CSV with default options equals `latscope pctiles FILE...` byte for byte', async () => {
    const csv = await engine.csv({});
    expect(csv).toBe(cli(S1));
    expect(csv.split('\n')[0]).toMatch(/^time_ms,group,samples,min,mean,p50,p90,p99,p99\.9,p100,max,flags$/);
  });

  it.skipIf(!hasCli)('CSV with options equals the CLI with the same options', async () => {
    const csv = await engine.csv({
      quantum_ms: 2500,
      percentiles: ['50', '99.9', '99.99'],
      group_by: 'host,dir',
      directions: 'r,w',
      unit: 'ms',
      method: 'fio',
    });
    const want = cli([
      '--quantum', '2500', '--percentiles', '50,99.9,99.99', '--group-by', 'host,dir',
      '--directions', 'r,w', '--unit', 'ms', '--method', 'fio', ...S1,
    ]);
    expect(csv).toBe(want);
    expect(csv.split('\n').length).toBeGreaterThan(20);
  });

  it('defaultQuantum() is core\'s rule: the logs\' interval as a preset, null without one', async () => {
    await engine.reset();
    expect(await engine.defaultQuantum()).toBeNull();
    const place = (/** @type {string} */ n) => fileOf(path.join(FIX, 'place', n));
    // Per-I/O logs have no interval; with the 500 ms histogram logs beside them, 500 ms.
    await engine.loadFiles([place('place_clat.1.log')]);
    expect(await engine.defaultQuantum()).toBeNull();
    await engine.loadFiles([place('place_clat_hist.1.log')]);
    expect(await engine.defaultQuantum()).toBe(500);
    // With the visible range and the chart's width: core's zoom rule, floored at the logs' 500 ms
    // (docs/page-views.md "Quantum follows the zoom").
    expect(await engine.defaultQuantum({ range_ms: 60e3, width_px: 1400 })).toBe(500);
    expect(await engine.defaultQuantum({ range_ms: 3600e3, width_px: 1400 })).toBe(2000);
    // With 1 s logs too, the longest interval wins.
    await engine.loadFiles([fileOf(LOCAL[0])]);
    expect(await engine.defaultQuantum()).toBe(1000);
    await engine.reset();
    await engine.loadFiles(S1.map((p) => fileOf(p)));
  });

  it('query() returns the rows of the CSV as JSON', async () => {
    const q = await engine.query({ group_by: 'host' });
    expect(q.groups).toEqual(['host=127.0.0.1', 'host=127.0.0.2']);
    expect(q.quantum_ms).toBe(1000);
    const csv = await engine.csv({ group_by: 'host' });
    expect(q.rows.length).toBe(csv.trimEnd().split('\n').length - 1);
    const full = q.rows.filter((/** @type {any} */ r) => r.samples > 0);
    expect(full.length).toBeGreaterThan(30);
    for (const r of full) {
      expect(r.p.length).toBe(5);
      expect(r.min).toBeLessThanOrEqual(r.p[0]);
      expect(r.p[0]).toBeLessThanOrEqual(r.p[4]);
    }
  });

  it('queryMatrix() holds the query\'s values per group, quantum and percentile as typed arrays', async () => {
    const opts = { quantum_ms: 1000, group_by: 'host', percentiles: ['50', '99'] };
    const q = await engine.query(opts);
    const m = await engine.queryMatrix(opts);
    expect(m.values).toBeInstanceOf(Float64Array);
    expect(m.groups).toEqual(q.groups);
    const T = m.times.length;
    expect(m.values.length).toBe(m.groups.length * T * 2);
    // The JSON writes numbers with %.10g (report.h format_number); the typed
    // arrays hold them unrounded.
    const g10 = (/** @type {number} */ v) => Number(v.toPrecision(10));
    for (const row of q.rows) {
      const k = m.groups.indexOf(row.group) * T + Array.from(m.times).indexOf(row.t_ms);
      expect(g10(m.samples[k])).toBe(row.samples);
      for (const pi of [0, 1]) {
        if (row.p[pi] == null) expect(Number.isNaN(m.values[k * 2 + pi])).toBe(true);
        else expect(g10(m.values[k * 2 + pi])).toBe(row.p[pi]);
      }
    }
  });

  it('queryColumns() carries every field of query(), and its rows are the JSON rows', async () => {
    for (const opts of [
      { quantum_ms: 500, group_by: 'host,job', percentiles: ['50', '99.9', '100'], unit: 'ms' },
      { adaptive_accuracy: 0.5, group_by: 'host', percentiles: ['99'] },
      // More rows than the worker writes out in one chunk (wasm/js_columns.h: 8,192).
      { quantum_ms: 4, group_by: 'file', percentiles: ['50', '99'] },
    ]) {
      const q = await engine.query(opts);
      const c = await engine.queryColumns(opts);
      if (opts.quantum_ms === 4) expect(c.n).toBeGreaterThan(2 * 8192);
      // Each array is its whole buffer, so the worker transfers it (protocol.js transferablesOf).
      for (const a of [c.t_ms, c.p, c.lo, c.group, c.flag]) expect(a.byteLength).toBe(a.buffer.byteLength);
      expect(c.t_ms).toBeInstanceOf(Float64Array);
      expect(c.n).toBe(q.rows.length);
      const { rows, ...meta } = q;
      for (const [k, v] of Object.entries(meta)) expect(/** @type {any} */ (c)[k]).toEqual(v);
      /** @type {(v: any) => any} */
      const g10 = (v) => (typeof v === 'number' ? Number(v.toPrecision(10)) : Array.isArray(v) ? v.map(g10) : v);
      const mine = /** @type {any[]} */ (c.rows);
      expect(mine.length).toBe(rows.length);
      rows.forEach((/** @type {any} */ row, /** @type {number} */ i) => {
        const o = Object.fromEntries(Object.entries(mine[i]).map(([k, v]) => [k, g10(v)]));
        expect(o).toEqual(row);
      });
      expect(rows.some((/** @type {any} */ row) => row.flags)).toBe(true);
    }
  });

  it('queryColumns({bands: false}) leaves err, lo, hi out; the same query over part of the time gives them as the whole answer has them', async () => {
    const opts = { quantum_ms: 500, group_by: 'host,job', percentiles: ['50', '99.9', '100'] };
    const all = await engine.queryColumns(opts);
    const bare = await engine.queryColumns({ ...opts, bands: false });
    expect(all.bands).toBeUndefined();
    expect(bare.bands).toBe(false);
    for (const k of /** @type {const} */ (['err', 'lo', 'hi'])) expect(bare[k].length).toBe(0);
    expect(bare.n).toBe(all.n);
    expect(Array.from(bare.p)).toEqual(Array.from(all.p));
    expect(Array.from(bare.t_ms)).toEqual(Array.from(all.t_ms));
    // As the JSON: no err, lo, hi in a row made from the columns.
    expect(Object.keys(/** @type {any[]} */ (bare.rows)[0])).not.toContain('lo');
    const json = await engine.query({ ...opts, bands: false });
    expect(json.bands).toBe(false);
    expect(Object.keys(json.rows[0])).not.toContain('lo');
    // What the page asks when zoomed in or hovering (app.js bandsOf): the
    // rows of that time, bit for bit those of the whole answer.
    const t0 = all.t_ms[Math.floor(all.n / 3)];
    const t1 = t0 + 3 * opts.quantum_ms;
    const part = await engine.queryColumns({ ...opts, from_ms: t0, to_ms: t1 });
    expect(part.n).toBeGreaterThan(0);
    const P = opts.percentiles.length;
    let banded = 0;
    for (let i = 0; i < part.n; i++) {
      expect(part.t_ms[i] >= t0 && part.t_ms[i] < t1).toBe(true);
      const j = Array.from(all.t_ms).findIndex((t, k) => t === part.t_ms[i] && all.groups[all.group[k]] === part.groups[part.group[i]]);
      expect(j).toBeGreaterThanOrEqual(0);
      for (const k of /** @type {const} */ (['p', 'err', 'lo', 'hi'])) {
        expect(Array.from(part[k].subarray(i * P, i * P + P))).toEqual(Array.from(all[k].subarray(j * P, j * P + P)));
      }
      banded += Number.isFinite(part.lo[i * P]) ? 1 : 0;
    }
    expect(banded).toBeGreaterThan(0);
  });

  it('heatmap() gives counts as a Float64Array holding every sample', async () => {
    const h = await engine.heatmap({ quantum_ms: 1000, rows: 40 });
    expect(h.counts).toBeInstanceOf(Float64Array);
    expect(h.counts.length).toBe(h.quanta * h.rows);
    expect(h.rows).toBe(40);
    expect(h.edges_ns.length).toBe(41);
    let sum = h.below + h.above;
    for (const c of h.counts) sum += c;
    const sources = await engine.sources();
    let samples = 0;
    for (const s of sources) for (const x of s.series) samples += x.samples;
    expect(sum).toBeCloseTo(samples, 6);
    // Queries never re-read files: a different grid from the same sources.
    const h2 = await engine.heatmap({ quantum_ms: 5000, rows: 8 });
    expect(h2.counts.length).toBe(h2.quanta * 8);
    expect(h2.quanta).toBeLessThan(h.quanta);
  });

  it('any slice size gives identical results (1 byte, 100 bytes, whole file)', async () => {
    const small = [1, 2].map((j) => path.join(FIX, 'coarse', `c4_clat_hist.${j}.log`));
    /** @type {string[]} */
    const csvs = [];
    /** @type {string[]} */
    const sources = [];
    for (const sliceBytes of [1, 100, 1 << 24]) {
      await engine.reset();
      const s = await engine.loadFiles(small.map((p) => fileOf(p)), { sliceBytes });
      sources.push(JSON.stringify(s));
      csvs.push(await engine.csv({ group_by: 'job,dir', percentiles: ['50', '99', '100'] }));
    }
    expect(csvs[0].split('\n').length).toBeGreaterThan(10);
    expect(csvs[1]).toBe(csvs[0]);
    expect(csvs[2]).toBe(csvs[0]);
    expect(sources[1]).toBe(sources[0]);
    expect(sources[2]).toBe(sources[0]);
    await engine.reset();
    await engine.loadFiles(S1.map((p) => fileOf(p)));
  });

  it('a bad option rejects with the core message, and the engine keeps working', async () => {
    const err = await engine.query({ quantum_ms: -5 }).catch((e) => e);
    expect(err?.name).toBe('EngineError');
    expect(err.message).toMatch(/quantum/);
    expect((await engine.query({})).rows.length).toBeGreaterThan(0);
  });

  it('.gz files give the same answers as the plain files', async () => {
    await engine.reset();
    await engine.loadFiles(LOCAL.map((p) => fileOf(p)));
    const plain = await engine.csv({ percentiles: [50, 99] });
    await engine.reset();
    const sources = await engine.loadFiles(GZ.map((p) => fileOf(p)));
    expect(sources.every((s) => s.status.ok)).toBe(true);
    expect(await engine.csv({ percentiles: [50, 99] })).toBe(plain);
  });

  it.skipIf(!hasCli)('encodeResult (a link\'s data) writes a result file: opened like a log, its CSV equals the CLI\'s on `latscope reduce` of the same logs', async () => {
    await engine.reset();
    await engine.loadFiles(S1.map((p) => fileOf(p)));
    const { bytes } = await engine.encodeResult({ quantum_ms: 2000, group_by: ['host', 'dir', 'kind'] });
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe('LSRESULT');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-result-'));
    const mine = path.join(dir, 'page.lsr');
    const theirs = path.join(dir, 'cli.lsr');
    fs.writeFileSync(mine, bytes);
    execFileSync(CLI, ['reduce', '--quantum', '2000', '--keep', 'host,dir', ...S1, '-o', theirs], { stdio: 'ignore' });
    const args = ['--quantum', '2000', '--group-by', 'host', '--percentiles', '50,99.9'];
    // The CLI reads the page's result exactly as its own (zlib and fflate compress differently; the content is the same).
    expect(cli([...args, mine])).toBe(cli([...args, theirs]));
    // The page opens it like a log.
    await engine.reset();
    const [src] = await engine.loadFiles([new File([/** @type {BlobPart} */ (bytes)], 'page.lsr')]);
    expect(src.status.ok).toBe(true);
    expect(src.format).toBe('result');
    expect(await engine.csv({ quantum_ms: 2000, group_by: 'host', percentiles: [50, 99.9] })).toBe(cli([...args, theirs]));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('encodeResult with nothing loaded or a bad option rejects with the engine\'s sentence', async () => {
    await engine.reset();
    await expect(engine.encodeResult({})).rejects.toThrow(/no counts selected/);
    await engine.loadFiles([fileOf(LOCAL[0])]);
    await expect(engine.encodeResult({ quantum_ms: -5 })).rejects.toMatchObject({ name: 'EngineError' });
  });

  it('a malformed file fails with a specific message, a non-log is ignored and named, the others load', async () => {
    await engine.reset();
    const notes = new File(['this is not a fio log\nat all\n'], 'notes.txt');
    const job = fileOf(path.join(FIX, 'local', 'local.fio'));
    const xz = new File([new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4])], 'run.log.xz');
    const broken = new File(['1000, 0, 4096, 1, 2, 3\n2000, 0, 4096, 1, 2, 3\n'], 'broken_clat_hist.1.log');
    const sources = await engine.loadFiles([fileOf(LOCAL[0]), notes, job, xz, broken, fileOf(LOCAL[1])]);
    expect(sources.map((s) => s.status.ok)).toEqual([true, true, true, false, false, true]);
    expect(sources.map((s) => s.format)).toEqual(['fio-hist', 'ignored', 'ignored', 'unknown', sources[4].format, 'fio-hist']);
    expect(sources[1].ignored).toBe('text');
    expect(sources[2].ignored).toBe('fio job file');
    expect(sources[3].status.message).toMatch(/run\.log\.xz: xz-compressed/);
    expect(sources[4].status.message).toMatch(/broken_clat_hist\.1\.log/);
    const all = await engine.sources();
    expect(all.length).toBe(6);
    expect(all.filter((s) => s.status.ok && s.format !== 'ignored').length).toBe(2);
    expect((await engine.query({})).rows.length).toBeGreaterThan(5);
  });

  it('sources carry labels, the ignored reason and each series\' role and labels', async () => {
    await engine.reset();
    const json = fileOf(path.join(FIX, 'fio-s1', 's1.json'));
    const [log, js] = await engine.loadFiles([fileOf(S1[0], 's1_clat_hist.1.log.127.0.0.1'), json]);
    expect(log.labels).toMatchObject({ file: 's1_clat_hist.1.log.127.0.0.1', host: '127.0.0.1', job: '1', kind: 'clat', prefix: 's1' });
    expect(log.ignored).toBe('');
    expect(log.series.length).toBeGreaterThan(0);
    for (const x of log.series) {
      expect(x.role).toBe('time');
      expect(x.labels).toMatchObject({ dir: x.dir, job: '1' });
    }
    expect(js.format).toBe('fio-json');
    expect(js.series.length).toBeGreaterThan(0);
    expect(js.series.every((x) => x.role === 'whole-run')).toBe(true);
  });

  it('the (local) host offset and exclusion reach logs without a host', async () => {
    await engine.reset();
    await engine.loadFiles([fileOf(LOCAL[0]), fileOf(S1[0], 's1_clat_hist.1.log.127.0.0.1')]);
    const base = await engine.query({ group_by: 'host', percentiles: [50] });
    const shifted = await engine.query({ group_by: 'host', percentiles: [50], offsets: { '(local)': 5000 } });
    const first = (/** @type {any} */ q, /** @type {string} */ g) => q.rows.find((/** @type {any} */ r) => r.group === g && r.samples > 0)?.t_ms;
    expect(base.groups).toContain('host=local');
    expect(first(shifted, 'host=local') - first(base, 'host=local')).toBe(5000);
    expect(first(shifted, 'host=127.0.0.1')).toBe(first(base, 'host=127.0.0.1'));
    const only = await engine.query({ group_by: 'host', percentiles: [50], exclude_hosts: ['(local)'] });
    expect(only.groups).toEqual(['host=127.0.0.1']);
  });

  it.skipIf(!HLOG)('a tagged .hlog loads (its zlib payloads inflated by fflate, called from WASM) with tag labels', async () => {
    await engine.reset();
    const [src] = await engine.loadFiles([fileOf(/** @type {string} */ (HLOG))]);
    expect(src.status).toEqual({ ok: true, message: '' });
    expect(src.format).toBe('hdr-log');
    const tags = src.series.map((x) => x.labels.tag).filter(Boolean).sort();
    expect(tags).toEqual(['read', 'write']);
    const q = await engine.query({ group_by: 'tag', percentiles: [50] });
    expect(q.groups).toEqual(expect.arrayContaining(['tag=read', 'tag=write']));
    if (hasCli) expect(await engine.csv({ group_by: 'tag' })).toBe(cli(['--group-by', 'tag', /** @type {string} */ (HLOG)]));
  });

  it('a truncated .gz loads the part read and says so; a multi-member .gz loads whole', async () => {
    await engine.reset();
    const gz = fs.readFileSync(GZ[0]);
    const cut = new File([gz.subarray(0, Math.floor(gz.length * 0.6))], 'cut_clat_hist.1.log.gz');
    const two = new File([zlib.gzipSync(fs.readFileSync(LOCAL[0]).subarray(0, 50000)), zlib.gzipSync(fs.readFileSync(LOCAL[0]).subarray(50000))], 'two_clat_hist.1.log.gz');
    const [a, b] = await engine.loadFiles([cut, two]);
    expect(a.status.ok).toBe(true);
    expect(a.read_error).toMatch(/gzip stream truncated.*bytes.*read are used/);
    expect(a.records).toBeGreaterThan(0);
    expect(b.read_error).toBeUndefined();
    const all = await engine.sources();
    expect(all[0].read_error).toBe(a.read_error);
    await engine.reset();
    const [plain] = await engine.loadFiles([fileOf(LOCAL[0])]);
    expect(b.records).toBe(plain.records);
  });

  it('reports progress per file with bytes/s, ending in done with all bytes', async () => {
    await engine.reset();
    /** @type {any[]} */
    const seen = [];
    const files = S1.map((p) => fileOf(p));
    await engine.loadFiles(files, { onProgress: (p) => seen.push(p), sliceBytes: 64 * 1024 });
    for (const f of files) {
      const mine = seen.filter((p) => p.file === f.name);
      expect(mine[0].state).toBe('queued');
      expect(mine.some((p) => p.state === 'reading')).toBe(true);
      const last = mine.at(-1);
      expect(last.state).toBe('done');
      expect(last.bytesDone).toBe(f.size);
      expect(last.bytesTotal).toBe(f.size);
      expect(last.bytesPerSec).toBeGreaterThan(0);
    }
  });

  it('cancels a load with an AbortSignal and stays usable', async () => {
    await engine.reset();
    const ctl = new AbortController();
    const files = S1.map((p) => fileOf(p));
    const err = await engine
      .loadFiles(files, {
        signal: ctl.signal,
        sliceBytes: 4096,
        onProgress: (p) => {
          if (p.state === 'reading') ctl.abort();
        },
      })
      .catch((e) => e);
    expect(err?.name).toBe('AbortError');
    expect((await engine.sources()).length).toBeLessThan(files.length);
    await engine.reset();
    const again = await engine.loadFiles(files.slice(0, 2));
    expect(again.every((s) => s.status.ok)).toBe(true);
  });
});

describe('worker engine specifics', () => {
  it('gives the same CSV with 1 and 4 workers (import order is file order)', async () => {
    const files = [...S1, ...LOCAL].map((p) => fileOf(p));
    const one = await createEngine({ mode: 'worker', workers: 1, wasm, spawn: nodeWorkerEndpoint });
    const four = await createEngine({ mode: 'worker', workers: 4, wasm, spawn: nodeWorkerEndpoint });
    try {
      const [a, b] = await Promise.all([one.loadFiles(files), four.loadFiles(files)]);
      expect(b.map((s) => s.name)).toEqual(a.map((s) => s.name));
      const opts = { group_by: 'file', percentiles: ['50', '99'] };
      expect(await four.csv(opts)).toBe(await one.csv(opts));
    } finally {
      one.terminate();
      four.terminate();
    }
  });
});

describe('columns without resizable ArrayBuffers', () => {
  it('are the same values, each array its whole buffer (older browsers: wasm/js_columns.h copies)', async () => {
    const e = await createEngine({ mode: 'inthread', wasm });
    const proto = /** @type {any} */ (ArrayBuffer.prototype);
    const resize = Object.getOwnPropertyDescriptor(proto, 'resize');
    try {
      await e.loadFiles(LOCAL.map((p) => fileOf(p)));
      const opts = { quantum_ms: 1, group_by: 'file', percentiles: ['50', '99'] };
      const a = await e.queryColumns(opts);
      delete proto.resize;
      const b = await e.queryColumns(opts);
      expect(b.n).toBe(a.n);
      expect(a.n).toBeGreaterThan(2 * 8192);
      for (const k of /** @type {const} */ (['t_ms', 'samples', 'p', 'err', 'lo', 'hi', 'group', 'flag'])) {
        expect(b[k]).toEqual(a[k]);
        expect(b[k].byteLength).toBe(b[k].buffer.byteLength);
        expect(/** @type {any} */ (b[k].buffer).resizable).toBeFalsy();
      }
      expect(/** @type {any} */ (a.p.buffer).resizable).toBe(true);
    } finally {
      if (resize) Object.defineProperty(proto, 'resize', resize);
      e.terminate();
    }
  });
});
