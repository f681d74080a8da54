// Generated from core (options_json.cc page_defaults_module): do not edit.
// tests/options_schema_test.cc fails when this file differs from core's
// defaults; LATSCOPE_REGENERATE=1 build/tests/latscope_tests
// --gtest_filter='OptionsSchema.*' writes it again.

/** The options `latscope pctiles` uses without flags, as the engine's JSON names them. */
export const ENGINE_DEFAULTS = Object.freeze({
  quantum_ms: 1000,
  percentiles: Object.freeze(['50', '90', '99', '99.9', '100']),
  group_by: 'all',
  directions: 'r,w,t',
  method: 'interp',
  unit: 'us',
  account: 'per-io',
});
