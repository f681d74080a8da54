// SLA rules in the page, with the CLI's semantics (docs/ci-reports.md,
// core/src/report/sla.cc): a rule `p99<2ms` holds in a row (group x quantum)
// when the row's p99 < 2 ms (`<=`: <=); rows without samples (flag empty)
// and rows of fio window averages (flag avg) are not judged; rows with few
// samples are. So the page's counts equal `latscope pctiles --sla` on the
// same files and options. The page also reads a threshold without a unit in
// the displayed unit, and a rule without WHAT ("2ms") as one rule per shown
// percentile (docs/page-views.md "SLA").
import { toColumns } from '../engine/columns.js';
import { formatNumber } from '../util/format.js';
import { ruleLabel, expandRules, violates } from '../model/sla-rules.js';

/** ns per unit, as the CLI's rules accept them. @type {Record<string, number>} */
const UNIT_NS = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

/** @typedef {import('../model/sla-rules.js').SlaRule} SlaRule */

/**
 * Parses one rule: `[WHAT] [OP] NUMBER [UNIT]`, blanks ignored. WHAT is
 * p<P> (P in [0, 100]) or max (absent: every shown percentile); OP is <= or
 * < (absent: <=); UNIT is ns, us (or µs), ms or s (absent: defaultUnit).
 * Throws a sentence naming the rule.
 * @param {string} text @param {string} defaultUnit the displayed unit
 * @returns {SlaRule}
 */
export function parseSlaRule(text, defaultUnit) {
  const t = text.replace(/\s+/g, '').replace(/µs/g, 'us');
  const m = /^(p\d+(?:\.\d+)?|max)?(<=|<)?(\d+(?:\.\d+)?|\.\d+)(ns|us|ms|s)?$/i.exec(t);
  if (!m) throw new Error(`"${text.trim()}" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s`);
  const what = (m[1] || '').toLowerCase();
  let p = null;
  if (what && what !== 'max') {
    p = Number(what.slice(1));
    if (!(p >= 0 && p <= 100)) throw new Error(`"${text.trim()}": ${what} is not a percentile between 0 and 100`);
  }
  const strict = m[2] === '<';
  const unit = (m[4] || defaultUnit).toLowerCase();
  const threshold = Number(m[3]);
  if (!(threshold > 0) || !UNIT_NS[unit]) throw new Error(`"${text.trim()}": the threshold must be a positive number of ns, us, ms or s`);
  return { text: `${what}${strict ? '<' : '<='}${m[3]}${unit}`, what, p, strict, threshold, unit, thresholdNs: threshold * UNIT_NS[unit] };
}

/**
 * A comma- or semicolon-separated list of rules (the SLA field).
 * @param {string} text @param {string} defaultUnit
 * @returns {SlaRule[]}
 */
export function parseSlaList(text, defaultUnit) {
  return text
    .split(/[,;]/)
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => parseSlaRule(x, defaultUnit));
}

/**
 * @typedef {object} SlaOutcome
 * @property {string} group
 * @property {number} evaluated  quanta judged
 * @property {number} violated
 * @property {number} few        judged quanta flagged few for the percentile
 *   (which quanta violate is the percentiles view's shading, pctiles-view.js)
 */

/**
 * Judges every rule on every row of a query result (the rows the
 * percentiles view shows), per group and summed.
 * @param {any} r engine query result (values in r.unit)
 * @param {SlaRule[]} rules
 * @returns {{rule: SlaRule & {pi: number, max: boolean}, groups: SlaOutcome[], total: SlaOutcome}[]}
 */
