// Pure helpers of the groups view, the SLA rules and the stable colours.
import { describe, it, expect } from 'vitest';
import { percentileColor, ColorKeeper, LINE_PALETTE, GROUP_PALETTE } from '../../src/views/colors.js';
import * as d3 from 'd3';
import { fromResultMatrix, groupOrder, runValues, topGroups, othersBand, valueSpan, groupLabels, selectionForGroup } from '../../src/views/groups-data.js';
import { toggleKey } from '../../src/views/legend.js';

/** A query result as the engine writes it (values in us). */
function result() {
  const rows = [];
  const groups = ['host=h10', 'host=h2', 'host=h1'];
  // p99 per group and quantum; h2 is slow at t=1000, h10 at t=2000.
  const p99 = { 'host=h10': [100, 150, 5000], 'host=h2': [90, 3000, 80], 'host=h1': [70, 75, 1999.999] };
  for (const t of [0, 1000, 2000]) {
    for (const g of groups) {
      const k = t / 1000;
      rows.push({ t_ms: t, group: g, samples: 1000 + k, p: [50, /** @type {Record<string, number[]>} */ (p99)[g][k]], max: 9000, flags: g === 'host=h1' && t === 2000 ? 'few:p99' : '' });
    }
  }
  // An empty quantum and a window-average row: not judged.
  rows.push({ t_ms: 3000, group: 'host=h1', samples: 0, p: [null, null], max: null, flags: 'empty' });
  rows.push({ t_ms: 3000, group: 'host=h2', samples: 10, p: [null, null], max: 20000, flags: 'avg' });
  return { quantum_ms: 1000, unit: 'us', percentiles: ['50', '99'], groups, rows };
}

/**
 * The engine's value matrix (engine/matrix.js; report.h ValueMatrixBuilder)
 * of such a result, made here from its rows, and its percentile pi.
 * @param {ReturnType<typeof result>} r @param {number} pi
 */
function groupMatrix(r, pi) {
  const times = [...new Set(r.rows.map((x) => x.t_ms))].sort((a, b) => a - b);
  const G = r.groups.length, T = times.length, P = r.percentiles.length;
  const values = new Float64Array(G * T * P).fill(NaN);
  const samples = new Float64Array(G * T);
  for (const x of r.rows) {
    const k = r.groups.indexOf(x.group) * T + times.indexOf(x.t_ms);
    samples[k] = x.samples;
    x.p.forEach((v, j) => (values[k * P + j] = v ?? NaN));
  }
  const rm = { groups: r.groups, percentiles: r.percentiles, quantum_ms: r.quantum_ms, unit: r.unit, absolute_time: false, notes: [], times: Float64Array.from(times), values, samples };
  return fromResultMatrix(rm, pi);
}

// The SLA field's rules are core's to read and judge (docs/page-views.md,
// "SLA"): their grammar, labels and expansion over the shown percentiles are
// tested in tests/sla_field_test.cc (SlaField.ParsesWhatThePageTypes,
// ExpandsRulesOverTheShownPercentiles), the page asking core in
// sla-core.test.js, its marks on these same rows in SlaField.MarksTheRowsThatBreakARule.

describe('stable colours', () => {
  it('a percentile keeps its colour whatever else is shown', () => {
    expect(percentileColor('100')).toBe(percentileColor(100));
    const before = ['50', '90', '99', '99.9', '100'].map(percentileColor);
    const after = ['50', '90', '99', '99.9', '99.99', '100'].map(percentileColor);
    expect(after.filter((_, i) => i !== 4)).toEqual(before);
    expect(new Set(after).size).toBe(after.length);
    expect(percentileColor('99.123')).toBe(percentileColor('99.1230'));
  });

  it('groups keep the colour of their first sight; more than 10 distinct', () => {
    const k = new ColorKeeper();
    k.see(['host=a', 'host=b']);
    const a = k.color('host=a');
    k.see(['host=c', 'host=a']);
    expect(k.color('host=a')).toBe(a);
    const many = Array.from({ length: 20 }, (_, i) => k.color(`host=n${i}`));
    expect(new Set(many).size).toBe(20);
    expect(LINE_PALETTE.length).toBeGreaterThan(20);
  });

  it('no line in the grey of the mean and the others band; no group in the SLA\'s red', () => {
    const spread = (/** @type {string} */ c) => {
      const { r, g, b } = /** @type {d3.RGBColor} */ (d3.rgb(c));
      return Math.max(r, g, b) - Math.min(r, g, b);
    };
    // Greys have (nearly) equal channels: Tableau's #bab0ab spreads 15.
    for (const c of LINE_PALETTE) expect(spread(c), c).toBeGreaterThan(40);
    // The SLA's red (frame.js --warn default #d62728): every group colour far from it.
    const warn = d3.lab('#d62728');
    for (const c of GROUP_PALETTE) {
      const l = d3.lab(c);
      expect(Math.hypot(l.l - warn.l, l.a - warn.a, l.b - warn.b), c).toBeGreaterThan(25);
    }
    const k = new ColorKeeper();
    const all = Array.from({ length: GROUP_PALETTE.length }, (_, i) => k.color(`host=${i}`));
    expect(new Set(all).size).toBe(GROUP_PALETTE.length);
    expect(all.every((c) => GROUP_PALETTE.includes(c))).toBe(true);
    // Percentiles keep their defaults: p99 is red, as it always was.
    expect(percentileColor(99)).toBe('#e15759');
  });
});

