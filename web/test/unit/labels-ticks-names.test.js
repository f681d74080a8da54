// Helpers of the views and the page's labels: the one number formatter and ticks in a
// display unit, label dodging, tail levels holding the standard
// percentiles, few-sample levels, natural order and names cut in the
// middle, heat-map fitting and hover text, export captions.
import { describe, it, expect } from 'vitest';
import { logTicks, logDomain, labelsWithin, dodgeLabels, anchoredTailPercentiles, tailCoord } from '../../src/views/scales.js';
import { fewLevels, gridRange, surfaceGrid } from '../../src/views/surface-data.js';
import { visibleRowSpan, cellTipLines } from '../../src/views/heatmap-data.js';
import { middleSplit, middleTruncate, breakPoints } from '../../src/app/names.js';
import { exportCaption } from '../../src/app/caption.js';
import { clampSidebar, defaultSidebar } from '../../src/app/sidebar.js';
import { SURFACE_LEVELS } from '../../src/app/queries.js';
import { initialState } from '../../src/app/state.js';
import { formatNumber, formatLatency, compactCount } from '../../src/util/format.js';
import { formatInUnit } from '../../src/model/units.js';
import { naturalCompare } from '../../src/util/natural-order.js';

describe('formatNumber: the page\'s one number formatter', () => {
  it('three significant digits below 100, grouped whole numbers above', () => {
    expect(formatNumber(0.000123456)).toBe('0.000123');
    expect(formatNumber(12.345)).toBe('12.3');
    expect(formatNumber(99.94)).toBe('99.9');
    expect(formatNumber(100)).toBe('100');
    expect(formatNumber(1234.5)).toBe('1,235');
    expect(formatNumber(2e6)).toBe('2,000,000');
    expect(formatNumber(NaN)).toBe('–');
  });
  it('formatLatency and formatInUnit go through it', () => {
    expect(formatLatency(1234567)).toBe('1.23 ms');
    expect(formatLatency(250000)).toBe('250 µs');
    expect(formatInUnit(2500, 'us')).toBe('2.5 µs');
    expect(formatInUnit(2500, 'ms')).toBe('0.0025 ms');
    expect(formatInUnit(2500, 'ns')).toBe('2,500 ns');
  });
});

