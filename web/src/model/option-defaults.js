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

/** The quantum selector's presets, ms, ascending (core quanta.h kQuantumPresetsMs). */
export const QUANTUM_PRESETS_MS = Object.freeze([100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000]);

/** Folders, by name, that a folder is read without, and why (core folder.h walk_left_out). */
export const LEFT_OUT_FOLDERS = Object.freeze({
  '.git': 'version-control folder',
  '.svn': 'version-control folder',
  '.hg': 'version-control folder',
  '__MACOSX': 'macOS archive metadata',
});
/** Files, by name, that a folder is read without, and why. */
export const LEFT_OUT_FILES = Object.freeze({
  '.DS_Store': 'OS bookkeeping file',
  'Thumbs.db': 'OS bookkeeping file',
  'desktop.ini': 'OS bookkeeping file',
});
/** Files whose name starts so are left out too. */
export const LEFT_OUT_FILE_PREFIX = Object.freeze({ prefix: '._', reason: 'OS bookkeeping file' });
