// The page's memory budget (docs/page-loading.md §7): the arithmetic
// (engine/budget.js), the page's sentences (app/memory-budget.js), and the
// worker engine under Node: files past the budget are imported reduced and
// the CSV equals the CLI's on the logs at the quantum and its multiples; a
// parse worker whose memory runs out costs only its file.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BUDGET_BYTES, WINDOW_BYTES, addUsed, budgetPlan, isMultiple, modelBytes, parseBudget, shouldReduce } from '../../src/engine/budget.js';
import { budgetSettings, memoryText, reducedQuantumNote, reducedStatus } from '../../src/app/memory-budget.js';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';
import { nodeWorkerEndpoint } from './node-endpoint.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const S1DIR = path.join(ROOT, 'tests/fixtures/fio-s1');
const S1 = fs.readdirSync(S1DIR).filter((f) => /^s1_clat_hist\./.test(f)).sort().map((f) => path.join(S1DIR, f));

describe('budget arithmetic', () => {
  it('parses sizes as people write them, and refuses the rest with a sentence', () => {
    expect(parseBudget(null)).toBe(DEFAULT_BUDGET_BYTES);
    expect(parseBudget('')).toBe(DEFAULT_BUDGET_BYTES);
    expect(parseBudget('20000')).toBe(20000);
    expect(parseBudget('512MiB')).toBe(512 * 2 ** 20);
    expect(parseBudget('512m')).toBe(512 * 2 ** 20);
    expect(parseBudget('1.5 GiB')).toBe(1.5 * 2 ** 30);
    expect(parseBudget('2GB')).toBe(2e9);
    expect(parseBudget('off')).toBe(Infinity);
    expect(parseBudget('0')).toBe(Infinity);
    expect(() => parseBudget('lots')).toThrow(/budget "lots" is not a size like 512MiB/);
    expect(() => parseBudget('-5MiB')).toThrow(/not a size/);
    expect(() => parseBudget('5 parsecs')).toThrow(/not a size/);
  });

  it('a Source costs its encoded bytes and 40 B per window', () => {
    expect(WINDOW_BYTES).toBe(40);
    expect(modelBytes({ series: [{ windows: 19 }, { windows: 19 }] }, 1000)).toBe(1000 + 40 * 38);
    expect(modelBytes({}, 7)).toBe(7);
  });

  it('once a file passes the budget, it and every later one are reduced; json+ never', () => {
    const plan = budgetPlan(100);
    const decide = (/** @type {number} */ bytes, reducible = true) => {
      const r = shouldReduce(plan, bytes, reducible);
      addUsed(plan, r ? bytes / 10 : bytes);
      return r;
    };
    expect(decide(60)).toBe(false);
    expect(decide(40)).toBe(false); // exactly at the budget: kept
    expect(decide(30, false)).toBe(false); // not reducible (fio json+)
    expect(decide(1)).toBe(true); // passes it
    expect(decide(1)).toBe(true); // later files too, however small
    expect(plan.used).toBeCloseTo(130.2);
    const none = budgetPlan(Infinity);
    expect(shouldReduce(none, 1e15, true)).toBe(false);
    expect(shouldReduce(budgetPlan(100, 90), 11, true)).toBe(true); // what is already loaded counts
  });

  it('multiples of the reduced quantum', () => {
    expect(isMultiple(5000, 5000)).toBe(true);
    expect(isMultiple(10000, 5000)).toBe(true);
    expect(isMultiple(60000, 1000)).toBe(true);
    expect(isMultiple(1000, 5000)).toBe(false);
    expect(isMultiple(7500, 5000)).toBe(false);
    expect(isMultiple(0.3, 0.1)).toBe(true);
  });
});