describe('logTicks: round values of the display unit, never crowded', () => {
  it('1-2-5 when there is room, fewer when not', () => {
    expect(logTicks(100, 2000, 300)).toEqual([100, 200, 500, 1000, 2000]);
    expect(logTicks(1, 1e9, 200)).toEqual([1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
    // 9 decades in 90 px: 10 px a decade, so every second power of ten.
    expect(logTicks(1, 1e9, 90)).toEqual([1, 100, 1e4, 1e6, 1e8]);
  });
  it('keeps labels at least minGap apart on the axis', () => {
    for (const [lo, hi, px] of [[0.05, 500, 600], [3, 7e5, 250], [0.002, 2, 320], [10, 1e5, 900]]) {
      const t = logTicks(lo, hi, px);
      const y = t.map((v) => (Math.log10(v / lo) / Math.log10(hi / lo)) * px);
      for (let i = 1; i < y.length; i++) expect(y[i] - y[i - 1]).toBeGreaterThanOrEqual(18 - 1e-9);
      for (const v of t) expect(v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)).toBe(true);
    }
  });
  it('the same places in µs and ms, numbers 1000 apart (the Unit selector moves ticks)', () => {
    const us = logTicks(120, 4800, 400);
    const ms = logTicks(0.12, 4.8, 400);
    expect(ms.map((v) => +(v * 1000).toPrecision(12))).toEqual(us);
  });
  it('a narrow range without a round value gets 1-2-5 steps of a smaller power of ten, its ends only when none fit', () => {
    // Was [120, 180], its ends: a step of 10 between them fits 300 px.
    expect(logTicks(120, 180, 300)).toEqual([120, 130, 140, 150, 160, 170, 180]);
    expect(logTicks(120, 180, 80)).toEqual([120, 140, 160, 180]);
    // 1.3 … 3.2 holds only "2" of 1-2-5: steps of 0.5.
    expect(logTicks(1.3, 3.2, 120)).toEqual([1.5, 2, 2.5, 3]);
    // Too short for two steps apart: the ends.
    expect(logTicks(120, 130, 10)).toEqual([120, 130]);
  });
});

describe('logDomain: a log latency axis fits its data', () => {
  it('a 21 ms max is not drawn on an axis up to 100 ms: headroom of 5% of the span, not a decade', () => {
    const [a, b] = logDomain(50, 21000);
    expect(b).toBeGreaterThan(21000);
    expect(b).toBeLessThan(21000 * 1.4);
    expect(a).toBeLessThan(50);
    expect(a).toBeGreaterThan(50 / 1.4);
    // The same share of the span above and below.
    expect(Math.log10(b / 21000)).toBeCloseTo(Math.log10(50 / a), 9);
    // Its ticks: 1-2-5 up to 20,000 µs, none past the data's decade.
    expect(logTicks(a, b, 300)).toEqual([50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000]);
  });
  it('a small span gets at least a twentieth of a decade each side; a flat line a third of a decade', () => {
    const [a, b] = logDomain(900, 1100);
    expect(b / 1100).toBeCloseTo(Math.pow(10, (1 / 3 - Math.log10(1100 / 900)) / 2), 9);
    expect(Math.log10(b / a)).toBeCloseTo(1 / 3, 9);
    const [c, d] = logDomain(2, 2);
    expect(Math.log10(d / c)).toBeCloseTo(1 / 3, 9);
    expect(Math.sqrt(c * d)).toBeCloseTo(2, 9);
    // Three decades: 0.15 decades of headroom each side.
    const [e, f] = logDomain(1, 1000);
    expect(Math.log10(f / 1000)).toBeCloseTo(0.15, 9);
    expect(Math.log10(1 / e)).toBeCloseTo(0.15, 9);
  });
  it('values without a positive low end or high end', () => {
    const [a, b] = logDomain(Infinity, 0);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(1);
    expect(b).toBeLessThan(2);
    const [c, d] = logDomain(0, 500);
    expect(c).toBeLessThan(5);
    expect(d).toBeGreaterThan(500);
  });
});

describe('labelsWithin: centred labels that fit their span', () => {
  it('drops labels reaching past either end or into the one kept before', () => {
    // A column from 100 to 280 px: "0 s" at its left edge and "30 s" at its right do not fit.
    expect(labelsWithin([104, 160, 220, 276], [16, 22, 22, 22], 100, 280)).toEqual([1, 2]);
    // Two labels 20 px apart, 18 px wide: the second would overprint the first (4 px gap).
    expect(labelsWithin([50, 70, 100], [18, 18, 18], 0, 200)).toEqual([0, 2]);
    expect(labelsWithin([50, 73, 100], [18, 18, 18], 0, 200)).toEqual([0, 1, 2]);
    expect(labelsWithin([], [], 0, 10)).toEqual([]);
  });
});

describe('dodgeLabels', () => {
  it('moves labels apart, as near their places as it can, inside the bounds', () => {
    expect(dodgeLabels([10, 12, 13, 100], 11, 0, 200)).toEqual([10, 21, 32, 100]);
    expect(dodgeLabels([195, 199], 14, 0, 200)).toEqual([186, 200]);
    expect(dodgeLabels([-50, -40], 14, 10, 200)).toEqual([10, 24]);
    const ys = dodgeLabels([50, 50, 50, 50], 14, 0, 60);
    expect([...ys].sort((a, b) => a - b)).toEqual([18, 32, 46, 60]);
  });
});

describe('surface levels', () => {
  it('hold the standard percentiles exactly, about 0.1 apart on the tail axis', () => {
    for (const p of ['50', '75', '90', '95', '99', '99.5', '99.9', '99.95', '99.99']) expect(SURFACE_LEVELS).toContain(p);
    expect(SURFACE_LEVELS[0]).toBe('50');
    expect(SURFACE_LEVELS[SURFACE_LEVELS.length - 1]).toBe('99.99');
    const u = SURFACE_LEVELS.map(Number).map(tailCoord);
    for (let i = 1; i < u.length; i++) {
      expect(u[i] - u[i - 1]).toBeGreaterThan(0.08);
      expect(u[i] - u[i - 1]).toBeLessThan(0.12);
    }
  });
  it('anchoredTailPercentiles keeps its ends when they are no standard percentile', () => {
    const l = anchoredTailPercentiles(60, 99.95, 0.25);
    expect(l[0]).toBe('60');
    expect(l[l.length - 1]).toBe('99.95');
    expect(l).toContain('99.9');
    expect(l).toContain('90');
  });
  it('few flags name levels by value; the grid marks those cells', () => {
    const levelOf = new Map([[99, 0], [99.9, 1], [99.99, 2]]);
    expect(fewLevels('few:p99.9|p99.99;sat', levelOf)).toEqual([1, 2]);
    expect(fewLevels('sat', levelOf)).toEqual([]);
    expect(fewLevels(undefined, levelOf)).toEqual([]);
    const r = {
      groups: ['all'],
      quantum_ms: 1000,
      percentiles: ['99', '99.90', '99.99'],
      rows: [
        { t_ms: 0, group: 'all', p: [1, 2, 3], flags: 'few:p99.99' },
        { t_ms: 1000, group: 'all', p: [1, 4, 9], flags: 'few:p99.90|p99.99' },
      ],
    };
    const g = surfaceGrid(r);
    expect(g.few).toEqual([[false, false], [false, true], [true, true]]);
    expect(gridRange(g, 0, 1)).toEqual([1, 3]);
    expect(gridRange(g, 1, 2)).toEqual([1, 9]);
    expect(gridRange(g, 5, 9)).toBe(null);
  });
});

describe('heat map helpers', () => {
  const hm = { t0_ms: 0, quantum_ms: 1000, quanta: 3, rows: 4, edges_ns: [1, 10, 100, 1000, 10000], counts: [0, 1, 0, 0, 0, 0, 2, 0, 5, 0, 0, 1] };
  it('visibleRowSpan: the rows holding I/Os in the zoomed quanta', () => {
    expect(visibleRowSpan(hm, [0, 2000])).toEqual([10, 1000]);
    expect(visibleRowSpan(hm, [1000, 2000])).toEqual([100, 1000]);
    expect(visibleRowSpan(hm, [0, 3000])).toBe(null); // every row: nothing to fit
    expect(visibleRowSpan({ ...hm, counts: new Array(12).fill(0) }, [0, 3000])).toBe(null);
  });
  it('an empty cell says "no I/O", not "count 0.0"', () => {
    expect(cellTipLines({ count: 0, share: 0, iops: 0 }, 'latency 1 … 2 µs', '0 s … 1 s')).toEqual(['0 s … 1 s', 'latency 1 … 2 µs', 'no I/O']);
    expect(cellTipLines({ count: 8.164, share: 0.00292, iops: 8.164 }, 'r', 't')).toEqual(['t', 'r', '8.16 I/Os (0.292% of the column)', '8.16 IOPS in this cell']);
  });
});

describe('names', () => {
  it('natural order: 1, 2, 10; hosts by number', () => {
    expect(['a.10.log', 'a.2.log', 'a.1.log'].sort(naturalCompare)).toEqual(['a.1.log', 'a.2.log', 'a.10.log']);
    expect(['h10', 'h9', 'H1', 'h1'].sort(naturalCompare)).toEqual(['H1', 'h1', 'h9', 'h10']);
  });
  it('middleSplit keeps a fio log\'s job and host suffix as the tail', () => {
    expect(middleSplit('s1_clat_hist.2.log.127.0.0.1')).toEqual(['s1_clat_hist', '.2.log.127.0.0.1']);
    expect(middleSplit('local_clat_hist.1.log.gz')).toEqual(['local_clat_hist', '.1.log.gz']);
    expect(middleSplit('run/a_clat_hist.10.log')).toEqual(['run/a_clat_hist', '.10.log']);
    const [h, t] = middleSplit('a_long_result_name_for_the_nightly_run.lsr');
    expect(h + t).toBe('a_long_result_name_for_the_nightly_run.lsr');
    expect(t.length).toBeGreaterThanOrEqual(10);
    expect(middleSplit('x.lsr')).toEqual(['', 'x.lsr']);
  });
  it('breakPoints: a wrapped file name breaks after _ - / and before the job and host parts, never inside a number or an address', () => {
    expect(breakPoints('h1_clat_hist.1.log.127.0.0.1')).toEqual(['h1_', 'clat_', 'hist', '.1.log', '.127.0.0.1']);
    expect(breakPoints('result.txt')).toEqual(['result.txt']);
    expect(breakPoints('run/a-b_clat_hist.10.log')).toEqual(['run/', 'a-', 'b_', 'clat_', 'hist', '.10.log']);
    for (const n of ['x', '_', 'a_', 's1.json', 'h.1.log']) expect(breakPoints(n).join('')).toBe(n);
  });
  it('middleTruncate drops the middle, keeps the end', () => {
    expect(middleTruncate('short', 10)).toBe('short');
    const t = middleTruncate('s1_clat_hist.2.log.127.0.0.1', 20);
    expect(t.length).toBeLessThanOrEqual(20);
    expect(t.endsWith('.2.log.127.0.0.1')).toBe(true);
    expect(t).toContain('…');
    const u = middleTruncate('abcdefghijklmnopqrstuvwxyz0123456789.json', 16);
    expect(u.length).toBeLessThanOrEqual(16);
    expect(u.endsWith('.json')).toBe(true);
  });
  it('compactCount shortens large record counts', () => {
    expect(compactCount('9,999')).toBe('9,999');
    expect(compactCount('12,345')).toBe('12.3k');
    expect(compactCount('4,560,000')).toBe('4.56M');
  });
});

describe('sidebar width', () => {
  it('clamps to 240 px … 60% of the window, default 380', () => {
    expect(clampSidebar('abc', 1440)).toBe(470);
    expect(defaultSidebar(1440)).toBe(470);
    expect(defaultSidebar(800)).toBe(360);
    expect(defaultSidebar(400)).toBe(240);
    expect(clampSidebar(100, 1440)).toBe(240);
    expect(clampSidebar(2000, 1440)).toBe(864);
    expect(clampSidebar(455.4, 1440)).toBe(455);
  });
});

describe('export caption', () => {
  it('says the view, the logs, quantum, time range, groups and directions', () => {
    const s = { ...initialState(), directions: 'r,w', range: /** @type {[number, number]} */ ([2000, 5000]) };
    const cap = exportCaption({ view: 'pctiles', state: s, files: ['a.1.log', 'a.2.log'], extent: [0, 20000], absolute: false, groups: ['host=x', 'host=y'] });
    expect(cap).toEqual([
      'latscope — Latency percentiles over time',
      '2 logs: a.1.log, a.2.log',
      'quantum 1 s · time 2 s … 5 s',
      'groups: host=x, host=y · directions: read, write · p50 p90 p99 p99.9 max · unit µs',
    ]);
    const whole = exportCaption({ view: 'heatmap', state: initialState(), files: ['a', 'b', 'c', 'd', 'e'], extent: [0, 20000], absolute: false, groups: ['all'], heatRows: 'latency' });
    expect(whole[1]).toBe('5 logs: a, b, c, … (2 more)');
    expect(whole[2]).toBe('quantum 1 s · whole run 0 s … 20 s');
    expect(whole[3]).toBe('groups: cluster · directions: read, write, trim · rows: latency · unit µs');
  });
});
