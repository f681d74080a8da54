// Which histograms a result with several resolutions reads for what is
// shown (app/level-view.js needsHosts, app/level-follow.js, the query
// scheduler and the groups view): grouped by host, when the file's per-host
// matrix answers the groups view, the page opens from the levels summed over
// hosts and reads no block of the hosts' own histograms (the levels as
// kept); something the matrix does not answer reads them
// (docs/page-loading.md §8, "Levels summed over hosts").
import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { blobSource } from '../../src/load/levels.js';
import { LevelView, needsHosts } from '../../src/app/level-view.js';
import { LevelFollower } from '../../src/app/level-follow.js';
import { HostMatrix } from '../../src/app/host-matrix.js';
import { QueryScheduler } from '../../src/app/scheduler.js';
import { makeRegistry } from '../../src/app/view-registry.js';
import { pctilesOptions } from '../../src/app/queries.js';
import { Exporter } from '../../src/app/exports.js';
import { Store, initialState, initialSession } from '../../src/app/state.js';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');

/** @param {string[]} args */
const cli = (args) => execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/**
 * The file as the page opens it, with every byte range read recorded, and a
 * level follower over a stand-in session that records the slice it loads.
 * @param {Uint8Array} bytes @param {Partial<import('../../src/app/state.js').State>} state
 */
async function open(bytes, state) {
  const src = blobSource(new Blob([/** @type {BlobPart} */ (bytes)]), 'hosts.lsr');
  /** @type {[number, number][]} */
  const reads = [];
  const read = src.read;
  src.read = (a, b) => {
    reads.push([a, b]);
    return read(a, b);
  };
  const hm = /** @type {HostMatrix} */ (await HostMatrix.open(src));
  const lod = /** @type {LevelView} */ (await LevelView.open(src));
  const store = new Store({ ...initialState(), ...state }, initialSession());
  /** @type {{items: {name: string, file: Blob}[], extras: any}[]} */
  const loads = [];
  const session = {
    store,
    quantumChosen: false,
    page: { chartWidth: () => 1000 },
    budget: { budget: 2 ** 30 },
    hostMatrix: hm,
    say: () => {},
    load: async (/** @type {any} */ items, /** @type {any} */ _skipped, /** @type {any} */ extras) => {
      loads.push({ items, extras });
    },
  };
  const follower = new LevelFollower(/** @type {any} */ (session), /** @type {any} */ ({}));
  await follower.open(lod, [], {});
  return { src, reads, hm, lod, store, loads, follower };
}

/**
 * Whether a byte range read holds part of a block of the levels as kept
 * (their tails, indexes and headers are read to open the file; their
 * blocks are the hosts' histograms).
 * @param {LevelView} lod @param {[number, number][]} reads
 */
function keptBlocksRead(lod, reads) {
  const hit = [];
  for (const ix of lod.levels) {
    for (const bl of ix.blocks) {
      const a = ix.level.offset + bl.offset;
      const b = a + (ix.pre ?? 4) + bl.zlen;
      for (const [x, y] of reads) if (x < b && y > a) hit.push(`${ix.level.quantum_ms} ms chunk ${bl.chunk} at ${bl.first}`);
    }
  }
  return hit;
}

