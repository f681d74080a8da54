// The query twin (engine/twin.js): with it, the worker engine answers a
// percentiles query (columns or matrix) in two parts, one per worker, and
// joins them. The joined answer must equal the whole query in one engine,
// array for array, on the real fio fixtures (late-start jobs placed from
// json+, client/server logs), a log with a skipped gap (its note), runs,
// after a reset, and when the twin is dropped or dies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../src/engine/index.js';
import { WorkerEngine } from '../../src/engine/worker-engine.js';
import { nodeWasmSource } from '../../src/engine/node.js';
import { nodeWorkerEndpoint } from './node-endpoint.js';

const FIX = fileURLToPath(new URL('../../../tests/fixtures/', import.meta.url));

/** @param {string} rel */
const item = (rel) => ({ name: rel, file: new File([fs.readFileSync(path.join(FIX, rel))], path.basename(rel)) });

/** @param {string} dir @param {(f: string) => boolean} keep */
const items = (dir, keep) =>
  fs
    .readdirSync(path.join(FIX, dir))
    .filter(keep)
    .sort()
    .map((f) => item(`${dir}/${f}`));

/** A fio 3 histogram line with the given non-zero bins. @param {number} t @param {[number, number][]} bins */
function histLine(t, bins) {
  const v = new Array(1856).fill(0);
  for (const [b, n] of bins) v[b] += n;
  return `${t}, 0, 4096, ${v.join(', ')}\n`;
}

/** Bursts of windows with a short pause and one over 1,000 quanta (skipped: a note). */
function gappyLog() {
  let s = '';
  for (const from of [1000, 9000, 2012000]) for (let i = 0; i < 3; i++) s += histLine(from + 1000 * i + 2, [[700 + i, 40], [760, 2]]);
  return { name: 'gap/g_clat_hist.1.log', file: new File([s], 'g_clat_hist.1.log') };
}

const FILES = () => [
  ...items('local', (f) => f.includes('_clat_hist') || f.endsWith('.json')),
  ...items('place', (f) => f.includes('_clat_hist') || f.endsWith('.json')),
  ...items('cs', (f) => f.includes('_clat_hist')),
  gappyLog(),
];

const OPTIONS = [
  { quantum_ms: 1000, group_by: 'host' },
  { quantum_ms: 250, group_by: ['job', 'dir'], bands: false },
  { quantum_ms: 3000, percentiles: [50, 99.9, 100], method: 'fio' },
  { quantum_ms: 1000, adaptive_accuracy: 0.5, group_by: 'host' },
];

/** Every field equal; typed arrays element by element (NaN equals NaN). @param {any} got @param {any} want */
function expectSame(got, want) {
  const keys = (/** @type {any} */ o) => Object.keys(o).filter((k) => k !== 'engine_ms').sort();
  expect(keys(got)).toEqual(keys(want));
  for (const k of keys(want)) {
    const a = got[k];
    const b = want[k];
    if (ArrayBuffer.isView(a)) {
      expect(a.constructor, k).toBe(/** @type {any} */ (b).constructor);
      expect(Array.from(/** @type {any} */ (a)), k).toEqual(Array.from(/** @type {any} */ (b)));
    } else expect(a, k).toEqual(b);
  }
}

