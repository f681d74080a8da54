import { describe, it, expect } from 'vitest';
import { tailCoord, tailInverse, tailScale, tailTicks, tailPercentiles, countNormalizer, clipTopNs, paletteLut, plainScale } from '../../src/views/scales.js';
import { niceTimeStep, timeScale } from '../../src/views/time-axis.js';
import * as d3 from 'd3';
import { formatPercentile, formatLatency, formatRelative } from '../../src/util/format.js';

describe('tail axis', () => {
  it('spaces the nines evenly: -log10(1-p)', () => {
    expect(tailCoord(90)).toBeCloseTo(1, 12);
    expect(tailCoord(99)).toBeCloseTo(2, 12);
    expect(tailCoord(99.9)).toBeCloseTo(3, 12);
    expect(tailCoord(99.99)).toBeCloseTo(4, 10);
    expect(tailCoord(50)).toBeCloseTo(Math.log10(2), 12);
    expect(tailCoord(0)).toBe(0);
  });
  it('maps p = 100 to a finite place at the end', () => {
    expect(Number.isFinite(tailCoord(100))).toBe(true);
    expect(tailCoord(100)).toBeGreaterThan(tailCoord(99.999));
  });
  it('inverts', () => {
    for (const p of [0, 12.5, 50, 75, 90, 99.5, 99.99]) expect(tailInverse(tailCoord(p))).toBeCloseTo(p, 9);
  });
  it('scales to pixels with 99 in the middle of 90..99.9', () => {
    const s = tailScale([90, 99.9], [0, 200]);
    expect(s(90)).toBeCloseTo(0, 9);
    expect(s(99)).toBeCloseTo(100, 9);
    expect(s(99.9)).toBeCloseTo(200, 9);
    expect(s.invert(100)).toBeCloseTo(99, 9);
  });
  it('ticks at the nines within the domain', () => {
    expect(tailTicks(50, 99.99)).toEqual([50, 75, 90, 99, 99.9, 99.99]);
    expect(tailTicks(0, 99.9)).toEqual([0, 50, 75, 90, 99, 99.9]);
  });
  it('levels are evenly spaced on the axis, ascending, ends exact', () => {
    const ps = tailPercentiles(50, 99.99, 41);
    expect(ps[0]).toBe('50');
    expect(ps[ps.length - 1]).toBe('99.99');
    const u = ps.map(Number).map(tailCoord);
    for (let i = 1; i < u.length; i++) expect(u[i]).toBeGreaterThan(u[i - 1]);
    const step = (u[u.length - 1] - u[0]) / (u.length - 1);
    for (let i = 1; i < u.length; i++) expect(Math.abs(u[i] - u[i - 1] - step)).toBeLessThan(step * 0.03);
  });
  it('formats percentiles with the digits the nines need', () => {
    expect(formatPercentile(50)).toBe('50');
    expect(formatPercentile(99.94999999)).toBe('99.95');
    expect(formatPercentile(99.9990123)).toBe('99.999012');
    expect(formatPercentile(99.99)).toBe('99.99');
    expect(formatPercentile(100)).toBe('100');
  });
});

describe('colour scales', () => {
  const counts = [0, 1, 10, 100, 1000];
  it('linear: proportional to the max, zero is background', () => {
    const n = countNormalizer('linear', counts);
    expect(n(0)).toBe(-1);
    expect(n(1000)).toBe(1);
    expect(n(100)).toBeCloseTo(0.1, 12);
    // Tiny counts still get the lowest visible shade.
    expect(n(1)).toBeCloseTo(1 / 255, 12);
  });
  it('log: equal ratios give equal steps', () => {
    const n = countNormalizer('log', counts);
    expect(n(1000)).toBeCloseTo(1, 12);
    expect(n(100) - n(10)).toBeCloseTo(n(10) - n(1), 12);
    expect(n(1)).toBeGreaterThan(0);
  });
  it('log: fractional slivers stay at the lowest shade', () => {
    const n = countNormalizer('log', [0.001, 0.3, 1, 1000]);
    expect(n(0.001)).toBeCloseTo(1 / 255, 12);
    expect(n(0.3)).toBeCloseTo(1 / 255, 12);
    expect(n(1)).toBeGreaterThan(0.05);
    expect(n(1000)).toBeCloseTo(1, 12);
  });
  it('false colour: ranks, so rare cells are as visible as common ones', () => {
    const n = countNormalizer('false', [0, 1, 2, 1e6]);
    expect(n(0)).toBe(-1);
    expect(n(1)).toBeCloseTo(0.05, 12);
    expect(n(2)).toBeCloseTo(0.525, 12);
    expect(n(1e6)).toBeCloseTo(1, 12);
  });
  it('empty maps give background only', () => {
    expect(countNormalizer('log', [0, 0])(0)).toBe(-1);
  });
  it('palette LUTs: viridis runs dark purple to yellow, opaque', () => {
    const lut = paletteLut('viridis');
    expect(lut.length).toBe(1024);
    expect([lut[0], lut[1], lut[2], lut[3]]).toEqual([68, 1, 84, 255]);
    expect(lut[1020]).toBeGreaterThan(240); // yellow: high red
    expect(lut[1022]).toBeLessThan(60); // low blue
    const c = paletteLut('cividis');
    expect(c[2]).toBeGreaterThan(c[0]); // cividis starts blue
  });
});