describe('what the page says', () => {
  it('settings from the URL, with a sentence for a bad value', () => {
    expect(budgetSettings('')).toEqual({ budget: DEFAULT_BUDGET_BYTES, workerMemory: 0, problems: [] });
    expect(budgetSettings('?budget=64KiB&worker_memory=24MiB')).toEqual({ budget: 65536, workerMemory: 24 * 2 ** 20, problems: [] });
    const bad = budgetSettings('?budget=huge&worker_memory=x');
    expect(bad.budget).toBe(DEFAULT_BUDGET_BYTES);
    expect(bad.workerMemory).toBe(0);
    expect(bad.problems).toEqual(['budget "huge" is not a size like 512MiB, 2GiB or off; the default of 1 GiB is used', 'worker_memory: budget "x" is not a size like 512MiB, 2GiB or off; no ceiling is set']);
  });

  it('the memory line, the status and the note at a quantum that is no multiple', () => {
    expect(memoryText(312 * 2 ** 20, 2 ** 30)).toBe('memory: 312 MiB of 1 GiB budget');
    expect(memoryText(1536, Infinity)).toBe('memory: 1.5 KiB (no budget)');
    const sources = [{}, { reduced: { quantum_ms: 5000 } }, { reduced: { quantum_ms: 5000 } }];
    expect(reducedStatus(sources, 20000)).toBe('memory budget of 19.5 KiB passed: 2 files reduced to 5 s quanta');
    expect(reducedStatus([{}, { reduced: { quantum_ms: 0 } }], 20000)).toMatch(/passed: 1 file past it kept whole \(at this quantum their quanta would take more memory than their windows/);
    expect(reducedStatus([{}], 20000)).toBe('');
    expect(reducedQuantumNote(sources, 5000)).toBe('');
    expect(reducedQuantumNote(sources, 15000)).toBe('');
    expect(reducedQuantumNote(sources, 1000)).toMatch(/^2 files were reduced to 5 s quanta while loading \(memory budget\): 1 s is no multiple of 5 s, so each of their quanta is shared evenly among the finer ones/);
    expect(reducedQuantumNote(sources, 7000)).toMatch(/7 s is no multiple of 5 s, so each of their quanta is split among the quanta it overlaps, in proportion/);
  });
});

/** A File held in memory (Node's disk-backed blobs cannot cross worker_threads). @param {string} p */
const memFile = (p) => ({ name: path.basename(p), file: new File([fs.readFileSync(p)], path.basename(p)) });

/** @param {string[]} args */
function cli(args) {
  return execFileSync(CLI, ['pctiles', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

describe.skipIf(!fs.existsSync(CLI))('the worker engine with a budget', () => {
  it('past the budget files are reduced; CSV equals the CLI on the logs at the quantum and a multiple', async () => {
    const e = await createEngine({ mode: 'worker', workers: 3, wasm: nodeWasmSource(), spawn: nodeWorkerEndpoint });
    try {
      const out = await e.loadFiles(S1.map(memFile), { budget: { bytes: 20000, quantum_ms: 5000 } });
      expect(out.map((s) => s.reduced?.quantum_ms ?? null)).toEqual([null, 5000, 5000, 5000]);
      expect(out.map((s) => s.reduced?.format ?? s.format)).toEqual(['fio-hist', 'fio-hist', 'fio-hist', 'fio-hist']);
      expect((await e.sources()).map((s) => s.reduced?.quantum_ms ?? null)).toEqual([null, 5000, 5000, 5000]);
      const mem = await e.memory();
      expect(mem.modelBytes).toBeGreaterThan(0);
      for (const q of [5000, 10000, 20000]) expect(await e.csv({ quantum_ms: q })).toBe(cli(['--quantum', String(q), ...S1]));
      expect(await e.csv({ quantum_ms: 5000, group_by: 'host' })).toBe(cli(['--quantum', '5000', '--group-by', 'host', ...S1]));
      // At the logs' own interval the quanta are no smaller than the windows: kept whole.
      await e.reset();
      const kept = await e.loadFiles(S1.map(memFile), { budget: { bytes: 20000, quantum_ms: 1000 } });
      expect(kept.map((s) => s.format)).toEqual(['fio-hist', 'fio-hist', 'fio-hist', 'fio-hist']);
      expect(kept.map((s) => s.reduced?.quantum_ms ?? null)).toEqual([null, 0, 0, 0]);
      expect(await e.csv({})).toBe(cli(S1));
    } finally {
      e.terminate();
    }
  });

  it('a parse worker out of memory: that file fails with a sentence, the others load', async () => {
    const e = await createEngine({ mode: 'worker', workers: 3, wasm: nodeWasmSource(), spawn: nodeWorkerEndpoint, helperMemoryBytes: 24 * 2 ** 20 });
    try {
      // 20 MB in one 20 MB slice: more than a 24 MiB worker can hold beside its 16 MiB start.
      const big = { name: 'big_clat_hist.1.log', file: new File([new Uint8Array(20e6).fill(32)], 'big') };
      const items = S1.map(memFile);
      items.splice(1, 0, big);
      const out = await e.loadFiles(items, { sliceBytes: 20e6 });
      expect(out.map((s) => s.status.ok)).toEqual([true, false, true, true, true]);
      expect(out[1].status.message).toMatch(/^big_clat_hist\.1\.log: the engine aborted while reading this file, most likely out of memory/);
      expect(await e.csv({})).toBe(cli(S1));
    } finally {
      e.terminate();
    }
  });
});
