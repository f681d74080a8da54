import { describe, it, expect } from 'vitest';
import { aggregateIops, cols, seriesOf, slaViolations, fewFlagged, anyFiner, timeExtent, valueRange, groupIndex, groupIn, pointAt, runsOf, decimate, bandText } from '../../src/views/pctiles-data.js';
import { bandTop, openEndPath, OPEN_END_PX, bandsDrawn, BAND_MAX_LINES } from '../../src/views/pctiles-bands.js';
import { cellAt, rowRates } from '../../src/views/heatmap-data.js';
import { surfaceGrid, nearestLevel, spectrumCurves } from '../../src/views/surface-data.js';

// Shaped like engine.query() / report.h pctiles_json.
const result = {
  quantum_ms: 1000,
  absolute_time: false,
  unit: 'us',
  percentiles: ['50', '99', '100'],
  groups: ['host=a', 'host=b'],
  rows: [
    { t_ms: 0, group: 'host=a', samples: 400, min: 1, mean: 5, max: 90, p: [4, 50, 90], err: [1, 8, 16], flags: '' },
    { t_ms: 0, group: 'host=b', samples: 40, min: 2, mean: 6, max: 70, p: [5, 60, 70], err: [1, 8, 16], flags: 'few:p99' },
    { t_ms: 1000, group: 'host=a', samples: 0, min: null, mean: null, max: null, p: [null, null, null], err: [null, null, null], flags: 'empty' },
    { t_ms: 1000, group: 'host=b', samples: 410, min: 2, mean: 7, max: 300, p: [6, 250, 300], err: [1, 32, 64], flags: 'few:p99.9|p99.99;sat' },
  ],
};

/**
 * Rows in time order with gaps, three groups, empty values (null) and values
 * of 0 (a seeded generator: the same rows every run).
 */
function manyRows() {
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const rows = [];
  for (let t = 0; t < 60000; t += 1000) {
    if (rnd() < 0.1) continue;
    for (const g of ['host=a', 'host=b', 'host=c']) {
      if (rnd() < 0.2) continue;
      const p = [0, 1, 2].map(() => (rnd() < 0.1 ? null : rnd() < 0.05 ? 0 : Math.round(rnd() * 1e4) / 10));
      rows.push({ t_ms: t, group: g, samples: Math.round(rnd() * 500), min: 1, mean: rnd() * 100, max: 1000, p, err: [0, 0, 0], flags: '' });
    }
  }
  return { r: { ...result, groups: ['host=a', 'host=b', 'host=c'], rows }, rows, rnd };
}