describe('query twin', () => {
  /** @type {any} */
  let one;
  /** @type {WorkerEngine} */
  let two;
  let joined = 0;
  beforeAll(async () => {
    one = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    // Every query cut, however small (the page cuts those over TWIN_MIN_ROWS).
    two = await WorkerEngine.create({ wasmUrl: nodeWasmSource().url, workers: 2, spawn: nodeWorkerEndpoint, twin: true, twinMinRows: 0 });
    // Counts the answers joined from two parts that both had rows.
    const twin = /** @type {import('../../src/engine/twin.js').QueryTwin} */ (two.twin);
    const query = twin.query.bind(twin);
    twin.query = (p, t, o, join) => query(p, t, o, (a, b) => {
      if (/** @type {any} */ (a).n || /** @type {any} */ (a).times?.length) if (/** @type {any} */ (b).n || /** @type {any} */ (b).times?.length) joined++;
      return join(a, b);
    });
    await one.loadFiles(FILES());
    await two.loadFiles(FILES());
  });
  afterAll(() => {
    one?.terminate();
    two?.terminate();
  });

  it('columns and matrix equal the whole query in one engine', async () => {
    expect(two.twin?.worker).not.toBeNull();
    const before = joined;
    for (const o of OPTIONS) {
      expectSame(await two.queryColumns(o), await one.queryColumns(o));
      const m = { ...o, percentiles: [99] };
      expectSame(await two.queryMatrix(m), await one.queryMatrix(m));
    }
    // Fixed quanta were answered in two parts (3 option sets x 2), adaptive whole.
    expect(joined - before).toBe(6);
    const notes = (await two.queryColumns({ quantum_ms: 1000 })).notes;
    expect(notes.some((t) => t.startsWith('no I/O in any group'))).toBe(true);
  });

  it('follows runs and a reset', async () => {
    for (const e of [one, two]) await e.assignRuns({ by: 'folder' });
    const o = { quantum_ms: 1000, group_by: 'run' };
    const want = await one.queryColumns(o);
    expect(want.groups.length).toBeGreaterThan(1);
    expectSame(await two.queryColumns(o), want);
    for (const e of [one, two]) {
      await e.reset();
      await e.loadFiles(items('local', (f) => f.includes('_clat_hist')));
    }
    expect(two.twin?.worker).not.toBeNull();
    const before = joined;
    expectSame(await two.queryColumns({ quantum_ms: 500, group_by: 'job' }), await one.queryColumns({ quantum_ms: 500, group_by: 'job' }));
    expect(joined - before).toBe(1);
  });

  it('a reset while the twin still imports leaves the next twin working', async () => {
    for (const e of [one, two]) await e.reset();
    await two.loadFiles(FILES());
    // The twin's imports trail the primary's: a reset now stops them half-done.
    await two.reset();
    await one.reset();
    for (const e of [one, two]) await e.loadFiles(items('place', (f) => f.includes('_clat_hist') || f.endsWith('.json')));
    await two.twin?.queue;
    expect(two.twin?.behind).toBe(false);
    expect(two.twin?.worker).not.toBeNull();
    const before = joined;
    const o = { quantum_ms: 1000, group_by: 'job' };
    expectSame(await two.queryColumns(o), await one.queryColumns(o));
    expect(joined - before).toBe(1);
  });

  it('runs a query bounded under the minimum rows whole', async () => {
    /** @type {any} */ (two.twin).minRows = 1e9;
    const before = joined;
    try {
      expectSame(await two.queryColumns({ quantum_ms: 1000 }), await one.queryColumns({ quantum_ms: 1000 }));
      expect(joined).toBe(before);
    } finally {
      /** @type {any} */ (two.twin).minRows = 0;
    }
  });

  it('answers whole when the twin dies or the data outgrows it', async () => {
    two.twin?.worker?.terminate();
    const o = { quantum_ms: 1000, group_by: 'job' };
    expectSame(await two.queryColumns(o), await one.queryColumns(o));
    expect(two.twin?.worker).toBeNull();
    const small = await WorkerEngine.create({ wasmUrl: nodeWasmSource().url, workers: 2, spawn: nodeWorkerEndpoint, twin: true, twinMaxModelBytes: 1, twinMinRows: 0 });
    try {
      await one.reset();
      for (const e of [one, small]) await e.loadFiles(items('local', (f) => f.includes('_clat_hist')));
      expect(small.twin?.worker).toBeNull();
      expectSame(await small.queryColumns(o), await one.queryColumns(o));
    } finally {
      small.terminate();
    }
  });
});
