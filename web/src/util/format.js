// The page's one number formatter: every number the page shows as text
// (ticks, tooltips, labels, status lines, file table, exports' names) is
// worded here, one named function per way of saying it, so a text is said
// the same way wherever it appears. No DOM; the tests compare these texts.
import { format as d3Format, utcFormat } from 'd3';

const wholeWithCommas = d3Format(',.0f');
const siPrefix = d3Format('~s');
const utcStamp = utcFormat('%Y-%m-%d %H:%M:%S.%L');

/**
 * What the charts show (ticks, tooltips, labels): three significant digits
 * below 100, whole numbers with thousands separators from 100 up.
 * 0.000123 -> "0.000123", 12.345 -> "12.3", 1234.5 -> "1,235".
 * @param {number} v @returns {string}
 */
export function formatNumber(v) {
  if (!Number.isFinite(v)) return '–';
  return Math.abs(v) >= 100 ? wholeWithCommas(v) : String(+v.toPrecision(3));
}

/** A count of samples or I/Os, whole, with thousands separators: 12345.6 -> "12,346". @param {number} n */
export function formatCount(n) {
  return wholeWithCommas(n);
}

/** A number of quanta with its noun: 1 -> "1 quantum", 1234 -> "1,234 quanta". @param {number} n */
export function formatQuanta(n) {
  return `${wholeWithCommas(n)} ${n === 1 ? 'quantum' : 'quanta'}`;
}

