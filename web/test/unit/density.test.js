// The density view's pure parts (docs/page-views.md, "Host density"): its
// engine options (the groups view's question on the heat map's rows), the
// colour of a count and the words of a cell. The counts themselves are
// core's (tests/density_test.cc; e2e cases-density.mjs against the CLI).
import { describe, it, expect } from 'vitest';
import { initialState } from '../../src/app/state.js';
import { densityOptions, groupsOptions } from '../../src/app/queries.js';
import { densityNormalizer, densityTipLines, memberLines, groupsWord, maxCount, countText } from '../../src/views/density-data.js';

/** @param {Record<string, any>} p */
const state = (p) => ({ ...initialState(), ...p });

describe('density options', () => {
  it("asks the groups view's label, percentile and method, on recorded data, in the page's unit", () => {
    const s = state({ groupsP: '99.9', method: 'fio', co_interval_ms: 10, unit: 'ms', exclude_hosts: ['h3'] });
    const o = densityOptions(s, 160);
    expect(o).toMatchObject({ rows: 160, density_by: 'host', density_percentile: 99.9, density_method: 'fio', unit: 'ms', exclude_hosts: ['h3'] });
    for (const k of ['percentiles', 'group_by', 'method', 'co_interval_ms', 'bands']) expect(o).not.toHaveProperty(k);
    expect(o.density_by).toBe(groupsOptions(s).group_by);
    expect(densityOptions(state({ group_by: 'host,job' }), 160).density_by).toBe('host,job');
  });
});

describe('density drawing', () => {
  it('one group takes the first colour, the busiest cell the last, empty cells none', () => {
    const n = densityNormalizer([0, 1, 40, 20]);
    expect([n(0), n(1), n(40)]).toEqual([-1, 0, 1]);
    expect(n(20)).toBeCloseTo(19 / 39);
    expect(densityNormalizer([0, 1])(1)).toBe(0);
    expect(densityNormalizer([0, 0])(0)).toBe(-1);
    expect(maxCount(new Float64Array([3, 9, 2]))).toBe(9);
  });
  it('a cell says its time, latency range in the unit and how many hosts', () => {
    const lines = densityTipLines({ t0: 34000, t1: 35000, lo: 812000, hi: 870000, count: 1 }, { p: '99', unit: 'us', by: 'host', absolute: false });
    expect(lines[1]).toBe('p99 812 … 870 µs');
    expect(lines[2]).toBe('1 host (click to list)');
    expect(densityTipLines({ t0: 0, t1: 1000, lo: 1e6, hi: 2e6, count: 12 }, { p: '100', unit: 'ms', by: 'host,job', absolute: false })[1]).toBe('max 1 … 2 ms');
    expect(groupsWord('job')).toBe('jobs');
    expect([countText(1, 'host'), countText(1200, 'host,job')]).toEqual(['1 host', '1,200 groups']);
    expect(memberLines({ unit: 'us', members: [{ group: 'host=h1', value: 1234.5 }] })).toEqual([{ group: 'host=h1', text: '1,235 µs' }]);
  });
});