describe.skipIf(!fs.existsSync(CLI))('grouped by host on a result with a per-host matrix', () => {
  /** @type {Uint8Array} */
  let bytes;
  /** @type {string} */
  let file;
  beforeAll(() => {
    // 4 hosts x 1 h of 1 s windows, each host's histograms kept, levels 1 s, 10 s, 1 min and the matrix.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-level-hosts-'));
    const dir = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', tmp, '--hosts', '4', '--seconds', '3600'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    const logs = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).map((n) => path.join(dir, n));
    file = path.join(tmp, 'hosts.lsr');
    cli(['reduce', '--keep', 'host,dir', '--levels', '1000,10000,60000', ...logs, '-o', file]);
    bytes = new Uint8Array(fs.readFileSync(file));
  }, 120000);

  it('the groups view by host opens from the levels summed over hosts and the matrix: no block of the hosts\' histograms is read; the numbers are the CLI\'s', async () => {
    const { reads, hm, lod, store, loads, follower } = await open(bytes, { group_by: 'host', view: 'groups' });
    expect(loads.length).toBe(1);
    // Opened: the slice read holds no block of the hosts' own histograms.
    expect(keptBlocksRead(lod, reads)).toEqual([]);
    expect(lod.hosts()).toEqual(['h001', 'h002', 'h003', 'h004']);
    expect(needsHosts(store.state, hm)).toBe(false);
    const pick = loads[0].extras.lodPick;
    expect([lod.levels[pick.li].level.quantum_ms, pick.summed, pick.whole]).toEqual([10000, true, true]);
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    try {
      const [s] = await e.loadFiles(loads[0].items, { inPrimary: true });
      expect(s.status.ok, JSON.stringify(s.status)).toBe(true);
      lod.commit(pick);
      // The load then shows the slice's own quantum (session.js, the engine's default quantum).
      store.set({ quantum_ms: (await e.defaultQuantum()) ?? 0 });
      expect(store.state.quantum_ms).toBe(10000);
      expect(follower.hostless()).toBe(true);
      // The page's refresh of the groups view: the scheduler, the registry's feed, the matrix read by ranges.
      /** @type {any[]} */
      const drawn = [];
      /** @type {any[]} */
      const asked = [];
      let wanted = 0;
      /** The notes the page shows after each refresh (app.js showNotes). @type {(string[] | undefined)[]} */
      const noted = [];
      const engine = new Proxy(e, {
        get(t, k) {
          const v = /** @type {any} */ (t)[k];
          return typeof v === 'function' ? (/** @type {any[]} */ ...a) => (asked.push([k, a[0]]), v.apply(t, a)) : v;
        },
      });
      const groupsView = { setData: (/** @type {any[]} */ ...a) => drawn.push(a), render: () => {} };
      const scheduler = new QueryScheduler({
        store,
        engine: () => lod.bounded(engine),
        views: () => /** @type {any} */ ({ groups: groupsView, pctiles: {} }),
        registry: makeRegistry(),
        colors: /** @type {any} */ ({ see: () => {} }),
        answered: () => {},
        noted: (_pct, shown) => noted.push(shown?.notes),
        judged: async () => {},
        busy: () => {},
        failed: (text) => {
          throw new Error(text);
        },
        hostMatrix: () => ({ matrix: hm, columns: 1000, chosen: false }),
        hostless: () => follower.hostless(),
        wantHosts: () => wanted++,
      });
      await scheduler.refresh(true);
      expect(hm.why).toBe('');
      expect(wanted).toBe(0);
      expect(drawn.length).toBe(1);
      const [m, run, info] = drawn[0];
      expect(info.from).toBe('the per-host matrix (level 10000 ms)');
      // What the page says of the view is the groups' answer drawn, not the cluster's percentiles query
      // asked for the run's extent: the exported image names the hosts (it said "groups: cluster"), and
      // the notes are the matrix's (its level is in the view's caption, not said twice).
      expect(scheduler.pct.groups).toEqual(['all']);
      expect(scheduler.shown()).toEqual({ groups: m.groups, notes: [] });
      expect(noted).toEqual([[]]);
      const views = /** @type {any} */ ({ groups: groupsView });
      const exporter = new Exporter(store, { engine: () => engine, pct: () => scheduler.pct, shown: () => scheduler.shown(), views: () => views, registry: makeRegistry() });
      expect(exporter.caption()[3]).toMatch(/^groups: host=h001, host=h002, host=h003, host=h004 · /);
      expect(run).toBe(null); // the ranking over the run is not shown in name order, and not asked
      // The engine (the summed level) was asked the cluster's percentiles for the run's extent, no host's.
      expect(asked.filter(([k]) => k === 'queryColumns').map(([, o]) => o.group_by)).toEqual(['all']);
      expect(asked.some(([k]) => k === 'queryMatrix' || k === 'query')).toBe(false);
      // Not one block of the levels as kept was read: the summed level's blocks and the matrix's parts only.
      expect(keptBlocksRead(lod, reads)).toEqual([]);
      // The numbers: the CLI's pctiles --group-by host at the matrix's level, on the file.
      expect(m.groups).toEqual(['host=h001', 'host=h002', 'host=h003', 'host=h004']);
      const csv = cli(['pctiles', '--group-by', 'host', '--quantum', String(m.quantumMs), '--percentiles', '99', file]).trim().split('\n');
      const cols = csv[0].split(',');
      const rows = csv.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
      expect(rows.length).toBe(4 * m.times.length);
      const T = m.times.length;
      for (const r of rows) {
        const v = m.values[m.groups.indexOf(r.group) * T + Array.from(m.times).indexOf(Number(r.time_ms))];
        if (r.p99 === '') expect(v, `${r.group} ${r.time_ms}: empty`).toBeNaN();
        else expect(Math.abs(v - Number(r.p99)), `${r.group} ${r.time_ms}`).toBeLessThanOrEqual(5e-4 + 1e-9 * Math.abs(v));
      }

      // A percentile the matrix lacks: refused, so the groups view asks for the hosts' histograms
      // (nothing is drawn from the summed level), and the state now needs them.
      store.set({ groupsP: '42' });
      drawn.length = 0;
      await scheduler.refresh(false);
      expect(hm.why).toMatch(/not in the matrix/);
      expect(wanted).toBe(1);
      expect(drawn.length).toBe(0);
      expect(follower.needsHosts()).toBe(true);
      const kept = /** @type {any} */ (lod.pickFor(follower.want(store.state)));
      expect([kept.li, kept.summed]).toEqual([pick.li, false]);

      // Not by host (read vs write, top N): the summed level answers the groups and their ranking, nothing more is read.
      store.set({ group_by: 'dir', groupsMode: 'top', groupsP: '99' });
      expect(follower.needsHosts()).toBe(false);
      const before = reads.length;
      await scheduler.refresh(false);
      expect(wanted).toBe(1);
      expect(drawn.length).toBe(1);
      const [md, runDir] = drawn[0];
      expect(md.groups.length).toBeGreaterThan(0);
      expect(md.groups.some((/** @type {string} */ g) => g.includes('host'))).toBe(false);
      expect(runDir?.size).toBe(md.groups.length);
      // The percentiles query is not asked again while the groups view is shown: the caption names the view's groups.
      expect(scheduler.shown()?.groups).toEqual(md.groups);
      expect(exporter.caption()[3]).toMatch(new RegExp(`^groups: ${md.groups.join(', ')} · `));
      expect(reads.length).toBe(before);
    } finally {
      e.terminate();
    }
  });

  it('an offset of the file itself of whole cells opens from the levels summed over hosts, byte for byte the levels as kept and the CLI; one that splits cells reads the levels as kept', async () => {
    const { lod, loads, follower, store } = await open(bytes, { view: 'pctiles', group_by: 'all', offsets: { 'hosts.lsr': 120000 } });
    expect(lod.file()).toEqual({ name: 'hosts.lsr', sums: [10000, 60000] });
    expect(follower.needsHosts()).toBe(false);
    const pick = loads[0].extras.lodPick;
    expect([lod.levels[pick.li].level.quantum_ms, pick.summed, pick.whole]).toEqual([10000, true, true]);
    /** @param {{name: string, file: Blob}} item @param {any} s */
    const csvOf = async (item, s) => {
      const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
      try {
        const [src] = await e.loadFiles([item], { inPrimary: true });
        expect(src.status.ok, JSON.stringify(src.status)).toBe(true);
        return await e.csv(pctilesOptions(s));
      } finally {
        e.terminate();
      }
    };
    const s = { ...store.state, quantum_ms: 10000 };
    const args = ['--quantum', '10000', '--percentiles', s.percentiles.join(','), file];
    const summed = await csvOf(loads[0].items[0], s);
    // The same level as kept (what the page read for this state before), and the CLI (under an offset it reads the
    // finest level, as kept: docs/result-format.md "Several resolutions").
    const asKept = /** @type {any} */ (lod.pickFor({ ...follower.want(store.state), hosts: true }));
    expect([asKept.li, asKept.summed]).toEqual([pick.li, false]);
    expect(summed).toBe(await csvOf(await lod.read(asKept), s));
    expect(summed).toBe(cli(['pctiles', '--offset', 'hosts.lsr=120000', ...args]));
    expect(summed).not.toBe(cli(['pctiles', ...args]));
    // 2.5 s splits each 10 s cell over two quanta: the sums would differ from the hosts' parts in the last digits
    // (35 of 361 rows here), and the 10 s level as kept from the CLI, which reads the finest level under any
    // offset: the page reads the finest level too (levels.js chooseLevel), and its CSV is the CLI's.
    store.set({ offsets: { 'hosts.lsr': 2500 } });
    expect(follower.needsHosts()).toBe(true);
    const split = /** @type {any} */ (lod.pickFor(follower.want(store.state)));
    expect([split.li, split.summed]).toEqual([0, false]);
    const s2 = { ...store.state, quantum_ms: 10000 };
    expect(await csvOf(await lod.read(split), s2)).toBe(cli(['pctiles', '--offset', 'hosts.lsr=2500', ...args]));
    // A host's offset too.
    expect(follower.needsHosts({ ...store.state, offsets: { 'hosts.lsr': 120000, h002: 500 } })).toBe(true);
  });

  it('what the matrix does not show reads the hosts\' histograms: another view by host, the ranking, SLA rules by host, a host left out or offset, the density view', async () => {
    const hm = { why: '' };
    const base = { ...initialState(), group_by: 'host', view: /** @type {any} */ ('groups') };
    expect(needsHosts(base, hm)).toBe(false);
    expect(needsHosts({ ...base, group_by: 'all' }, hm)).toBe(false); // the groups view groups by host then
    expect(needsHosts(base, null)).toBe(true); // no matrix
    expect(needsHosts(base, { why: 'percentile 42 is not in the matrix' })).toBe(true);
    for (const view of ['pctiles', 'heatmap', 'surface', 'spectrum', 'density']) expect(needsHosts({ ...base, view }, hm), view).toBe(true);
    expect(needsHosts({ ...base, groupsSort: 'worst' }, hm)).toBe(true);
    expect(needsHosts({ ...base, groupsMode: 'top' }, hm)).toBe(true);
    expect(needsHosts({ ...base, groupsMode: 'multiples' }, hm)).toBe(true);
    expect(needsHosts({ ...base, sla: ['p99<10ms'] }, hm)).toBe(true);
    expect(needsHosts({ ...base, group_by: 'all', sla: ['p99<10ms'] }, hm)).toBe(false); // the SLA summary judges the cluster
    expect(needsHosts({ ...base, exclude_hosts: ['h002'] }, hm)).toBe(true);
    expect(needsHosts({ ...base, offsets: { h002: 500 } }, hm)).toBe(true);
    // An offset of the file itself, of whole cells of every summed level, needs no host (by its path or last part, as core matches it).
    const cluster = { ...base, view: /** @type {any} */ ('pctiles'), group_by: 'all' };
    const f = { name: 'https://x.test/day/hosts.lsr', sums: [10000, 60000] };
    expect(needsHosts({ ...cluster, offsets: { 'hosts.lsr': -60000 } }, null, f)).toBe(false);
    expect(needsHosts({ ...cluster, offsets: { [f.name]: 120000 } }, null, f)).toBe(false);
    expect(needsHosts({ ...cluster, offsets: { 'hosts.lsr': 10000 } }, null, f)).toBe(true); // splits the 1 min cells
    expect(needsHosts({ ...cluster, offsets: { 'other.lsr': 60000 } }, null, f)).toBe(true);
    expect(needsHosts({ ...cluster, offsets: { 'hosts.lsr': 60000, h002: 500 } }, null, f)).toBe(true);
    expect(needsHosts({ ...cluster, offsets: { 'job:h002/1': 60000 } }, null, f)).toBe(true);
    expect(needsHosts({ ...cluster, offsets: { 'hosts.lsr': 60000 } }, null)).toBe(true); // no file named
    // Not grouped by host: the levels summed over hosts, as before.
    expect(needsHosts({ ...base, view: 'pctiles', group_by: 'all' }, null)).toBe(false);
    expect(needsHosts({ ...base, view: 'groups', group_by: 'dir' }, null)).toBe(false);
    expect(needsHosts({ ...base, view: 'heatmap', group_by: 'dir' }, null)).toBe(false);
    // Opened in the heat map by host, the file reads the hosts' histograms at once.
    const { lod, loads } = await open(bytes, { group_by: 'host', view: 'heatmap' });
    expect(loads[0].extras.lodPick.summed).toBe(false);
    expect(lod.levels[loads[0].extras.lodPick.li].level.quantum_ms).toBe(10000);
  });
});