describe('percentiles view data', () => {
  it('one series per group and percentile, plus means', () => {
    const s = seriesOf(result, true);
    expect(s.map((x) => x.label)).toEqual(['host=a p50', 'host=a p99', 'host=a max', 'host=a mean', 'host=b p50', 'host=b p99', 'host=b max', 'host=b mean']);
    expect(s[1].points).toEqual([
      { t: 0, v: 50, e: 8, lo: null, hi: null },
      { t: 1000, v: null, e: 0, lo: null, hi: null },
    ]);
    expect(seriesOf(result, false).length).toBe(6);
  });
  it('window values (fio log_avg_msec rows, flag avg): the max line draws their max, the other percentiles stay empty', () => {
    const windows = {
      ...result,
      groups: ['all'],
      rows: [
        { t_ms: 0, group: 'all', samples: 4, min: 10, mean: 20, max: 90, p: [null, null, null], flags: 'avg' },
        { t_ms: 1000, group: 'all', samples: 0, min: null, mean: null, max: null, p: [null, null, null], flags: 'avg;empty' },
        { t_ms: 2000, group: 'all', samples: 3, min: 11, mean: 15, max: 40, p: [null, null, null], flags: 'avg' },
      ],
    };
    const s = seriesOf(windows, false);
    expect(s.map((x) => x.label)).toEqual(['p50', 'p99', 'max']);
    expect(s[2].points.map((x) => x.v)).toEqual([90, null, 40]);
    expect(s[0].points.map((x) => x.v)).toEqual([null, null, null]);
    expect(valueRange(windows, [0, 3000], false)).toEqual([40, 90]);
    // I/O rows keep their own p100, never the max column.
    expect(seriesOf(result, false)[2].points.map((x) => x.v)).toEqual([90, null]);
  });

  it('sampling bands: lo/hi per percentile, hi null when unbounded', () => {
    const r = {
      ...result,
      groups: ['all'],
      rows: [
        { t_ms: 0, group: 'all', samples: 400, p: [4, 50, 90], err: [1, 8, 16], lo: [3.5, 40, 88], hi: [4.6, null, null], flags: '' },
        { t_ms: 1000, group: 'all', samples: 0, p: [null, null, null], err: [null, null, null], lo: [null, null, null], hi: [null, null, null], flags: 'empty' },
      ],
    };
    const s = seriesOf(r, false);
    expect(s[0].points[0]).toEqual({ t: 0, v: 4, e: 1, lo: 3.5, hi: 4.6 });
    expect(s[1].points[0]).toEqual({ t: 0, v: 50, e: 8, lo: 40, hi: null });
    expect(s[1].points[1]).toEqual({ t: 1000, v: null, e: 0, lo: null, hi: null });
    expect(bandText(s[0].points[0], String)).toBe(' · 95% 3.5 … 4.6');
    expect(bandText(s[1].points[0], String)).toBe(' · 95% 40 … ∞ (too few I/Os above)');
    expect(bandText(s[1].points[1], String)).toBe('');
  });
  it('bands are drawn with the option on, at least 3 px per quantum and at most 15 percentile lines', () => {
    expect(BAND_MAX_LINES).toBe(15);
    expect(bandsDrawn(true, 100, 900, 5)).toEqual({ shown: true, note: '' });
    expect(bandsDrawn(true, 300, 900, 15)).toEqual({ shown: true, note: '' });
    expect(bandsDrawn(false, 100, 900, 5)).toEqual({ shown: false, note: '' });
    expect(bandsDrawn(true, 301, 900, 5)).toEqual({ shown: false, note: 'error bands appear when zoomed in (≥ 3 px per quantum)' });
    expect(bandsDrawn(true, 100, 900, 16)).toEqual({ shown: false, note: 'error bands off above 15 lines (16 drawn)' });
  });
  it('an unbounded band is filled up to its value and marked open there, never filled to the plot top', () => {
    // hi null (JSON) or NaN (columns): the filled part stops at the value.
    expect(bandTop(50, null)).toBe(50);
    expect(bandTop(50, NaN)).toBe(50);
    expect(bandTop(50, undefined)).toBe(50);
    expect(bandTop(4, 4.6)).toBe(4.6);
    expect(bandTop(0, 0)).toBe(0);
    const pts = [
      { x: 10, y: 80, hi: 5 },
      { x: 13, y: 40, hi: null },
      { x: 16, y: 42.25, hi: NaN },
      { x: NaN, y: 40, hi: null },
    ];
    const d = openEndPath(pts, (p) => !(p.hi != null && p.hi === p.hi), (p) => p.x, (p) => p.y);
    // One stroke up from each open, drawable point; the bounded one has none.
    expect(d).toBe(`M13.0,40.0v-${OPEN_END_PX}M16.0,42.3v-${OPEN_END_PX}`);
    expect(openEndPath(pts, () => false, (p) => p.x, (p) => p.y)).toBe('');
    expect(openEndPath([{ x: 1, y: 2 }], () => true, (p) => p.x, (p) => p.y, 6)).toBe('M1.0,2.0v-6');
  });
  it('group index by label or number', () => {
    expect(groupIndex(result, 'host=b')).toBe(1);
    expect(groupIndex(result, 1)).toBe(1);
  });
  it('an answer without bands ({bands: false}) gives points without them; another answer\'s group by name', () => {
    const bare = { ...result, bands: false, rows: result.rows.map(({ err: _err, ...row }) => row) };
    expect(pointAt(bare, { kind: 'p', gi: 0, pi: 1 }, 0)).toEqual({ t: 0, v: 50, e: 0, lo: null, hi: null });
    expect(pointAt(result, { kind: 'p', gi: 0, pi: 1 }, 0)).toEqual({ t: 0, v: 50, e: 8, lo: null, hi: null });
    const part = { ...result, groups: ['host=b'], rows: [result.rows[1]] };
    expect(groupIn(part, 'host=b')).toBe(0);
    expect(groupIn(part, 'host=a')).toBe(-1);
    expect(pointAt(part, { kind: 'p', gi: groupIn(part, 'host=b'), pi: 0 }, 0)).toEqual({ t: 0, v: 5, e: 1, lo: null, hi: null });
  });
  it('SLA: quanta with any value above the lowest threshold', () => {
    const v = slaViolations(result, [200, 80]);
    expect(v.map((x) => x.t)).toEqual([0, 1000]);
    expect(v[0].points.map((p) => p.v)).toEqual([90]);
    expect(v[1].points.map((p) => p.v)).toEqual([250, 300]);
    expect(slaViolations(result, [])).toEqual([]);
    expect(slaViolations(result, [1000])).toEqual([]);
  });
  it('few-sample flags, merged per quantum', () => {
    expect(fewFlagged(result)).toEqual([
      { t: 0, which: 'p99' },
      { t: 1000, which: 'p99.9, p99.99' },
    ]);
  });
  it('finer flag: a quantum shorter than a log window (docs/quanta.md)', () => {
    expect(anyFiner(result)).toBe(false);
    expect(anyFiner({ rows: [{ t_ms: 0, flags: 'few:p99;finer' }] })).toBe(true);
    expect(anyFiner({ rows: [{ t_ms: 0, flags: 'partial' }] })).toBe(false);
    expect(anyFiner(null)).toBe(false);
  });
  it('decimation keeps spikes and gaps, at most 2 points per pixel column', () => {
    const pts = [];
    for (let t = 0; t < 10000; t++) pts.push({ t, v: t === 4321 ? 1000 : t === 7000 ? null : 5 + (t % 3), e: 0 });
    const d = decimate(pts, (t) => t / 100, 100);
    expect(d.length).toBeLessThanOrEqual(2 * 100 + 2);
    expect(d.some((p) => p.v === 1000 && p.t === 4321)).toBe(true);
    expect(d.some((p) => p.v === null && p.t === 7000)).toBe(true);
    for (let i = 1; i < d.length; i++) expect(d[i].t).toBeGreaterThan(d[i - 1].t);
    const few = pts.slice(0, 80);
    expect(decimate(few, (t) => t, 100)).toBe(few);
  });
  it('runs of consecutive quanta', () => {
    expect(runsOf([0, 1000, 2000, 5000, 6000, 9000], 1000)).toEqual([
      [0, 3000],
      [5000, 7000],
      [9000, 10000],
    ]);
    expect(runsOf([], 1000)).toEqual([]);
  });
  it('value range: the percentiles (and means) of the rows in the time range, lowest above 0', () => {
    const all = valueRange(result, [0, 2000], false);
    const inRange = /** @type {number[]} */ (result.rows.flatMap((r) => r.p).filter((v) => v != null));
    expect(all).toEqual([Math.min(...inRange.filter((v) => v > 0)), Math.max(...inRange)]);
    const first = result.rows.filter((r) => r.t_ms === 0);
    const firstP = /** @type {number[]} */ (first.flatMap((r) => r.p).filter((v) => v != null && v > 0));
    expect(valueRange(result, [0, 1000], false)).toEqual([Math.min(...firstP), Math.max(...firstP)]);
    // the means count when shown
    const firstPM = firstP.concat(first.map((r) => /** @type {number} */ (r.mean)));
    expect(valueRange(result, [0, 1000], true)).toEqual([Math.min(...firstPM), Math.max(...firstPM)]);
    expect(valueRange(result, [5000, 6000], true)).toEqual([Infinity, 0]);
    const lowMean = { ...result, rows: [{ ...result.rows[0], mean: 0.5 }] };
    expect(valueRange(lowMean, [0, 1000], true)).toEqual([0.5, 90]);
    expect(valueRange(lowMean, [0, 1000], false)).toEqual([4, 90]);
  });
  it('value range on fixed quanta equals a test of every row, for any range', () => {
    const { r, rows, rnd } = manyRows();
    /** @param {[number, number]} dom @param {boolean} m */
    const reference = (dom, m) => {
      const vs = rows.filter((x) => x.t_ms + 1000 > dom[0] && x.t_ms < dom[1]).flatMap((x) => (m ? [...x.p, x.mean] : x.p));
      const ok = /** @type {number[]} */ (vs.filter((v) => v != null));
      return [Math.min(Infinity, ...ok.filter((v) => v > 0)), Math.max(0, ...ok)];
    };
    /** @type {[number, number][]} */
    const doms = [[-5000, -1000], [-1000, 0], [0, 1], [999, 1000], [1000, 1000.5], [2500.5, 7000], [59000, 61000], [70000, 80000], [-1e9, 1e9]];
    for (let k = 0; k < 200; k++) {
      const a = rnd() * 62000 - 1000;
      doms.push([a, a + rnd() * 20000]);
    }
    for (const d of doms) for (const m of [false, true]) expect(valueRange(r, d, m), `${d} ${m}`).toEqual(reference(d, m));
  });
  it('IOPS strip: per quantum the sum over the kept groups, near the range', () => {
    const { r, rows } = manyRows();
    const c = cols(r);
    for (const keep of [null, (/** @type {number} */ g) => g !== 1, () => false]) {
      for (const dom of /** @type {[number, number][]} */ ([[0, 60000], [10500, 20000], [-9000, -5000], [58000, 90000]])) {
        /** @type {Map<number, number>} */
        const want = new Map();
        for (const x of rows) {
          const gi = r.groups.indexOf(x.group);
          if (x.t_ms < dom[0] - 2000 || x.t_ms > dom[1] + 1000 || (keep && !keep(gi))) continue;
          want.set(x.t_ms, (want.get(x.t_ms) ?? 0) + x.samples);
        }
        const got = aggregateIops(c, dom, keep);
        expect(got.map((d) => [d.t, d.v]), `${dom}`).toEqual([...want].map(([t, v]) => [t, v]));
      }
    }
  });
  it('time extent covers the last quantum', () => {
    expect(timeExtent(result)).toEqual([0, 2000]);
    expect(timeExtent({ rows: [] })).toBe(null);
  });
});

