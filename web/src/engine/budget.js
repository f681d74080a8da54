// The page's memory budget (docs/page-loading.md §7): the primary engine
// keeps every parsed window of every file, so a load is planned against a
// budget, in file order; once the next file would pass it, that file and
// every later one are imported as a result at the page's quantum
// (docs/result-format.md) instead of as windows. Pure arithmetic, unit
// tested in web/test/unit/budget.test.js.

/** Default budget for the primary engine's model: a quarter of the 4 GiB a WebAssembly module may grow to (wasm/CMakeLists.txt). */
export const DEFAULT_BUDGET_BYTES = 2 ** 30;

/**
 * In-memory bytes per stored window beside its bins (core/include/latscope/model.h):
 * `Window` (two doubles, a u64 and two u32: 32 B) and its `ExtremeBins` (8 B).
 */
export const WINDOW_BYTES = 40;

/**
 * The labels a reduced file keeps: the ones the page can group by (docs/page-loading.md §5),
 * so regrouping still works. `run` is not among them: runs are assigned after loading, on
 * the file-level label (docs/runs.md), which a reduced file keeps. `account` says which account
 * of its jobs' I/Os the file was (docs/folders.md): without it a reduced per-I/O log would be
 * added to its job's histogram log.
 */
export const KEEP_LABELS = Object.freeze(['host', 'job', 'dir', 'file', 'tag', 'kind', 'account']);

const UNITS = /** @type {Record<string, number>} */ ({ '': 1, b: 1, k: 2 ** 10, kb: 1e3, kib: 2 ** 10, m: 2 ** 20, mb: 1e6, mib: 2 ** 20, g: 2 ** 30, gb: 1e9, gib: 2 ** 30 });

/**
 * A budget as a person writes it in the URL (`?budget=256MiB`): a number and
 * an optional unit (B, k/KiB, KB, m/MiB, MB, g/GiB, GB; case ignored). "off"
 * or 0: no budget.
 * @param {string | null | undefined} text
 * @returns {number} bytes (Infinity: no budget)
 * @throws {Error} a sentence saying what is wrong
 */
export function parseBudget(text) {
  if (text == null || text.trim() === '') return DEFAULT_BUDGET_BYTES;
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === 'none') return Infinity;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(t);
  if (!m || !(m[2] in UNITS)) throw new Error(`budget "${text.trim()}" is not a size like 512MiB, 2GiB or off`);
  const bytes = Number(m[1]) * UNITS[m[2]];
  return bytes > 0 ? Math.round(bytes) : Infinity;
}

/**
 * What a Source costs the primary engine: its encoded form (the varint bins,
 * which the model stores as they are; core/src/model_io.cc) and the fixed
 * per-window structures. An estimate: vectors' spare capacity is not counted.
 * @param {{series?: {windows: number}[]}} source  report.h source_json
 * @param {number} encodedBytes  length of the encoded Source (exportSource)
 */
export function modelBytes(source, encodedBytes) {
  let windows = 0;
  for (const s of source.series ?? []) windows += s.windows;
  return encodedBytes + WINDOW_BYTES * windows;
}

/**
 * The plan of a load, one decision per file in file order.
 * @typedef {object} BudgetPlan
 * @property {number} budget     bytes (Infinity: none)
 * @property {number} used       estimated bytes of the model so far
 * @property {boolean} reducing  a file passed the budget: every later one is reduced too
 */

/** @param {number} budget @param {number} [used] @returns {BudgetPlan} */
export function budgetPlan(budget, used = 0) {
  return { budget, used, reducing: false };
}

/**
 * Whether the next file is reduced. Once one is, all later ones are: the
 * files then do not depend on their sizes' order, and the table shows one
 * point from which on files hold quanta, not windows. A file that is no
 * time series (fio json+: one whole-run histogram) is never reduced.
 * @param {BudgetPlan} plan @param {number} bytes the file's modelBytes
 * @param {boolean} reducible
 */
export function shouldReduce(plan, bytes, reducible) {
  if (!reducible) return false;
  if (!plan.reducing && plan.used + bytes > plan.budget) plan.reducing = true;
  return plan.reducing;
}

/** Records a file imported into the model. @param {BudgetPlan} plan @param {number} bytes */
export function addUsed(plan, bytes) {
  plan.used += bytes;
}

/**
 * Whether a quantum is a whole multiple of a reduced file's quantum (then the
 * query equals the logs', docs/result-format.md). Quanta are whole ms in the page;
 * the tolerance covers fractional ones given through a link.
 * @param {number} q @param {number} reducedQ
 */
export function isMultiple(q, reducedQ) {
  const k = Math.round(q / reducedQ);
  return k >= 1 && Math.abs(k * reducedQ - q) <= 1e-9 * q;
}

/**
 * The file options with the memory budget as the bound on a result file's
 * decoded size (FileOptions max_result_bytes, docs/result-format.md
 * "Memory"): a result of repeated cells (an .lsr, a link's `d=`) inflates
 * thousands of times over, and the budget that reduces log files applied to
 * results too late, after they were decoded. Not below MIN_RESULT_BYTES:
 * a slice the level view plans (level-view.js, at least 1000 cells) is
 * decoded whole. No budget: the engine's own bound (1 GiB).
 * @param {object | undefined} fileOptions @param {{bytes: number} | undefined} budget
 * @returns {object | undefined}
 */
export function withResultBudget(fileOptions, budget) {
  const bytes = budget?.bytes;
  if (bytes === undefined || !Number.isFinite(bytes) || !(bytes > 0)) return fileOptions;
  return { ...(fileOptions ?? {}), max_result_bytes: Math.floor(Math.max(bytes, MIN_RESULT_BYTES)) };
}

/** The least bound on a result's decoded size in the page: 64 MiB, ~1,400 cells of every fio bin (docs/result-format.md "Memory"). */
export const MIN_RESULT_BYTES = 64 * 2 ** 20;
