// The percentiles chart by host from a result's per-host matrix
// (app/host-matrix.js rows, core matrix_answer.h with QueryOptions::columns;
// docs/page-views.md, "Worst quantum per column"): each pixel column's row
// equals the worst of `latscope pctiles --group-by host --quantum 1000` on
// the same file over the column's quanta, and names a quantum that holds it.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { blobSource } from '../../src/load/levels.js';
import { HostMatrix } from '../../src/app/host-matrix.js';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');

/** @param {string[]} args */
const cli = (args) => execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

describe.skipIf(!fs.existsSync(CLI))('percentiles by host in pixel columns from the per-host matrix', () => {
  it('gives each column the worst of the CLI\'s quanta in it, per host and value, naming that quantum', async () => {
    // 3 hosts x 30 min of 1 s windows, 1 s level: 90 columns of 20 quanta.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-hostcols-'));
    const dir = execFileSync('python3', [path.join(ROOT, 'tests/bench/make_hosts_data.py'), '--out', tmp, '--hosts', '3', '--seconds', '1800'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    const logs = fs.readdirSync(dir).map((n) => path.join(dir, n));
    const file = path.join(tmp, 'hosts.lsr');
    cli(['reduce', '--keep', 'host,dir', ...logs, '-o', file]);
    const bytes = fs.readFileSync(file);
    const src = blobSource(new Blob([bytes]), 'hosts.lsr');
    const hm = /** @type {HostMatrix} */ (await HostMatrix.open(src));
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    const [from, to, columns] = [0, 1800000, 90];
    const pct = ['50', '99', '99.9'];
    const r = /** @type {any} */ (await hm.rows(e, { quantum_ms: 1000, group_by: 'host', percentiles: pct, from_ms: from, to_ms: to, columns, bands: false }));
    expect(hm.why).toBe('');
    expect(r.notes.join(' ')).toMatch(/answered from the per-host matrix/);
    expect(r.groups).toEqual(['host=h001', 'host=h002', 'host=h003']);
    expect(r.n).toBe(columns * 3);
    const P = pct.length;
    expect(r.value_t_ms.length).toBe(r.n * (P + 3));

    const csv = cli(['pctiles', '--group-by', 'host', '--quantum', '1000', '--percentiles', pct.join(','), '--from', String(from), '--to', String(to), file]).trim().split('\n');
    const head = csv[0].split(',');
    const rows = csv.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], v])));
    expect(rows.length).toBe(1800 * 3);
    const at = new Map(rows.map((x) => [`${x.group}@${x.time_ms}`, x]));
    const w = (to - from) / columns;
    const names = [...pct.map((p) => `p${p}`), 'max', 'min', 'mean'];
    let checked = 0;
    for (let i = 0; i < r.n; i++) {
      const g = r.groups[r.group[i]];
      const c = Math.floor((r.t_ms[i] - from) / w);
      const inColumn = rows.filter((x) => x.group === g && Math.floor((Number(x.time_ms) - from) / w) === c && Number(x.samples) > 0);
      expect(inColumn.length).toBe(20);
      names.forEach((name, k) => {
        const got = k < P ? r.p[i * P + k] : [r.max, r.min, r.mean][k - P][i];
        const vals = inColumn.map((x) => Number(x[name]));
        const want = name === 'min' ? Math.min(...vals) : Math.max(...vals);
        expect(Math.abs(got - want)).toBeLessThanOrEqual(5e-4 * Math.max(1, want));
        // The quantum named holds that value in the CLI's rows.
        const named = at.get(`${g}@${r.value_t_ms[i * (P + 3) + k]}`);
        expect(Math.abs(Number(named?.[name]) - got)).toBeLessThanOrEqual(5e-4 * Math.max(1, want));
        checked++;
      });
    }
    expect(checked).toBe(r.n * names.length);
    // Without columns the matrix gives every quantum; without a range it cannot cut columns.
    expect(await hm.rows(e, { quantum_ms: 1000, group_by: 'host', percentiles: pct, columns })).toBeNull();
    expect(hm.why).toMatch(/finite range/);
    await e.terminate?.();
  }, 120000);
});
