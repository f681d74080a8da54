// A result with several resolutions read by byte ranges (load/levels.js,
// app/level-view.js): the directory and indexes the CLI wrote, each level
// taken whole equals its bytes in the file, a slice of a level is a result
// the engine reads to the same numbers as the CLI on the file over that
// range, the level choice, range requests, and broken directories.
import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { blobSource, urlSource, readLevels, readLevelIndex, sliceLevel, blocksIn, chooseLevel, chunksFor, bytesOf } from '../../src/load/levels.js';
import { LevelView } from '../../src/app/level-view.js';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const QUANTA = [1000, 10000, 60000];

/** @param {string[]} args */
const cli = (args) => execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** @param {Uint8Array} b */
const blob = (b) => new Blob([/** @type {BlobPart} */ (b)]);

describe.skipIf(!fs.existsSync(CLI))('results with several resolutions, by ranges', () => {
  /** @type {string} */
  let day;
  /** @type {Uint8Array} */
  let bytes;
  beforeAll(() => {
    // 2 hosts x 1 h of 1 s windows (quanta 0 ... 3600): 7 time blocks of 600
    // quanta at 1 s, each cut by host (version 5): 14 blocks.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-levels-'));
    const dir = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', tmp, '--hosts', '2', '--seconds', '3600'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    const logs = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).map((n) => path.join(dir, n));
    day = path.join(tmp, 'day.lsr');
    // Histograms only (version 3 and 2); the per-host matrix's version 4 at the end.
    cli(['reduce', '--quantum', '1000', '--levels', QUANTA.join(','), '--keep', 'host,dir', '--matrix', 'none', ...logs, '-o', day]);
    for (const q of QUANTA) cli(['reduce', '--quantum', String(q), '--keep', 'host,dir', '--matrix', 'none', ...logs, '-o', path.join(tmp, `q${q}.lsr`)]);
    cli(['reduce', '--quantum', '1000', '--levels', QUANTA.join(','), '--keep', 'host,dir', ...logs, '-o', path.join(tmp, 'day4.lsr')]);
    bytes = new Uint8Array(fs.readFileSync(day));
  }, 120000);

  it('reads the directory and each level; a level taken whole is its bytes in the file, and reduce at its quantum', async () => {
    const src = blobSource(blob(bytes), 'day.lsr');
    const all = await readLevels(src);
    const levels = all?.filter((l) => !l.summed);
    expect(levels?.map((l) => l.quantum_ms)).toEqual(QUANTA);
    // Two hosts: the coarser levels summed over hosts follow (docs/result-format.md, "Levels summed over hosts").
    expect(all?.filter((l) => l.summed).map((l) => l.quantum_ms)).toEqual(QUANTA.slice(1));
    const indexes = [];
    for (const lv of levels ?? []) indexes.push(await readLevelIndex(src, lv));
    // Directory + three indexes + heads: a few KB of a file many times larger.
    expect(src.fetched).toBeLessThan(bytes.length / 20);
    for (const ix of indexes) {
      const lv = ix.level;
      const whole = await sliceLevel(src, ix, 0, ix.blocks.length - 1);
      expect(Buffer.from(whole).equals(Buffer.from(bytes.subarray(lv.offset, lv.offset + lv.length)))).toBe(true);
      const alone = fs.readFileSync(path.join(path.dirname(day), `q${lv.quantum_ms}.lsr`));
      expect(Buffer.from(whole).equals(alone)).toBe(true);
    }
  });

  it('a slice of the 1 s level: the engine reads it to the CLI numbers on the whole file over that range', async () => {
    const src = blobSource(blob(bytes), 'day.lsr');
    const levels = await readLevels(src);
    const ix = await readLevelIndex(src, /** @type {any} */ (levels)[0]);
    expect(ix.blocks.length).toBe(14);
    expect(ix.pre).toBe(8);
    expect(ix.blocks.map((b) => b.chunk)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    const r = blocksIn(ix, 1250e3, 1700e3);
    expect(r).toEqual({ a: 4, b: 5 });  // time block 2, both hosts
    const slice = await sliceLevel(src, ix, 2, 7);  // time blocks 1 to 3
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    try {
      const [s] = await e.loadFiles([{ name: 'day.lsr', file: new File([/** @type {BlobPart} */ (slice)], 'day.lsr') }]);
      expect(s.status.ok).toBe(true);
      for (const [q, g] of [[1000, 'host'], [10000, 'all'], [60000, 'dir']]) {
        const want = cli(['pctiles', '--quantum', String(q), '--group-by', String(g), '--from', '600000', '--to', '2400000', day]);
        expect(await e.csv({ quantum_ms: q, group_by: g, from_ms: 600000, to_ms: 2400000 })).toBe(want);
      }
    } finally {
      e.terminate();
    }
  });

  it('chooses the level: the day coarse, a zoom fine, a chosen quantum exact, the budget bounds it', async () => {
    const lod = /** @type {LevelView} */ (await LevelView.open(blobSource(blob(bytes), 'day.lsr')));
    expect(lod.extent).toEqual([0, 3660000]);
    const L = lod.levels;
    // The hour on 1000 px: 3,600 quanta of 1 s are more than 2 per pixel; 10 s fits.
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9 })).toMatchObject({ li: 1, whole: true });
    // Ten minutes: 1 s; the whole 1 s level (7,200 cells) within the budget.
    expect(chooseLevel(L, { from: 600e3, to: 1200e3, maxQuanta: 2000, maxCells: 1e9 })).toMatchObject({ li: 0, whole: true });
    // A smaller budget: the blocks around the zoom only.
    expect(chooseLevel(L, { from: 1300e3, to: 1500e3, maxQuanta: 2000, maxCells: 3000 })).toMatchObject({ li: 0, a: 4, b: 5, whole: false });
    // Chosen 20 s: the coarsest level dividing it is 10 s; 90 s: 1 s... and 30 s: 10 s.
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, quantum_ms: 20000 })).toMatchObject({ li: 1 });
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, quantum_ms: 120000 })).toMatchObject({ li: 2 });
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, quantum_ms: 1500 })).toMatchObject({ li: 0 });
    // Offsets: a level serves when each is a whole number of its quanta (its cells move whole), else the
    // finest, as the CLI reads under any offset (docs/result-format.md "Several resolutions").
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, quantum_ms: 120000, offsets: [-120000] })).toMatchObject({ li: 2 });
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, quantum_ms: 120000, offsets: [20000, 0] })).toMatchObject({ li: 1 });
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, quantum_ms: 120000, offsets: [2500] })).toMatchObject({ li: 0, why: 'the chosen quantum (coarser levels: the offsets split their cells)' });
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1e9, offsets: [2500] })).toMatchObject({ li: 0 });
    // A budget too small for 1 s anywhere near: the next level, and why.
    expect(chooseLevel(L, { from: 0, to: 3600e3, maxQuanta: 2000, maxCells: 1000, quantum_ms: 1000 })).toMatchObject({ li: 1, why: '1000 ms would pass the memory budget here' });
    // An index whose block lengths lie: the level is not chosen (never fetched), a coarser one is.
    const lying = L.map((ix, i) => (i === 0 ? { ...ix, blocks: ix.blocks.map((bl, k) => ({ ...bl, offset: bl.offset + k * 4e9, zlen: bl.zlen + 4e9 })) } : ix));
    expect(chooseLevel(lying, { from: 600e3, to: 1200e3, maxQuanta: 2000, maxCells: 1e9, maxBytes: 2 ** 30 })).toMatchObject({ li: 1 });
    // The page's item: a slice, then nothing more while the zoom stays inside it.
    const pick = lod.pickFor({ range: [1300e3, 1500e3], quantum_ms: null, widthPx: 1000, budgetBytes: 3000 * 512 });
    expect(pick).toMatchObject({ li: 0, a: 4, b: 5 });
    expect((await lod.read(/** @type {any} */ (pick))).name).toBe('day.lsr');
    expect(lod.describe(/** @type {any} */ (pick))).toBe('1 s for 10 min around the zoom');
    // Nothing is current until the app says the slice is in the engine.
    expect(lod.current).toBeNull();
    expect(lod.serves([1320e3, 1480e3], null)).toBe(false);
    lod.commit(/** @type {any} */ (pick));
    expect(lod.pickFor({ range: [1320e3, 1480e3], quantum_ms: null, widthPx: 1000, budgetBytes: 3000 * 512 })).toBeNull();
    // What the engine holds answers a zoom inside it, and a chosen multiple
    // of its quantum; not a range past its blocks nor a finer quantum.
    expect(lod.serves([1320e3, 1480e3], null)).toBe(true);
    expect(lod.serves([1320e3, 1480e3], 10000)).toBe(true);
    expect(lod.serves([1320e3, 1480e3], 1500)).toBe(false);
    expect(lod.serves([0, 3600e3], null)).toBe(false);
    expect(lod.note()).toMatch(/^day\.lsr: 3 resolutions \(1 s, 10 s, 1 min\); showing 1 s for 10 min around the zoom/);
  });

  it('over HTTP range requests: the same slices; a server without ranges is read whole', async () => {
    /** @param {boolean} ranges @returns {typeof fetch} */
    const server = (ranges) => /** @type {any} */ (async (/** @type {string} */ _url, /** @type {any} */ init = {}) => {
      if (init.method === 'HEAD') return new Response(null, { status: 200, headers: { 'content-length': String(bytes.length) } });
      const m = /^bytes=(\d+)-(\d+)$/.exec(init.headers?.Range ?? '');
      if (!ranges || !m) return new Response(blob(bytes), { status: 200 });
      return new Response(blob(bytes.subarray(Number(m[1]), Number(m[2]) + 1)), { status: 206 });
    });
    const src = await urlSource('http://127.0.0.1/day.lsr', 'day.lsr', { fetchFn: server(true) });
    expect(src).not.toBeNull();
    const a = /** @type {any} */ (src);
    const lv = /** @type {any} */ (await readLevels(a))[0];
    const ix = await readLevelIndex(a, lv);
    const viaHttp = await sliceLevel(a, ix, 2, 7);
    const local = blobSource(blob(bytes), 'day.lsr');
    const viaBlob = await sliceLevel(local, await readLevelIndex(local, lv), 2, 7);
    expect(Buffer.from(viaHttp).equals(Buffer.from(viaBlob))).toBe(true);
    expect(await urlSource('http://127.0.0.1/day.lsr', 'day.lsr', { fetchFn: server(false) })).toBeNull();
  });

  it('a version 4 file (histograms and the per-host matrix): the same levels, 12 bytes on; a broken parts directory is named', async () => {
    const four = new Uint8Array(fs.readFileSync(path.join(path.dirname(day), 'day4.lsr')));
    expect(four[8]).toBe(4);
    const src = blobSource(blob(four), 'day4.lsr');
    const levels = await readLevels(src);
    const plain = await readLevels(blobSource(blob(bytes), 'day.lsr'));
    // The levels as kept, then the two sums: each at its place in the file, 12 bytes on.
    expect(levels?.map((l) => l.quantum_ms)).toEqual([...QUANTA, ...QUANTA.slice(1)]);
    expect(levels?.map((l) => !!l.summed)).toEqual([false, false, false, true, true]);
    for (const [i, lv] of (levels ?? []).entries()) {
      const ix = await readLevelIndex(src, lv);
      const whole = await sliceLevel(src, ix, 0, ix.blocks.length - 1);
      const p = /** @type {any} */ (plain)[i];
      expect(lv.offset).toBe(p.offset + 12);
      expect(Buffer.from(whole).equals(Buffer.from(bytes.subarray(p.offset, p.offset + p.length)))).toBe(true);
    }
    const broken = four.slice();
    broken[broken.length - 56] ^= 0xff;
    await expect(readLevels(blobSource(blob(broken), 'b.lsr'))).rejects.toThrow(/^b\.lsr: parts: truncated or no LSPARTS directory at the end$/);
    const moved = four.slice();
    new DataView(moved.buffer).setBigUint64(moved.length - 56 + 16, BigInt(moved.length), true);
    await expect(readLevels(blobSource(blob(moved), 'm.lsr'))).rejects.toThrow(/^m\.lsr: parts: the histograms \(byte 12, \d+ bytes\) lie outside the file/);
  });

  it('a slice takes whole time blocks: a host whose cells there end before the range is kept (version 5)', () => {
    const bl = (/** @type {number} */ first, /** @type {number} */ last, /** @type {number} */ chunk) => ({ first, last, offset: 0, zlen: 0, cells: 1, chunk });
    const ix = /** @type {any} */ ({ level: { quantum_ms: 1000, offset: 0, length: 0 }, head: new Uint8Array(0), pre: 8, blocks: [bl(0, 100, 0), bl(0, 500, 1), bl(600, 700, 0), bl(600, 1100, 1)] });
    // Host 0's cells of time block 0 end at 100 s: without it the slice, which
    // claims [0, 1200 s), would show host 0 as idle over 0 to 100 s.
    expect(blocksIn(ix, 200e3, 300e3)).toEqual({ a: 0, b: 1 });
    expect(blocksIn(ix, 800e3, 900e3)).toEqual({ a: 2, b: 3 });
  });

  it('a file that is no multi-level result is loaded as it is; a broken directory is named', async () => {
    const one = fs.readFileSync(path.join(path.dirname(day), 'q1000.lsr'));
    expect(await readLevels(blobSource(blob(new Uint8Array(one)), 'q.lsr'))).toBeNull();
    // The directory offset pointed past the file.
    const bad = bytes.slice();
    new DataView(bad.buffer).setBigUint64(bad.length - 16, BigInt(bad.length), true);
    await expect(readLevels(blobSource(blob(bad), 'bad.lsr'))).rejects.toThrow(/^bad\.lsr: levels directory: offset \d+ is outside the file/);
    // A level's length reaching into the directory.
    const over = bytes.slice();
    const dv = new DataView(over.buffer);
    const dirAt = Number(dv.getBigUint64(over.length - 16, true));
    dv.setBigUint64(dirAt + 12 + 16, BigInt(over.length), true);
    await expect(readLevels(blobSource(blob(over), 'over.lsr'))).rejects.toThrow(/^over\.lsr: levels directory: level 0 \(1000 ms\) lies outside the file/);
    // A level whose trailer claims a 3 GB index: refused before it is fetched.
    const src = blobSource(blob(bytes), 'day.lsr');
    const lv = /** @type {any} */ (await readLevels(src))[0];
    const huge = { ...lv, length: lv.length + 3e9 };
    /** @type {number[]} */
    const asked = [];
    const lying = { ...src, size: src.size + 3e9, read: async (/** @type {number} */ a, /** @type {number} */ b) => (asked.push(b - a), a >= lv.offset + huge.length - 16 ? fakeTail(lv.offset + 16) : src.read(a, b)) };
    const fakeTail = (/** @type {number} */ ixAt) => {
      const t = new Uint8Array(16);
      new DataView(t.buffer).setBigUint64(0, BigInt(ixAt - lv.offset), true);
      t.set(new TextEncoder().encode('LSRESEND'), 8);
      return t;
    };
    await expect(readLevelIndex(lying, huge)).rejects.toThrow(/^day\.lsr: level 1000 ms: an index of \d+ bytes is more than 2097152 blocks; not read/);
    expect(asked).toEqual([16]); // the trailer only
  });
  it('opens from a level summed over hosts: its bytes alone are read, and the engine answers as the CLI on the file', async () => {
    const src = blobSource(blob(bytes), 'day.lsr');
    const lod = /** @type {LevelView} */ (await LevelView.open(src));
    expect(lod.sums.map((x) => x?.level.quantum_ms ?? null)).toEqual([null, 10000, 60000]);
    expect(lod.hosts().length).toBe(2);
    const want = { range: null, quantum_ms: null, widthPx: 1000, budgetBytes: 2 ** 30 };
    // The whole hour at 10 s (360 quanta for 1000 pixel columns), summed when no host is needed.
    const pick = /** @type {any} */ (lod.pickFor({ ...want, hosts: false }));
    const kept = /** @type {any} */ (lod.pickFor({ ...want, hosts: true }));
    expect([pick.li, pick.summed, pick.whole]).toEqual([1, true, true]);
    expect([kept.li, kept.summed, kept.whole]).toEqual([1, false, true]);
    const sum = /** @type {import('../../src/load/levels.js').LevelIndex} */ (lod.sums[1]);
    let before = src.fetched;
    const item = await lod.read(pick);
    const readSum = src.fetched - before;
    before = src.fetched;
    await lod.read(kept);
    const readKept = src.fetched - before;
    // Fetched: the summed level's blocks, one label set for the two hosts' two (70% of their bytes here).
    expect(readSum).toBe(bytesOf(sum, 0, sum.blocks.length - 1));
    expect(readSum).toBeLessThan(0.8 * readKept);
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    try {
      const [s] = await e.loadFiles([{ name: 'day.lsr', file: new File([await item.file.arrayBuffer()], 'day.lsr') }]);
      expect(s.status.ok, JSON.stringify(s.status)).toBe(true);
      // The CLI reads the levels as kept (every host) and prints the same.
      for (const q of [10000, 60000]) expect(await e.csv({ quantum_ms: q })).toBe(cli(['pctiles', '--quantum', String(q), day]));
    } finally {
      e.terminate();
    }
    // Loaded, it serves the cluster, not a state that needs hosts.
    lod.commit(pick);
    expect(lod.serves(null, null, [], false)).toBe(true);
    expect(lod.serves(null, null, [], true)).toBe(false);
    expect(lod.pickFor({ ...want, hosts: false })).toBe(null);
    const back = /** @type {any} */ (lod.pickFor({ ...want, hosts: true }));
    expect([back.li, back.summed]).toEqual([1, false]);
    // The levels as kept serve the cluster too: nothing more is read.
    lod.commit(back);
    expect(lod.pickFor({ ...want, hosts: false })).toBe(null);
  });
});

