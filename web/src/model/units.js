// Latency units as the page names them: ns, us (shown as µs), ms; the
// engine's rows carry values in one of them (docs/model.md, units).
import { formatNumber } from '../util/format.js';

/** ns per display unit. @param {string} unit */
export function unitScale(unit) {
  return unit === 'ns' ? 1 : unit === 'ms' ? 1e6 : 1e3;
}

/** Display symbol of a unit. @param {string} unit */
export function unitLabel(unit) {
  return unit === 'us' ? 'µs' : unit;
}

/**
 * Latency in the chosen display unit, the unit named once: 2500 ns in µs ->
 * "2.5 µs". Tooltips use it so they read in the axis' unit.
 * @param {number} ns @param {string} unit ns|us|ms
 */
export function formatInUnit(ns, unit) {
  return `${formatNumber(ns / unitScale(unit))} ${unitLabel(unit)}`;
}
