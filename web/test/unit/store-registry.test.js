// The one store's session part (reports told by key, staged fields drawn by
// the next report) and the registry of views behind one interface; a view's
// CSV export through the real WASM engine is the CLI's.
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';
import { SURFACE_LEVELS } from '../../src/app/queries.js';
import { Store, initialState, initialSession } from '../../src/app/state.js';
import { makeRegistry } from '../../src/app/view-registry.js';
import { VIEW_NAMES } from '../../src/model/state.js';

describe('store: the session reports', () => {
  it('tells its listeners which session fields a report changed, not the view state listeners', () => {
    const st = new Store(initialState());
    /** @type {string[][]} */
    const reports = [];
    /** @type {string[][]} */
    const sets = [];
    st.onReport((changed) => reports.push([...changed].sort()));
    st.subscribe((changed) => sets.push([...changed].sort()));
    st.report({ status: { state: 'loading', text: 'Reading 2 files…' }, fetchErrors: ['x'] });
    expect(reports).toEqual([['fetchErrors', 'status']]);
    expect(sets).toEqual([]);
    expect(st.session.status.text).toBe('Reading 2 files…');
  });

  it('stages fields without telling; the next report names only what it carries', () => {
    const st = new Store(initialState());
    /** @type {string[][]} */
    const reports = [];
    st.onReport((changed) => reports.push([...changed]));
    st.stage({ trust: [], skipped: [{ name: '.DS_Store', reason: 'OS bookkeeping', files: 1 }] });
    expect(reports).toEqual([]);
    st.report({ runPlan: null });
    expect(reports).toEqual([['runPlan']]);
    expect(st.session.skipped.map((s) => s.name)).toEqual(['.DS_Store']);
  });

  it('a Map changed in place counts as changed when it is reported again', () => {
    const st = new Store(initialState(), initialSession());
    let told = 0;
    st.onReport((changed) => {
      if (changed.has('pending')) told++;
    });
    st.session.pending.set('a.log', { state: 'reading', bytesDone: 1, bytesTotal: 2 });
    st.report({ pending: st.session.pending });
    expect(told).toBe(1);
  });
});

describe('view registry', () => {
  it('registers every view of the tabs, each with make, feed and csv', () => {
    const reg = makeRegistry();
    expect(Object.keys(reg).sort()).toEqual([...VIEW_NAMES].sort());
    for (const v of VIEW_NAMES) {
      expect(reg[v].name).toBe(v);
      expect(typeof reg[v].make).toBe('function');
      expect(typeof reg[v].feed).toBe('function');
      expect(typeof reg[v].csv).toBe('function');
    }
    // Only the heat map's query depends on the chart's size (asked again after a resize).
    expect(VIEW_NAMES.filter((v) => reg[v].sized)).toEqual(['heatmap']);
  });

  it('a feed asks the engine only when its options changed, or when forced', async () => {
    const reg = makeRegistry();
    /** @type {Record<string, string>} */
    const keys = {};
    /** @param {string} k @param {unknown} o */
    const changed = (k, o) => {
      const j = JSON.stringify(o);
      if (keys[k] === j) return false;
      keys[k] = j;
      return true;
    };
    let asked = 0;
    let drawn = 0;
    const view = { setData: () => drawn++, render: () => drawn++ };
    const engine = { query: async () => (asked++, { rows: [] }) };
    const q = { engine, changed, columns: async () => { throw new Error('unused'); }, pct: null, sources: [], colors: /** @type {any} */ (null), drawn: () => {} };
    const s = initialState();
    await reg.surface.feed(/** @type {any} */ (view), q, s, false);
    await reg.surface.feed(/** @type {any} */ (view), q, s, false);
    expect([asked, drawn]).toEqual([1, 2]);
    await reg.surface.feed(/** @type {any} */ (view), q, s, true);
    expect([asked, drawn]).toEqual([2, 3]);
  });
});

// Every "Export view CSV" is text core writes (docs/ARCHITECTURE.md, "From
// bytes to pixels"): the surface's is `latscope pctiles` over its levels.
describe('view registry: the surface export is the CLI\'s', () => {
  const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
  const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
  const FILES = ['local_clat_hist.1.log', 'local_clat_hist.2.log'].map((f) => path.join(ROOT, 'tests/fixtures/local', f));
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  beforeAll(async () => {
    engine = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    await engine.loadFiles(FILES.map((p) => new File([fs.readFileSync(p)], path.basename(p))));
  });
  afterAll(() => engine?.terminate());
  const cli = (/** @type {string[]} */ args) =>
    execFileSync(CLI, ['pctiles', '--group-by', 'all', '--percentiles', SURFACE_LEVELS.join(','), ...args, ...FILES], { encoding: 'utf8' });
  const q = () => /** @type {any} */ ({ engine, changed: () => true, pct: null, sources: [], colors: null, drawn: () => {} });

  it.skipIf(!fs.existsSync(CLI))('whole run and zoomed: byte for byte `latscope pctiles --group-by all --percentiles <the surface levels>`', async () => {
    const reg = makeRegistry();
    const whole = await reg.surface.csv(/** @type {any} */ (null), q(), initialState());
    expect(whole?.name).toBe('latscope-surface.csv');
    expect(whole?.text.split('\n')[0]).toContain(',p99.9,');
    expect(whole?.text).toBe(cli([]));
    const zoomed = await reg.surface.csv(/** @type {any} */ (null), q(), { ...initialState(), range: [3000, 6000] });
    expect(zoomed?.text).toBe(cli(['--from', '3000', '--to', '6000']));
    expect(zoomed?.text.trim().split('\n').length).toBe(4);
  });
});
