// The SLA field as the page edits it (docs/page-views.md "SLA"): rules read
// as they are typed, for the URL and for naming the percentiles they need.
// The verdict is core's (engine.judgeSla, core sla_field.h: the counts of
// `latscope pctiles --sla`, the sentences the page shows); the page judges
// nothing itself. A threshold without a unit is in the displayed unit, a
// rule without WHAT ("2ms") stands for every shown percentile.

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
