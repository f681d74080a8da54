// Time scales for the time views. Times are ms: since run start for relative
// logs, epoch ms when the logs carry log_unix_epoch timestamps.
import * as d3 from 'd3';

/**
 * @param {boolean} absolute epoch ms?
 * @param {[number, number]} domain ms
 * @param {[number, number]} range px
 */
export function timeScale(absolute, domain, range) {
  if (absolute) {
    const s = d3.scaleUtc().domain(domain.map((t) => new Date(t))).range(range);
    const f = (/** @type {number} */ t) => s(new Date(t));
    f.invert = (/** @type {number} */ px) => +s.invert(px);
    f.domain = () => s.domain().map((d) => +d);
    f.range = () => s.range();
    f.axisScale = s;
    f.tickFormat = /** @type {((t: number) => string) | null} */ (null);
    return f;
  }
  const s = d3.scaleLinear().domain(domain).range(range);
  const f = (/** @type {number} */ t) => s(t);
  f.invert = (/** @type {number} */ px) => s.invert(px);
  f.domain = () => s.domain();
  f.range = () => s.range();
  // Ticks on whole seconds/minutes so labels read "1:30" rather than "90000".
  const span = domain[1] - domain[0];
  const step = niceTimeStep(span / 8);
  const ticks = [];
  for (let t = Math.ceil(domain[0] / step) * step; t <= domain[1] + 1e-9; t += step) ticks.push(t);
  f.axisScale = s;
  f.tickValues = ticks;
  f.tickFormat = (/** @type {number} */ t) => formatRelative(t, step);
  return f;
}

/** Smallest "nice" step (ms) >= raw. @param {number} raw */
export function niceTimeStep(raw) {
  const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5, 108e5, 216e5, 432e5, 864e5];
  for (const s of steps) if (s >= raw) return s;
  return Math.ceil(raw / 864e5) * 864e5;
}

/**
 * "12.5 s" below a minute, "m:ss" below an hour, "h:mm:ss" beyond.
 * @param {number} ms @param {number} [step] tick step, decides decimals
 */
export function formatRelative(ms, step = 1000) {
  const neg = ms < 0 ? '-' : '';
  const a = Math.abs(ms);
  if (a < 60000 && step < 60000) {
    const dec = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
    return `${neg}${(a / 1000).toFixed(dec)} s`;
  }
  const s = Math.round(a / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${neg}${h}:${String(m).padStart(2, '0')}:${sec}` : `${neg}${m}:${sec}`;
}

/** Axis generator for a scale made by timeScale. */
export function timeAxis(/** @type {any} */ scale) {
  const ax = d3.axisBottom(scale.axisScale);
  if (scale.tickValues) ax.tickValues(scale.tickValues).tickFormat(scale.tickFormat);
  else ax.ticks(8);
  return ax;
}

/** Hover text for a time. @param {number} ms @param {boolean} absolute */
export function formatTime(ms, absolute) {
  if (absolute) return d3.utcFormat('%Y-%m-%d %H:%M:%S.%L')(new Date(ms)) + ' UTC';
  return formatRelative(ms, 1);
}
