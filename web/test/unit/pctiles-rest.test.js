// Many groups in the percentiles view (views/pctiles-rest.js): which groups
// are drawn as lines and the band of the others, on hand-made columns.
import { describe, expect, it } from 'vitest';
import { MANY_GROUPS, rankPercentile, restBands, restShown, worstGroups } from '../../src/views/pctiles-rest.js';

/**
 * Columns of `groups` x `times` rows, value(g, t, pi) as percentile values.
 * @param {string[]} groups @param {number[]} times @param {string[]} percentiles
 * @param {(g: number, t: number, pi: number) => number} value
 */
function columns(groups, times, percentiles, value) {
  const n = groups.length * times.length;
  const r = { n, groups, percentiles, quantum_ms: 1000, t_ms: new Float64Array(n), group: new Uint32Array(n), p: new Float64Array(n * percentiles.length) };
  let i = 0;
  for (const t of times)
    for (let g = 0; g < groups.length; g++, i++) {
      r.t_ms[i] = t;
      r.group[i] = g;
      percentiles.forEach((_, pi) => (r.p[i * percentiles.length + pi] = value(g, t, pi)));
    }
  return /** @type {any} */ (r);
}

describe('many groups', () => {
  it('ranks by the highest percentile below 100, else the highest', () => {
    expect(rankPercentile(['50', '99', '99.9', '100'])).toBe(2);
    expect(rankPercentile(['100'])).toBe(0);
    expect(rankPercentile(['99', '50'])).toBe(0);
  });

  it('the worst groups are those with the highest moment, ties by name', () => {
    const groups = Array.from({ length: 10 }, (_, g) => `host=h${g + 1}`);
    // h3 is slow at one second only, h7 a little slower all along; the rest tie.
    const r = columns(groups, [0, 1000, 2000], ['50', '99'], (g, t, pi) => (g === 2 && t === 1000 ? 900 : g === 6 ? 200 : 100) + pi);
    expect([...worstGroups(r, 2)].sort()).toEqual([2, 6]);
    // Ties by natural name order: h1, h2 after the two worst.
    expect([...worstGroups(r, 4)].sort((a, b) => a - b)).toEqual([0, 1, 2, 6]);
  });

  it('the band is each quantum\'s lowest and highest over the groups not drawn', () => {
    const groups = Array.from({ length: 10 }, (_, g) => `g${g}`);
    const r = columns(groups, [0, 1000, 2000], ['50', '99'], (g, t, pi) => g * 10 + t / 1000 + pi * 1000);
    const keep = new Set([9, 8]);
    const b = restBands(r, keep, 0, 2000);  // [0, 2000): two quanta
    expect(b[0]).toEqual([{ t: 0, lo: 0, hi: 70 }, { t: 1000, lo: 1, hi: 71 }]);
    expect(b[1]).toEqual([{ t: 0, lo: 1000, hi: 1070 }, { t: 1000, lo: 1001, hi: 1071 }]);
    // NaN (no value) is skipped, not a bound.
    r.p[0] = NaN;
    expect(restBands(r, keep, 0, 1000)[0]).toEqual([{ t: 0, lo: 10, hi: 70 }]);
  });

  it('is the default past MANY_GROUPS groups, not for adaptive quanta or with every line asked', () => {
    const few = columns(Array.from({ length: MANY_GROUPS }, (_, g) => `g${g}`), [0], ['99'], () => 1);
    const many = columns(Array.from({ length: MANY_GROUPS + 1 }, (_, g) => `g${g}`), [0], ['99'], () => 1);
    expect(restShown(few, { topN: 5 })).toBe(false);
    expect(restShown(many, { topN: 5 })).toBe(true);
    expect(restShown(many, { topN: 5, allLines: true })).toBe(false);
    expect(restShown({ ...many, adaptive: true }, { topN: 5 })).toBe(false);
    expect(restShown(many, { topN: MANY_GROUPS + 1 })).toBe(false);
  });
});