export function evaluateSla(r, rules) {
  // Columns (engine/columns.js): with hundreds of groups the rows are read
  // in place, not as objects.
  const c = toColumns(r);
  const scale = UNIT_NS[c.unit] || 1e3;
  const P = c.percentiles.length;
  // Per flag text: skipped (empty, window averages) and the percentiles it calls "few".
  const skip = c.flag_texts.map((/** @type {string} */ t) => t.split(';').some((f) => f === 'empty' || f === 'avg'));
  const few = c.flag_texts.map((/** @type {string} */ t) => t.split(';').filter((f) => f.startsWith('few:')).flatMap((f) => f.slice(4).split('|')));
  return expandRules(rules, c.percentiles).map((rule) => {
    const t = rule.thresholdNs / scale;
    const label = rule.pi >= 0 ? `p${c.percentiles[rule.pi]}` : '';
    const fewHere = few.map((names) => !rule.max && names.includes(label));
    // Counters per group in typed arrays and the columns in locals: read
    // through objects per row, a rule on 720,000 rows (200 hosts at 1 s)
    // took 104 ms in Chromium.
    const { flag, max, p, group, n } = c;
    const G = c.groups.length;
    const evaluated = new Uint32Array(G);
    const violated = new Uint32Array(G);
    const fewN = new Uint32Array(G);
    const vals = rule.max ? max : p;
    const stride = rule.max ? 1 : P;
    const at = rule.max ? 0 : rule.pi;
    if (rule.max || rule.pi >= 0)
      for (let i = 0; i < n; i++) {
        const f = flag[i];
        const g = group[i];
        if (skip[f] || g >= G) continue;
        const v = vals[i * stride + at];
        if (v !== v) continue;
        evaluated[g]++;
        if (fewHere[f]) fewN[g]++;
        if (violates(v, rule, t)) violated[g]++;
      }
    /** @type {SlaOutcome[]} */
    const per = c.groups.map((/** @type {string} */ name, /** @type {number} */ g) => ({ group: name, evaluated: evaluated[g], violated: violated[g], few: fewN[g] }));
    const groups = per;
    const total = { group: 'all groups', evaluated: 0, violated: 0, few: 0 };
    for (const o of groups) {
      total.evaluated += o.evaluated;
      total.violated += o.violated;
      total.few += o.few;
    }
    return { rule, groups, total };
  });
}

/**
 * The CLI's percentage: tenths, rounded (sla.cc percent()), through the
 * page's formatter: 4 of 20 -> "20", 1 of 3 -> "33.3".
 * @param {number} part @param {number} whole
 */
export function slaPercent(part, whole) {
  return whole ? formatNumber(Math.round((1000 * part) / whole) / 10) : '0';
}

/**
 * One sentence per rule and group: "host=a: p99 < 2 ms violated in 12 of 61
 * quanta of 1 s (19.7%)". A rule with nothing to judge says so.
 * @param {SlaRule} rule @param {SlaOutcome} o @param {number} quantumMs
 */
export function slaSentence(rule, o, quantumMs) {
  // 0: adaptive quanta, each of its own length.
  const q = !(quantumMs > 0) ? 'adaptive quanta' : `quanta of ${quantumMs >= 1000 ? `${formatNumber(quantumMs / 1000)} s` : `${formatNumber(quantumMs)} ms`}`;
  if (!o.evaluated) return `${o.group}: ${ruleLabel(rule)}: no quantum has samples to judge`;
  const few = o.few ? `; ${o.few} with few samples for ${rule.what}` : '';
  return `${o.group}: ${ruleLabel(rule)} violated in ${o.violated} of ${o.evaluated} ${q} (${slaPercent(o.violated, o.evaluated)}%)${few}`;
}

/**
 * Percentiles the rules name that the list lacks (the page shows them, as
 * the CLI adds them to its query), in the list's spelling.
 * @param {SlaRule[]} rules @param {string[]} percentiles
 * @returns {string[]}
 */
export function missingPercentiles(rules, percentiles) {
  /** @type {string[]} */
  const out = [];
  for (const r of rules) {
    if (r.p === null) continue;
    const s = String(r.p);
    if (!percentiles.some((p) => Number(p) === r.p) && !out.includes(s)) out.push(s);
  }
  return out;
}
