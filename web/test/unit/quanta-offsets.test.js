// Quanta and offsets in the page (the default quantum is core's: tests/default_quantum_test.cc):
// own offset in a narrow cell, adaptive quanta drawn as steps.
import { describe, it, expect } from 'vitest';
import { pctilesOptions, heatmapOptions, pctilesAreCluster, columnsAsk } from '../../src/app/queries.js';
import { columnTip } from '../../src/views/pctiles-hover.js';
import { initialState } from '../../src/app/state.js';
import { stepPoints, stepMids, rowAt, adaptiveIops, fewSpans, timeExtent } from '../../src/views/pctiles-data.js';
import { compactMs } from '../../src/util/format.js';

describe('file offsets', () => {
  it('compactMs fits the offset cell', () => {
    expect(compactMs(0)).toBe('0');
    expect(compactMs(-250)).toBe('-250');
    expect(compactMs(1500)).toBe('1.5s');
    expect(compactMs(20000)).toBe('20s');
    expect(compactMs(-120000)).toBe('-2m');
  });
});

describe('adaptive quanta', () => {
  it('only the percentiles query asks for them; the heat map keeps fixed quanta and its own lines', () => {
    const s = { ...initialState(), adaptive: 0.25 };
    expect(pctilesOptions(s).adaptive_accuracy).toBe(0.25);
    expect(pctilesOptions(initialState())).not.toHaveProperty('adaptive_accuracy');
    expect(heatmapOptions(s, 64, null)).not.toHaveProperty('adaptive_accuracy');
    expect(pctilesAreCluster(s)).toBe(false);
  });
  const r = {
    adaptive: true,
    quantum_ms: 1000,
    percentiles: ['99'],
    groups: ['host=a', 'host=b'],
    rows: [
      { t_ms: 0, width_ms: 3000, group: 'host=a', samples: 300, mean: 5, p: [9], flags: '' },
      { t_ms: 0, width_ms: 1000, group: 'host=b', samples: 100, mean: 6, p: [8], flags: '' },
      { t_ms: 1000, width_ms: 1000, group: 'host=b', samples: 200, mean: 6, p: [7], flags: 'few:p99' },
      { t_ms: 3000, width_ms: 2000, group: 'host=a', samples: 100, mean: 5, p: [4], flags: '' },
    ],
  };
  it('a series is one step per row, broken where rows leave a gap', () => {
    const a = stepPoints(r, { kind: 'p', gi: 0, pi: 0 }, 0, 10000);
    expect(a.map((p) => [p.t, p.v])).toEqual([[0, 9], [3000, 9], [3000, 4], [5000, 4]]);
    const b = stepPoints(r, { kind: 'p', gi: 1, pi: 0 }, 0, 10000);
    expect(b.map((p) => [p.t, p.v])).toEqual([[0, 8], [1000, 8], [1000, 7], [2000, 7]]);
    const gap = stepPoints({ ...r, groups: ['all'], rows: [r.rows[1], r.rows[3]] }, { kind: 'p', gi: 0, pi: 0 }, 0, 10000);
    expect(gap.map((p) => [p.t, p.v])).toEqual([[0, 8], [1000, 8], [1000, null], [3000, 4], [5000, 4]]);
    expect(stepPoints(r, { kind: 'p', gi: 0, pi: 0 }, 3500, 4000).map((p) => p.t)).toEqual([3000, 5000]);
    // One point per row at its middle (open-band marks), the gap skipped.
    expect(stepMids(a).map((p) => [p.t, p.v])).toEqual([[1500, 9], [4000, 4]]);
    expect(stepMids(gap).map((p) => [p.t, p.v])).toEqual([[500, 8], [4000, 4]]);
    // Rows of equal value stay two rows.
    const same = stepPoints({ ...r, groups: ['all'], rows: [r.rows[1], { ...r.rows[2], p: [8] }] }, { kind: 'p', gi: 0, pi: 0 }, 0, 10000);
    expect(stepMids(same).map((p) => p.t)).toEqual([500, 1500]);
    expect(stepMids([])).toEqual([]);
  });
  it('hover finds the row holding a time; IOPS sum rows of different widths; extent ends at the last row end', () => {
    expect(rowAt(r, 0, 2999)?.t_ms).toBe(0);
    expect(rowAt(r, 0, 3000)?.t_ms).toBe(3000);
    expect(rowAt(r, 1, 2500)).toBeNull();
    // a: 100/s over [0, 3 s), 50/s over [3, 5 s); b: 100/s then 200/s.
    const io = adaptiveIops(r);
    expect(io.map((p) => [p.t, p.v])).toEqual([[0, 200], [1000, 200], [1000, 300], [2000, 300], [2000, 100], [3000, 100], [3000, 50], [5000, 50]]);
    expect(fewSpans(r)).toEqual([[1000, 2000]]);
    expect(timeExtent(r)).toEqual([0, 5000]);
  });
});