describe('groups view data', () => {
  it('builds the group x quantum matrix of one percentile', () => {
    const m = groupMatrix(result(), 1);
    expect(m.groups).toEqual(['host=h10', 'host=h2', 'host=h1']);
    expect(Array.from(m.times)).toEqual([0, 1000, 2000, 3000]);
    expect(m.values[1 * 4 + 1]).toBe(3000);
    expect(Number.isNaN(m.values[2 * 4 + 3])).toBe(true);
    expect(m.samples[0]).toBe(1000);
    expect(valueSpan(m, [0, 2000])).toEqual([70, 3000]);
    expect(valueSpan(m, [0, 4000], [2])).toEqual([70, 1999.999]);
  });

  it('orders by name (naturally) or worst over the run; top N and the others\' band', () => {
    const r = result();
    const m = groupMatrix(r, 1);
    expect(groupOrder(m.groups, null, 'name').map((i) => m.groups[i])).toEqual(['host=h1', 'host=h2', 'host=h10']);
    const run = runValues({ groups: r.groups, rows: [{ group: 'host=h10', p: [0, 900] }, { group: 'host=h2', p: [0, 1200] }, { group: 'host=h1', p: [0, null] }] }, 1);
    expect([...run.entries()]).toEqual([['host=h10', 900], ['host=h2', 1200]]);
    expect(topGroups(m.groups, run, 1)).toEqual(['host=h2']);
    // Groups without a run value go last.
    expect(groupOrder(m.groups, run, 'worst').map((i) => m.groups[i])).toEqual(['host=h2', 'host=h10', 'host=h1']);
    const band = othersBand(m, new Set(['host=h2']));
    expect(band).toEqual([
      { t: 0, lo: 70, hi: 100, n: 2 },
      { t: 1000, lo: 75, hi: 150, n: 2 },
      { t: 2000, lo: 1999.999, hi: 5000, n: 2 },
    ]);
  });

  it('a focused group: the other groups\' logs by name, the direction', () => {
    const sources = [
      { name: 'a_clat_hist.1.log.h1', host: 'h1', job: '1', labels: { host: 'h1', job: '1', file: 'a_clat_hist.1.log.h1' } },
      { name: 'a_clat_hist.2.log.h1', host: 'h1', job: '2', labels: { host: 'h1', job: '2', file: 'a_clat_hist.2.log.h1' } },
      { name: 'a_clat_hist.1.log.h2', host: 'h2', job: '1', labels: { host: 'h2', job: '1', file: 'a_clat_hist.1.log.h2' } },
      { name: 'local_clat_hist.1.log', host: '', job: '1', labels: { job: '1', file: 'local_clat_hist.1.log' } },
    ];
    expect(groupLabels('host=h1;job=2')).toEqual({ host: 'h1', job: '2' });
    // Hosts are left out by their logs' names, never as hosts (a host exclusion would drop the json+ output too).
    expect(selectionForGroup('host=h1', sources, 'r,w,t')).toEqual({ key: 'host=h1', exclude_sources: ['a_clat_hist.1.log.h2', 'local_clat_hist.1.log'], directions: 'r,w,t', unsupported: [] });
    expect(selectionForGroup('host=h1;job=2', sources, 'r,w,t').exclude_sources).toEqual(['a_clat_hist.1.log.h1', 'a_clat_hist.1.log.h2', 'local_clat_hist.1.log']);
    expect(selectionForGroup('dir=write', sources, 'r,w,t').directions).toBe('w');
    expect(selectionForGroup('tag=x', sources, 'r,w,t').unsupported).toEqual(['tag']);
  });

  it('legend keys toggle', () => {
    expect(toggleKey(['p:99'], 'g:a')).toEqual(['g:a', 'p:99']);
    expect(toggleKey(['g:a', 'p:99'], 'g:a')).toEqual(['p:99']);
  });
});

describe('points in view', () => {
  it('viewPoints equals decimate() of the series\' points in view, without making every point', async () => {
    const { viewPoints, seriesPoints, decimate, seriesMeta } = await import('../../src/views/pctiles-data.js');
    // 2 groups x 5000 quanta of 100 ms, values with spikes and gaps.
    const rows = [];
    let seed = 7;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let k = 0; k < 5000; k++) {
      for (const g of ['host=a', 'host=b']) {
        const gap = k % 997 < 3;
        const v = gap ? null : 100 + 50 * rnd() + (rnd() < 0.01 ? 5000 : 0);
        rows.push({ t_ms: k * 100, group: g, samples: gap ? 0 : 10, mean: v && v / 2, p: [v, v && v * 2], err: [1, 2], lo: [null, null], hi: [null, null], flags: gap ? 'empty' : '' });
      }
    }
    const r = { quantum_ms: 100, groups: ['host=a', 'host=b'], percentiles: ['50', '99'], rows };
    for (const [d0, d1, width] of [[0, 500000, 800], [123400, 160000, 300], [0, 500000, 20000]]) {
      const px = (/** @type {number} */ t) => ((t - d0) / (d1 - d0)) * width;
      const near = (/** @type {any} */ pt) => pt.t + 100 > d0 - 100 && pt.t < d1 + 100;
      for (const m of seriesMeta(r, true)) {
        const want = decimate(seriesPoints(r, m).filter(near), px, width);
        const got = viewPoints(r, m, d0 - 100, d1 + 100, px, width);
        expect(got.map((p) => [p.t, p.v])).toEqual(want.map((p) => [p.t, p.v]));
      }
    }
  });
});
