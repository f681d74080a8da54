// The words of an SLA rule that the views draw with: its label, the rules
// it stands for against a result's percentiles, and the CLI's comparison
// (docs/ci-reports.md, core/src/report/sla.cc). Parsing and judging a whole
// result are the app's (app/sla.js); the views get parsed rules as data.
import { formatNumber } from '../util/format.js';
import { unitLabel } from './units.js';
import { percentileName } from './percentiles.js';

/**
 * @typedef {object} SlaRule
 * @property {string} text       normalised: "p99<2ms", "max<=1s", "<=500us" (every shown percentile)
 * @property {string} what       "p99", "p99.9", "max" or "" (every shown percentile)
 * @property {number | null} p   the percentile; null for max and for ""
 * @property {boolean} strict    '<' (else '<=')
 * @property {number} threshold  in `unit`
 * @property {string} unit       ns, us, ms or s
 * @property {number} thresholdNs
 */

/** "p99 < 2 ms", for the summary and the chart's labels. @param {SlaRule} r */
export function ruleLabel(r) {
  return `${r.what ? `${r.what} ` : ''}${r.strict ? '<' : '≤'} ${formatNumber(r.threshold)} ${unitLabel(r.unit)}`;
}

/**
 * The rules against the percentiles of a result: a rule without WHAT stands
 * for one rule per shown percentile; a rule on a percentile the result
 * lacks is kept with pi -1 (nothing to judge: the summary says so).
 * @param {SlaRule[]} rules @param {string[]} percentiles the result's
 * @returns {(SlaRule & {pi: number, max: boolean})[]} pi: index into row.p
 */
export function expandRules(rules, percentiles) {
  /** @type {(SlaRule & {pi: number, max: boolean})[]} */
  const out = [];
  for (const r of rules) {
    if (r.what === 'max') out.push({ ...r, pi: -1, max: true });
    else if (r.p === null) {
      percentiles.forEach((ps, pi) => out.push({ ...r, what: percentileName(ps) === 'max' ? 'p100' : `p${ps}`, p: Number(ps), pi, max: false }));
    } else out.push({ ...r, pi: percentiles.findIndex((ps) => Number(ps) === r.p), max: false });
  }
  return out;
}

/**
 * Whether a value violates a rule: the CLI's comparison, !(v < t) or !(v <= t).
 * @param {number} v @param {{strict: boolean}} rule @param {number} t threshold in v's unit
 */
export function violates(v, rule, t) {
  return rule.strict ? !(v < t) : !(v <= t);
}