// docs/page-views.md, "Worst quantum per column".
describe('worst quantum per pixel column', () => {
  const s = { ...initialState(), quantum_ms: 1000 };
  it('is asked when the visible quanta outnumber the points the chart draws (two a pixel column), over the visible range', () => {
    // 1 h at 1 s over 1,400 columns: 3,600 quanta.
    expect(columnsAsk(s, [0, 3600e3], 1400.7)).toEqual({ from_ms: 0, to_ms: 3600e3, columns: 1400, bands: false });
    // Zoomed to 20 min over 500 columns: the zoom's range.
    expect(columnsAsk({ ...s, range: [600e3, 1800e3] }, [0, 3600e3], 500)).toEqual({ from_ms: 600e3, to_ms: 1800e3, columns: 500, bands: false });
  });
  it('is not asked when the chart draws every quantum, with adaptive quanta, or without a range', () => {
    // 2,800 quanta over 1,400 columns: two a column, each drawn (the lowest and highest).
    expect(columnsAsk(s, [0, 2800e3], 1400)).toBeNull();
    expect(columnsAsk({ ...s, range: [600e3, 1800e3] }, [0, 3600e3], 600)).toBeNull();
    expect(columnsAsk({ ...s, range: [0, 600e3] }, [0, 3600e3], 1400)).toBeNull();
    expect(columnsAsk({ ...s, adaptive: 0.5 }, [0, 3600e3], 1400)).toBeNull();
    expect(columnsAsk(s, null, 1400)).toBeNull();
    expect(columnsAsk(s, [0, 3600e3], 0)).toBeNull();
  });
  it('the hover names, per line, the quantum its column kept', () => {
    // Two columns of 10 s over 0..20 s; column 0 kept the quanta at 3 s (p50 highest) and 7 s (p99 highest).
    const row = (/** @type {number} */ t, /** @type {number[]} */ p) => ({ t_ms: t, group: 'all', samples: 100, min: 1, mean: 5, max: 90, p, flags: '' });
    const r = { quantum_ms: 1000, absolute_time: false, unit: 'us', groups: ['all'], percentiles: ['50', '99'], rows: [row(3000, [9, 20]), row(7000, [5, 40]), row(12000, [1, 2])] };
    /** @param {number} pi */
    const se = (pi) => ({ kind: 'p', gi: 0, pi, label: `p${r.percentiles[pi]}` });
    const tip = columnTip(r, [se(0), se(1)], 4000, { columns: 2, from_ms: 0, to_ms: 20000 });
    expect(tip[0]).toMatch(/^column .*: each line's worst 1000 ms quantum$/);
    expect(tip[1]).toMatch(/^p50: 9 .*\(quantum 3.000 s\)$/);
    expect(tip[2]).toMatch(/^p99: 40 .*\(quantum 7.000 s\)$/);
    expect(columnTip(r, [se(1)], 15000, { columns: 2, from_ms: 0, to_ms: 20000 })[1]).toMatch(/^p99: 2 .*\(quantum 12.000 s\)$/);
  });
});