describe('outlier clip', () => {
  it('cuts the y range at the row holding the 99.9th percentile rank', () => {
    // 2 quanta x 4 rows; 1998 samples in row 0, 1 in row 2, 1 in row 3.
    const hm = { quanta: 2, rows: 4, edges_ns: [1, 10, 100, 1000, 10000], counts: [999, 0, 1, 0, 999, 0, 0, 1], above: 0 };
    expect(clipTopNs(hm, 0.001)).toBe(10);
    expect(clipTopNs(hm, 0.0001)).toBe(10000);
    expect(clipTopNs(hm, 0.0007)).toBe(1000);
  });
  it('keeps the whole range when empty', () => {
    expect(clipTopNs({ quanta: 1, rows: 2, edges_ns: [1, 2, 3], counts: [0, 0] }, 0.001)).toBe(3);
  });
});

describe('labels', () => {
  it('latency with an adaptive unit', () => {
    expect(formatLatency(250)).toBe('250 ns');
    expect(formatLatency(1500)).toBe('1.5 µs');
    expect(formatLatency(2.5e6)).toBe('2.5 ms');
    expect(formatLatency(17.2e9)).toBe('17.2 s');
  });
  it('time ticks: nice steps and duration labels', () => {
    expect(niceTimeStep(1300)).toBe(2000);
    expect(niceTimeStep(40000)).toBe(60000);
    expect(formatRelative(15000)).toBe('15 s');
    expect(formatRelative(1500, 500)).toBe('1.5 s');
    // Durations with units, never clock-like "10:00" (read as ten o'clock).
    expect(formatRelative(90000, 30000)).toBe('1 min 30 s');
    expect(formatRelative(3723000, 60000)).toBe('1 h 2 min 3 s');
    expect(formatRelative(600000, 60000)).toBe('10 min');
    expect(formatRelative(3600000, 600000)).toBe('1 h');
    expect(formatRelative(187200000, 3600000)).toBe('2 d 4 h');
    expect(formatRelative(-90000, 30000)).toBe('-1 min 30 s');
    // Rounded once to the decimals shown: never "60.000 s".
    expect(formatRelative(59999.6, 1)).toBe('1 min');
    expect(formatRelative(61250, 100)).toBe('1 min 1.3 s');
  });
});

describe('plain arithmetic scales for canvas points', () => {
  // Pseudo-random but fixed: the same values every run.
  const values = (/** @type {number} */ lo, /** @type {number} */ hi, /** @type {number} */ n) => Array.from({ length: n }, (_, i) => lo + ((i * 7919) % 1000) / 1000 * (hi - lo));
  it('a time axis, relative and absolute: the same pixel as the scale', () => {
    const rel = timeScale(false, [120000, 3720000], [0, 913]);
    const abs = timeScale(true, [1.7e12, 1.7e12 + 86400000], [0, 913]);
    const fr = plainScale(rel);
    const fa = plainScale(abs);
    for (const t of values(0, 3800000, 500)) expect(Math.abs(fr(t) - rel(t))).toBeLessThan(1e-9);
    for (const t of values(1.7e12 - 1000, 1.7e12 + 86401000, 500)) expect(Math.abs(fa(t) - abs(t))).toBeLessThan(1e-6);
  });
  it('latency, linear and log (niced domains): the same pixel as the scale', () => {
    const lin = d3.scaleLinear().domain([0, 4321]).range([600, 0]).nice();
    const log = d3.scaleLog().domain([87, 53000]).range([600, 0]).nice();
    const fl = plainScale(lin);
    const fg = plainScale(log, true);
    for (const v of values(0, 5000, 500)) expect(Math.abs(fl(v) - lin(v))).toBeLessThan(1e-9);
    for (const v of values(50, 60000, 500)) expect(Math.abs(fg(v) - log(v))).toBeLessThan(1e-9);
    // Outside the domain: not clamped, as the scales are not.
    expect(fg(200000)).toBeCloseTo(log(200000), 9);
    expect(fl(-10)).toBeCloseTo(lin(-10), 9);
  });
});
