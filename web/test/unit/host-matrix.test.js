// A result's per-host matrix on the page (app/host-matrix.js over the
// engine's matrixQuery, core matrix_answer.h) and the drill into a host
// (app/host-drill.js): the matrix answers the groups question with the CLI's
// numbers over a range at 1 s, reading only some of the file; it refuses
// what it does not hold; a drill excludes every other host and goes back.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { blobSource } from '../../src/load/levels.js';
import { HostMatrix } from '../../src/app/host-matrix.js';
import { hostOfKey, drillState, drilledHost, undrillState, hostsOfSources } from '../../src/app/host-drill.js';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');

/** @param {string[]} args */
const cli = (args) => execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

describe.skipIf(!fs.existsSync(CLI))('groups by host from the per-host matrix', () => {
  it('answers p99 per host over a range at 1 s as pctiles --group-by host, reading part of the file; refuses what it does not hold', async () => {
    // 3 hosts x 30 min of 1 s windows: three time blocks of 600 quanta at 1 s.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-hostmx-'));
    const dir = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', tmp, '--hosts', '3', '--seconds', '1800'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    const logs = fs.readdirSync(dir).map((n) => path.join(dir, n));
    const file = path.join(tmp, 'hosts.lsr');
    cli(['reduce', '--keep', 'host,dir', ...logs, '-o', file]);
    const bytes = fs.readFileSync(file);
    const src = blobSource(new Blob([bytes]), 'hosts.lsr');
    const hm = /** @type {HostMatrix} */ (await HostMatrix.open(src));
    expect(hm).not.toBeNull();
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    const range = [600000, 660000];
    const m = /** @type {any} */ (await hm.answer(e, { quantum_ms: 1000, group_by: 'host', percentiles: ['99'], from_ms: range[0], to_ms: range[1] }, 1000, true));
    expect(hm.why).toBe('');
    expect(m.groups).toEqual(['host=h001', 'host=h002', 'host=h003']);
    expect(m.times.length).toBe(60);
    expect(m.notes.join(' ')).toMatch(/answered from the per-host matrix \(level 1 s|answered from the per-host matrix \(level 1000 ms/);
    // The CLI on the logs over the same range.
    const csv = cli(['pctiles', '--group-by', 'host', '--percentiles', '99', '--from', String(range[0]), '--to', String(range[1]), ...logs]).trim().split('\n');
    const cols = csv[0].split(',');
    const rows = csv.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
    expect(rows.length).toBe(3 * 60);
    for (const r of rows) {
      const gi = m.groups.indexOf(r.group);
      const k = Array.from(m.times).indexOf(Number(r.time_ms));
      expect(Math.abs(m.values[gi * m.times.length + k] - Number(r.p99))).toBeLessThanOrEqual(5e-4);
    }
    // Only the head, index and the range's blocks were read.
    expect(src.fetched).toBeLessThan(bytes.length / 4);
    // Not held: a percentile the matrix lacks, hosts left out, another grouping.
    expect(await hm.answer(e, { quantum_ms: 1000, group_by: 'host', percentiles: ['42'] }, 1000, true)).toBeNull();
    expect(hm.why).toMatch(/not in the matrix/);
    expect(await hm.answer(e, { quantum_ms: 1000, group_by: 'host', percentiles: ['99'], exclude_hosts: ['h002'] }, 1000, true)).toBeNull();
    expect(hm.why).toMatch(/selection/);
    expect(await hm.answer(e, { quantum_ms: 2000, group_by: 'host', percentiles: ['99'] }, 1000, true)).toBeNull();
    expect(hm.why).toMatch(/no level/);
    // SLA rules: core's verdicts and marks on the matrix's rows equal those on the histograms' (the whole file loaded).
    const sla = { quantum_ms: 1000, group_by: 'host', percentiles: ['99'], sla: 'p99 < 600us' };
    const fromMatrix = /** @type {any} */ (await hm.answer(e, sla, 1000, true));
    await e.loadFiles([{ name: 'hosts.lsr', file: new Blob([bytes]) }]);
    const fromHist = /** @type {any} */ (await e.queryMatrix(sla));
    expect(fromMatrix.sla.length).toBe(1);
    expect(fromMatrix.sla).toEqual(fromHist.sla);
    expect(Array.from(fromMatrix.sla_marks)).toEqual(Array.from(fromHist.sla_marks));
    expect(Array.from(fromMatrix.values)).toEqual(Array.from(fromHist.values));
    expect(Array.from(fromMatrix.sla_marks).some((x) => x === 1)).toBe(true);
    await e.terminate?.();

    // A damaged block: named, and the histograms answer (null here), as the CLI does.
    const bad = new Uint8Array(bytes);
    const e2 = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    const hm2 = /** @type {HostMatrix} */ (await HostMatrix.open(blobSource(new Blob([bad]), 'bad.lsr')));
    // Learn where the 1 s blocks of the first minute lie, then spoil them.
    /** @type {[number, number][]} */
    const pages = [];
    const reading = hm2.read.bind(hm2);
    hm2.read = async (need) => {
      pages.push(...need);
      return reading(need);
    };
    expect(await hm2.answer(e2, { quantum_ms: 1000, group_by: 'host', percentiles: ['99'], from_ms: 0, to_ms: 60000 }, 1000, true)).not.toBeNull();
    const [at, n] = pages[pages.length - 1];
    for (let i = at + 10; i < at + n; i += 7) bad[i] ^= 0x5a;
    const hm3 = /** @type {HostMatrix} */ (await HostMatrix.open(blobSource(new Blob([bad]), 'bad.lsr')));
    expect(await hm3.answer(e2, { quantum_ms: 1000, group_by: 'host', percentiles: ['99'], from_ms: 0, to_ms: 60000 }, 1000, true)).toBeNull();
    expect(hm3.why).toMatch(/block \d+/);
    await e2.terminate?.();
  }, 60000);

  it('is null for a result without a matrix', async () => {
    const f = path.join(ROOT, 'tests/fixtures/result');
    const v3 = fs.readdirSync(f).find((n) => n.endsWith('.lsr') && !n.startsWith('v4'));
    if (!v3) return;
    const b = fs.readFileSync(path.join(f, v3));
    expect(await HostMatrix.open(blobSource(new Blob([b]), v3))).toBeNull();
  });
});

describe('drilling into a host', () => {
  it('excludes every other host, names the host shown, goes back', () => {
    expect(hostOfKey('host=node07')).toBe('node07');
    expect(hostOfKey('host=a;job=1')).toBeNull();
    const hosts = ['a', 'b', 'c'];
    const s = drillState('b', hosts);
    expect(s).toEqual({ exclude_hosts: ['a', 'c'], group_by: 'all', view: 'pctiles' });
    expect(drilledHost(s, hosts)).toBe('b');
    expect(drilledHost({ exclude_hosts: ['a'] }, hosts)).toBeNull();
    expect(drilledHost({ exclude_hosts: [] }, hosts)).toBeNull();
    expect(undrillState()).toEqual({ exclude_hosts: [], group_by: 'host', view: 'groups' });
    expect(hostsOfSources([{ series: [{ labels: { host: 'b' } }, { labels: { host: 'a' } }] }, { host: 'c', series: [{ labels: {} }] }])).toEqual(['b', 'a', 'c']);
  });
});