const hm = {
  t0_ms: 1000,
  quantum_ms: 500,
  quanta: 2,
  rows: 3,
  edges_ns: [1000, 10000, 100000, 1000000],
  below: 0,
  above: 0,
  counts: new Float64Array([30, 10, 0, 0, 5, 15]),
};

describe('heat map data', () => {
  it('cell under a point: ranges, count, share of column, IOPS', () => {
    const c = cellAt(hm, 1200, 20000);
    expect(c).toMatchObject({ q: 0, r: 1, t0: 1000, t1: 1500, lo: 10000, hi: 100000, count: 10 });
    expect(c?.share).toBeCloseTo(0.25, 12);
    expect(c?.iops).toBeCloseTo(20, 12);
    expect(cellAt(hm, 999, 20000)).toBe(null);
    expect(cellAt(hm, 1200, 5e6)).toBe(null);
    expect(cellAt(hm, 1700, 500000)?.count).toBe(15);
  });
  it('row panel: each row\'s I/Os per second over the range, a quantum partly in it by its share; time without quanta does not dilute', () => {
    // Quanta [1000, 1500) and [1500, 2000): rows 0..2 hold 30,10,0 and 0,5,15.
    let r = rowRates(hm, [1000, 2000]);
    expect(Array.from(r.rates)).toEqual([30, 15, 15]);
    expect([r.total, r.seconds]).toEqual([60, 1]);
    // Half of the second quantum: [1000, 1750) holds 30, 10 + 2.5, 7.5 over 0.75 s.
    r = rowRates(hm, [1000, 1750]);
    expect(Array.from(r.rates).map((x) => +x.toFixed(9))).toEqual([40, 50 / 3, 10].map((x) => +x.toFixed(9)));
    // A range reaching past the data counts the data's time only.
    expect(rowRates(hm, [0, 10000]).seconds).toBe(1);
    expect(rowRates(hm, [5000, 6000])).toEqual({ rates: new Float64Array(3), total: 0, seconds: 0 });
  });
});

