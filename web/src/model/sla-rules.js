// The words of an SLA rule the views draw with, as core gives them (core
// sla_field.h; docs/page-views.md, "SLA"). Core parses the field and judges
// every row: the views draw its rules, labels and marks and compare nothing.

/**
 * One rule as core reads it from the SLA field (engine.parseSla).
 * @typedef {import('../engine/inthread.js').SlaRule} SlaRule
 */

/**
 * A rule against a query's percentiles as core expands it (a rule without
 * WHAT is one per shown percentile): pi indexes the result's percentiles
 * (-1: max, or a percentile the result lacks). The answer's sla_marks say
 * which rows or cells break it.
 * @typedef {import('../engine/inthread.js').SlaVerdict} SlaVerdict
 */

export {};