describe.skipIf(!fs.existsSync(CLI))('a drill into one host of a level cut by host reads only its blocks', () => {
  /** @type {string} */
  let day;
  /** @type {Uint8Array} */
  let bytes;
  beforeAll(() => {
    // 8 hosts x 20 min of 1 s windows: the 1 s level holds 2 time blocks of
    // 600 quanta (plus the last second's), each cut into 8 host blocks (version 5).
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-drill-'));
    const dir = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', tmp, '--hosts', '8', '--seconds', '1200'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    const logs = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).map((n) => path.join(dir, n));
    day = path.join(tmp, 'day.lsr');
    cli(['reduce', '--quantum', '1000', '--levels', QUANTA.join(','), '--keep', 'host,dir', '--matrix', 'none', ...logs, '-o', day]);
    bytes = new Uint8Array(fs.readFileSync(day));
  }, 120000);

  it('the header names each chunk\'s host; the slice for one host takes its blocks alone, and the engine answers as pctiles --exclude-host', async () => {
    const src = blobSource(blob(bytes), 'day.lsr');
    const lod = /** @type {LevelView} */ (await LevelView.open(src));
    const ix = lod.levels[0];
    const hosts = /** @type {string[]} */ (ix.chunkHost);
    expect(hosts.length).toBe(8);
    expect(new Set(hosts).size).toBe(8);
    const host = hosts[5];
    const others = hosts.filter((h) => h !== host);
    expect([...(chunksFor(ix, others) ?? [])]).toEqual([5]);
    expect(chunksFor(ix, [])).toBe(null);
    // The drill's 10 min at the finest level (what host-drill.js's state asks).
    const want = { range: /** @type {[number, number]} */ ([300e3, 900e3]), quantum_ms: null, widthPx: 1000, budgetBytes: 2 ** 30 };
    const pick = /** @type {any} */ (lod.pickFor({ ...want, excludeHosts: others }));
    expect(pick.li).toBe(0);
    expect([...pick.chunks]).toEqual([5]);
    const all = /** @type {any} */ (chooseLevel(lod.levels, { from: 300e3, to: 900e3, maxQuanta: 2000, maxCells: 2 ** 21, maxBytes: 2 ** 30 }));
    expect([all.li, all.a, all.b, all.chunks]).toEqual([pick.li, pick.a, pick.b, null]);
    const before = src.fetched;
    const item = await lod.read(pick);
    // Fetched: that host's blocks of the range, not the 8 hosts'.
    const own = bytesOf(ix, pick.a, pick.b, pick.chunks);
    expect(src.fetched - before).toBe(own);
    expect(own * 4).toBeLessThan(bytesOf(ix, pick.a, pick.b));
    const slice = new Uint8Array(await item.file.arrayBuffer());
    const six = await readLevelIndex(blobSource(blob(slice), 's.lsr'), { quantum_ms: 1000, offset: 0, length: slice.length });
    expect(six.blocks.length).toBeGreaterThan(0);
    expect(six.blocks.every((b) => b.chunk === 5)).toBe(true);
    expect(six.blocks.length).toBe(ix.blocks.slice(pick.a, pick.b + 1).filter((b) => b.chunk === 5).length);
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    try {
      const [s] = await e.loadFiles([{ name: 'day.lsr', file: new File([/** @type {BlobPart} */ (slice)], 'day.lsr') }]);
      expect(s.status.ok, JSON.stringify(s.status)).toBe(true);
      const ex = others.flatMap((h) => ['--exclude-host', h]);
      const cliCsv = cli(['pctiles', '--quantum', '1000', ...ex, '--from', '300000', '--to', '900000', day]);
      expect(await e.csv({ quantum_ms: 1000, exclude_hosts: others, from_ms: 300e3, to_ms: 900e3 })).toBe(cliCsv);
    } finally {
      e.terminate();
    }
    // Loaded, it serves the drill, not the cluster: going back reads every host.
    lod.commit(pick);
    expect(lod.serves(want.range, null, others)).toBe(true);
    expect(lod.serves(want.range, null, [])).toBe(false);
    expect(lod.pickFor({ ...want, excludeHosts: others })).toBe(null);
    const back = /** @type {any} */ (lod.pickFor({ ...want, excludeHosts: [] }));
    expect(back.chunks).toBe(null);
    lod.commit(back);
    // Every host loaded serves a drill too: nothing more is read.
    expect(lod.pickFor({ ...want, excludeHosts: others })).toBe(null);
  });

  it('a damaged chunk table is named', async () => {
    const src = blobSource(blob(bytes), 'day.lsr');
    const [lv] = /** @type {any[]} */ (await readLevels(src));
    const ix = await readLevelIndex(src, lv);
    const bad = ix.head.slice();
    new DataView(bad.buffer).setUint32(12, 2 ** 30, true);
    const { hostChunks } = await import('../../src/load/levels.js');
    expect(() => hostChunks(bad, (w) => new Error(w))).toThrow(/^a header of 1073741824 bytes runs past its blocks$/);
  });
});