describe('surface and spectrum data', () => {
  it('grid: level-major values of one group with gaps', () => {
    const g = surfaceGrid(result, 1);
    expect(g.quanta).toBe(2);
    expect(g.values).toEqual([
      [5, 6],
      [60, 250],
      [70, 300],
    ]);
    expect([g.lo, g.hi]).toEqual([5, 300]);
    const a = surfaceGrid(result, 0);
    expect(a.values[0]).toEqual([4, null]);
  });
  it('nearest level', () => {
    expect(nearestLevel([50, 90, 99, 99.9], 98)).toBe(2);
    expect(nearestLevel([50, 90, 99, 99.9], 10)).toBe(0);
  });
  it('spectrum curves: tail coordinate per percentile, max apart', () => {
    const r = { ...result, rows: result.rows.filter((x) => x.t_ms === 0) };
    const c = spectrumCurves(r);
    expect(c[0].points.map((p) => p.p)).toEqual([50, 99]);
    expect(c[0].points[1].u).toBeCloseTo(2, 12);
    expect(c[0].max).toBe(90);
    expect(c.map((x) => [x.group, x.points.map((p) => [p.p, p.v]), x.max])).toEqual([
      ['host=a', [[50, 4], [99, 50]], 90],
      ['host=b', [[50, 5], [99, 60]], 70],
    ]);
  });
});
