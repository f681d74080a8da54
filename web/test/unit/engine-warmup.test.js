// The warm-up (engine/warmup.js): made-up logs queried in a scratch engine
// so that the browser optimises the engine's code before the user's
// queries. It must exercise the real paths (the made-up logs parse cleanly
// into both directions of every host, at the logging interval, so the
// queries take the common path, not a note's), and it must leave nothing
// behind: the worker's own engine keeps its sources and answers the same,
// before or after, loaded before or after the warm-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InThreadEngine } from '../../src/engine/inthread.js';
import { loadWasmModule } from '../../src/engine/wasm-module.js';
import { WorkerProxy } from '../../src/engine/proxy.js';
import { Req } from '../../src/engine/protocol.js';
import { nodeWasmSource } from '../../src/engine/node.js';
import { warmUp, warmupItems } from '../../src/engine/warmup.js';
import { nodeWorkerEndpoint } from './node-endpoint.js';

const FIX = fileURLToPath(new URL('../../../tests/fixtures/', import.meta.url));
const local = () =>
  fs
    .readdirSync(path.join(FIX, 'local'))
    .filter((f) => f.includes('_hist.'))
    .sort()
    .map((f) => ({ name: `local/${f}`, file: new File([fs.readFileSync(path.join(FIX, 'local', f))], f) }));

/** @type {any} */
let module;
beforeAll(async () => {
  module = await loadWasmModule(nodeWasmSource());
});

describe('warm-up', () => {
  it('made-up logs: every host, both directions, a window a second, no notes', async () => {
    const e = new InThreadEngine(module);
    const sources = await e.loadFiles(warmupItems());
    expect(sources.length).toBe(8);
    for (const s of sources) {
      expect(s.issues ?? []).toEqual([]);
      expect(s.read_error ?? '').toBe('');
    }
    const c = e.queryColumns({ quantum_ms: 1000, group_by: 'host,dir' });
    expect(c.groups.length).toBe(16);
    expect(c.notes).toEqual([]);
    // Every row inside the run full (the logging interval is the quantum):
    // no flag but "few" except at the run's two ends.
    const first = c.t_ms[0];
    const last = c.t_ms[c.n - 1];
    const inside = new Set();
    for (let i = 0; i < c.n; i++) {
      const t = c.flag_texts[c.flag[i]];
      if (t && !t.startsWith('few') && c.t_ms[i] !== first && c.t_ms[i] !== last) inside.add(t);
    }
    expect([...inside]).toEqual([]);
    expect(c.n).toBeGreaterThan(16 * 590);
    e.terminate();
  });

  it("leaves the worker's engine as it was: sources and answers", async () => {
    const e = new InThreadEngine(module);
    await e.loadFiles(local());
    const before = { sources: JSON.stringify(e.sources()), csv: e.csv({ group_by: 'host,job' }), m: e.memory().modelBytes };
    await warmUp(InThreadEngine, module);
    expect(JSON.stringify(e.sources())).toBe(before.sources);
    expect(e.csv({ group_by: 'host,job' })).toBe(before.csv);
    expect(e.memory().modelBytes).toBe(before.m);
    // And data loaded after a warm-up is answered as without one.
    const fresh = new InThreadEngine(module);
    await fresh.loadFiles(local());
    expect(fresh.csv({ group_by: 'host,job' })).toBe(before.csv);
    fresh.terminate();
    e.terminate();
  });

  it('as a worker request, beside an import and a query', async () => {
    const w = new WorkerProxy(nodeWorkerEndpoint());
    try {
      await w.request(Req.INIT, { wasmUrl: nodeWasmSource().url });
      const warm = w.request(Req.WARM_UP, {});
      // Sent while the warm-up runs: answered from the worker's own engine only.
      for (const it of local()) await w.request(Req.PARSE_FILE, { file: it.file, name: it.name, export: false });
      const text = await w.request(Req.QUERY, { opts: { group_by: 'host' } });
      expect(await warm).toBeFalsy();
      const srcs = await w.request(Req.SOURCES, {});
      expect(srcs.map((/** @type {any} */ s) => s.name)).toEqual(local().map((i) => i.name));
      const e = new InThreadEngine(module);
      await e.loadFiles(local());
      expect(text).toBe(e.queryText({ group_by: 'host' }));
      e.terminate();
    } finally {
      w.terminate();
    }
  });
});

afterAll(() => {
  module = null;
});
