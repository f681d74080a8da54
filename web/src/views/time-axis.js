// Time scales for the time views. Times are ms: since run start for relative
// logs, epoch ms when the logs carry log_unix_epoch timestamps.
import * as d3 from 'd3';
import { formatRelative } from '../util/format.js';

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
  // Ticks on whole seconds/minutes so labels read "1 min 30 s" rather than "90000".
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

/** Axis generator for a scale made by timeScale. */
export function timeAxis(/** @type {any} */ scale) {
  const ax = d3.axisBottom(scale.axisScale);
  if (scale.tickValues) ax.tickValues(scale.tickValues).tickFormat(scale.tickFormat);
  else ax.ticks(8);
  return ax;
}

