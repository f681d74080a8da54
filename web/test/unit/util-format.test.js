// The page's one number formatter (util/format.js): each named function
// says its numbers exactly as the page showed them before they were
// gathered here (the end-to-end tests compare these texts).
import { describe, it, expect } from 'vitest';
import * as f from '../../src/util/format.js';

describe('util/format: sizes', () => {
  it('binary bytes for memory and block sizes, decimal for the progress line', () => {
    expect([f.formatBytes(4096), f.formatBytes(1572864), f.formatBytes(100)]).toEqual(['4 KiB', '1.5 MiB', '100 B']);
    expect([f.formatDecimalBytes(999), f.formatDecimalBytes(1234), f.formatDecimalBytes(12345678), f.formatDecimalBytes(1.5e9)]).toEqual(['999 B', '1.2 kB', '12.3 MB', '1.50 GB']);
  });
  it('a link in KB, a limit with its exact figure, a read in MiB', () => {
    expect([f.formatKB(1000), f.formatKB(65536)]).toEqual(['1000 bytes', '64.0 KB']);
    expect([f.formatBytesExact(512), f.formatBytesExact(1536000)]).toEqual(['512 bytes', '1536000 bytes (1.5 MB)']);
    expect(f.formatMiB(1572864)).toBe('1.5');
  });
});

describe('util/format: counts, shares, CSV', () => {
  it('a change in percent, signed', () => {
    expect(f.formatChange(81.2)).toBe('+81.2%');
    expect(f.formatChange(-16.21)).toBe('−16.2%');
    expect(f.formatChange(104.9)).toBe('+105%');
    expect(f.formatChange(0)).toBe('0%');
    expect(f.formatChange(NaN)).toBe('–');
  });
  it('a number of quanta: singular for one ("1 quanta" read wrong)', () => {
    expect(f.formatQuanta(1)).toBe('1 quantum');
    expect(f.formatQuanta(0)).toBe('0 quanta');
    expect(f.formatQuanta(2)).toBe('2 quanta');
    expect(f.formatQuanta(12345)).toBe('12,345 quanta');
  });
  it('whole counts with separators, SI axis labels, shares to a tenth', () => {
    expect(f.formatCount(12345.6)).toBe('12,346');
    expect(f.formatSI(1500)).toBe('1.5k');
    expect(f.formatPercentOf(0.1234)).toBe('12.3');
  });
});

describe('util/format: times', () => {
  it('quanta, countdowns, seconds of a load', () => {
    expect([500, 1000, 60000, 90000].map(f.formatQuantum)).toEqual(['500 ms', '1 s', '1 min', '1.5 min']);
    expect([f.formatMinSec(75), f.formatMinSec(5)]).toEqual(['1:15', '0:05']);
    expect(f.formatSecondsOfMs(1234)).toBe('1.2');
  });
  it('latency bounds to three digits, hover times relative or UTC', () => {
    expect([f.compactNs(1234567), f.compactNs(1500), f.compactNs(12)]).toEqual(['1.23 ms', '1.5 µs', '12 ns']);
    expect(f.formatTime(61500, false)).toBe('1 min 1.500 s');  // the half second kept
    expect(f.formatTime(0, true)).toBe('1970-01-01 00:00:00.000 UTC');
  });
});
