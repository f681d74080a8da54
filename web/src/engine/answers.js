// The shapes of the engine's answers that come from core as JSON and are
// handed on as they are (trust rows, run plans, SLA rules and verdicts):
// JSDoc types only, named after core's structs (folder.h, runs.h, sla_field.h).

/**
 * @typedef {object} RunPlan
 * @property {{name: string, how: string, files: string[]}[]} runs
 * @property {string[]} evidence  why the files are several runs, one sentence each
 * @property {boolean} several
 */

/**
 * One file of the trust summary (core folder.h TrustRow, trust_json).
 * @typedef {object} TrustRow
 * @property {string} file
 * @property {string} what         "fio histogram log", "fio per-I/O log (clat)", "fio json+ output", ...
 * @property {string} fio_version  "fio-3.33" (json+), "fio 3 (1856 bins)" (inferred), '' unknown
 * @property {string} unit         'ns' | 'us' | '' (not a log of values)
 * @property {string} account      'hist' | 'per-io' | 'avg' | '' (not a log of fio jobs' I/Os)
 * @property {string} [kind]      fio logs: clat, lat or slat (histogram logs: clat)
 * @property {string} used_instead '' when used; else the file whose account of the same I/Os is used
 * @property {number} ios          I/Os (bin counts) the file holds
 * @property {number} fio_ios      fio's own count for the same jobs and directions (json+); 0: none
 * @property {boolean} compared    fio_ios is known for every series of the file
 * @property {string} repairs      "client/server defect repaired (2 series)", or ''
 * @property {string[]} warnings   one sentence each: defects, shortfalls, guessed units
 * @property {string[]} notes      decisions said once (unit, account: the why of used_instead)
 * @property {boolean} doubtful    a known fio defect or a count that disagrees with fio's
 * @property {boolean} ok          the file is usable
 */

/**
 * @typedef {object} CompareOptions
 * @property {string} [percentiles]  "50,99" (summary's --percentiles)
 * @property {string} [unit]  ns, us (default) or ms
 * @property {'csv'|'json'} [format]
 * @property {string[]} [accounts]  the account of every job's I/Os, as the query option (docs/folders.md)
 */

/**
 * A percentile list as core reads it (percentile_list.h): each as typed
 * ("99.90"; max is "100") and its value.
 * @typedef {{percentiles: string[], values: number[]}} PercentileList
 */

/**
 * The SLA field as core reads it (sla_field.h).
 * @typedef {object} SlaRule
 * @property {string} text
 * @property {string} what
 * @property {number|null} p  null: a rule on max or mean
 * @property {boolean} strict
 * @property {number} threshold
 * @property {string} unit
 * @property {number} threshold_ns
 * @property {string} label
 */
/** @typedef {{rules: SlaRule[]}} SlaRules */
/**
 * One rule's verdict per group and summed (sla_field.h).
 * @typedef {object} SlaGroupVerdict
 * @property {string} group
 * @property {number} evaluated
 * @property {number} violated
 * @property {number} few
 * @property {string} sentence
 */
/**
 * @typedef {object} SlaVerdict
 * @property {SlaRule} rule
 * @property {number} pi
 * @property {boolean} max
 * @property {SlaGroupVerdict[]} groups
 * @property {SlaGroupVerdict} total
 */
/** @typedef {{verdicts: SlaVerdict[]}} SlaVerdicts */

export {};