/** 1234567 -> "1,234,567" (toLocaleString is slow: ICU per call). @param {number} n */
export function thousands(n) {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Record counts in a narrow column: 12,345 -> "12.3k" (the tooltip has all digits). @param {string} text thousands-separated */
export function compactCount(text) {
  const n = Number(String(text).replace(/,/g, ''));
  if (!Number.isFinite(n) || n < 10000) return text;
  const [v, u] = n >= 1e9 ? [n / 1e9, 'G'] : n >= 1e6 ? [n / 1e6, 'M'] : [n / 1e3, 'k'];
  return `${+v.toPrecision(3)}${u}`;
}

/** An axis of counts with SI prefixes: 1500 -> "1.5k". @param {number} v */
export function formatSI(v) {
  return siPrefix(v);
}

/**
 * Shortest decimal that keeps the nines: 99.94999 -> "99.95", 50 -> "50".
 * @param {number} p @returns {string}
 */
export function formatPercentile(p) {
  if (p >= 100) return '100';
  // Digits that show the distance to 100 with 3 significant figures, so
  // levels spaced on the tail axis stay within 1% of their place.
  const digits = Math.max(0, Math.min(9, Math.ceil(-Math.log10(100 - p)) + 2));
  return String(Number(p.toFixed(digits)));
}

/**
 * Short latency text with an adaptive unit: 1234567 ns -> "1.23 ms".
 * @param {number} ns @returns {string}
 */
export function formatLatency(ns) {
  if (!Number.isFinite(ns)) return '–';
  const a = Math.abs(ns);
  if (a >= 1e9) return `${formatNumber(ns / 1e9)} s`;
  if (a >= 1e6) return `${formatNumber(ns / 1e6)} ms`;
  if (a >= 1e3) return `${formatNumber(ns / 1e3)} µs`;
  return `${formatNumber(ns)} ns`;
}

/** A latency grid's bounds, three significant digits: 1234567 -> "1.23 ms". @param {number} ns */
export function compactNs(ns) {
  return ns >= 1e6 ? `${+(ns / 1e6).toPrecision(3)} ms` : ns >= 1e3 ? `${+(ns / 1e3).toPrecision(3)} µs` : `${+ns.toPrecision(3)} ns`;
}

/** A quantum (the selector, the status): 500 -> "500 ms", 1000 -> "1 s", 60000 -> "1 min". @param {number} ms */
export function formatQuantum(ms) {
  return ms < 1000 ? `${ms} ms` : ms < 60000 ? `${ms / 1000} s` : `${ms / 60000} min`;
}

/** An offset in a narrow cell: 1500 -> "1.5s", -250 -> "-250", 120000 -> "2m". @param {number} ms */
export function compactMs(ms) {
  const a = Math.abs(ms);
  if (a < 1000) return String(ms);
  if (a < 60000) return `${+(ms / 1000).toPrecision(3)}s`;
  return `${+(ms / 60000).toPrecision(3)}m`;
}

/** Seconds to one decimal, as the status line's "in 1.2 s": 1234 ms -> "1.2". @param {number} ms */
export function formatSecondsOfMs(ms) {
  return (ms / 1000).toFixed(1);
}

/**
 * A relative change in percent, signed, three significant digits as the
 * charts: 81.2 -> "+81.2%", -16.21 -> "−16.2%", 0 -> "0%".
 * @param {number} pct
 */
export function formatChange(pct) {
  if (!Number.isFinite(pct)) return '–';
  const t = formatNumber(Math.abs(pct));
  return pct > 0 ? `+${t}%` : pct < 0 ? `−${t}%` : '0%';
}

/** A share as a percentage to one decimal: 0.1234 -> "12.3". @param {number} fraction */
export function formatPercentOf(fraction) {
  return (100 * fraction).toFixed(1);
}

/** A countdown: 75 s -> "1:15". @param {number} s whole seconds */
export function formatMinSec(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Time since the run's start, as a duration with its units: "12.5 s" below a
 * minute, "1 min 30 s", "1 h 2 min 3 s", "2 d 4 h" beyond; parts that are
 * zero are left out ("10 min", "1 h"). Clock-like "10:00" read as ten
 * o'clock on a relative axis; a duration cannot be misread.
 * @param {number} ms @param {number} [step] tick step (or 1 for hover
 *   text), decides the decimals of the seconds
 */
export function formatRelative(ms, step = 1000) {
  const neg = ms < 0 ? '-' : '';
  const dec = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
  // Rounded once, to the decimals shown, so "59.9996 s" is "1 min", not "60.000 s".
  const unit = 10 ** (3 - dec);
  const a = Math.round(Math.abs(ms) / unit) * unit;
  if (a < 60000) return `${neg}${(a / 1000).toFixed(dec)} s`;
  const sParts = a % 60000;
  const parts = [];
  const whole = Math.floor(a / 60000);  // minutes
  const d = Math.floor(whole / 1440), h = Math.floor((whole % 1440) / 60), m = whole % 60;
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (sParts) parts.push(`${(sParts / 1000).toFixed(dec)} s`);
  return neg + parts.join(' ');
}

/** Hover text for a time: epoch ms as UTC, else since the run's start. @param {number} ms @param {boolean} absolute */
export function formatTime(ms, absolute) {
  if (absolute) return utcStamp(new Date(ms)) + ' UTC';
  return formatRelative(ms, 1);
}

/**
 * Bytes in binary units (memory, block sizes): 4096 -> "4 KiB", 1572864 -> "1.5 MiB".
 * @param {number} b @returns {string}
 */
export function formatBytes(b) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number(v.toPrecision(3))} ${units[i]}`;
}

/** Bytes in decimal units, as the progress line counts them: 12345678 -> "12.3 MB". @param {number} n */
export function formatDecimalBytes(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}

/** A size limit's figure with its decimal reading: 1536000 -> "1536000 bytes (1.5 MB)". @param {number} n */
export function formatBytesExact(n) {
  if (n < 1e3) return `${n} bytes`;
  /** @type {[string, number]} */
  const u = n < 1e6 ? ['KB', 1e3] : n < 1e9 ? ['MB', 1e6] : ['GB', 1e9];
  return `${n} bytes (${(n / u[1]).toFixed(1)} ${u[0]})`;
}

/** A link's length: 65536 -> "64.0 KB". @param {number} n */
export function formatKB(n) {
  return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`;
}

/** Bytes read of a file, in MiB to one decimal: 1572864 -> "1.5". @param {number} n */
export function formatMiB(n) {
  return (n / 1048576).toFixed(1);
}
