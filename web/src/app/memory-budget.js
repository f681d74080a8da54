// What the page says about its memory budget (docs/page-loading.md §7): the
// settings from the page's URL, the "memory: ... of ... budget" line under
// Files, and the sentences about files that were reduced. The arithmetic is
// engine/budget.js.
import { DEFAULT_BUDGET_BYTES, isMultiple, parseBudget } from '../engine/budget.js';
import { formatBytes, formatQuantum } from '../util/format.js';

/**
 * `?budget=512MiB` (the primary engine's model; "off": none) and
 * `?worker_memory=64MiB` (a ceiling for each parse worker's WebAssembly
 * memory, to see what a machine with less memory does). A bad value falls
 * back to the default with a sentence.
 * @param {string} search location.search
 * @returns {{budget: number, workerMemory: number, problems: string[]}}
 */
export function budgetSettings(search) {
  const q = new URLSearchParams(search);
  const problems = [];
  let budget = DEFAULT_BUDGET_BYTES;
  let workerMemory = 0;
  try {
    budget = parseBudget(q.get('budget'));
  } catch (e) {
    problems.push(`${/** @type {Error} */ (e).message}; the default of ${formatBytes(DEFAULT_BUDGET_BYTES)} is used`);
  }
  const w = q.get('worker_memory');
  if (w) {
    try {
      const b = parseBudget(w);
      workerMemory = Number.isFinite(b) ? b : 0;
    } catch (e) {
      problems.push(`worker_memory: ${/** @type {Error} */ (e).message}; no ceiling is set`);
    }
  }
  return { budget, workerMemory, problems };
}

/**
 * "memory: 312 MiB of 1 GiB budget".
 * @param {number} modelBytes the model's estimate (engine memory().modelBytes) @param {number} budget
 */
export function memoryText(modelBytes, budget) {
  return Number.isFinite(budget) ? `memory: ${formatBytes(modelBytes)} of ${formatBytes(budget)} budget` : `memory: ${formatBytes(modelBytes)} (no budget)`;
}

/**
 * The quanta files were reduced to (one in practice: a load reduces at one
 * quantum), and the files past the budget kept as windows (quantum_ms 0).
 * @param {{reduced?: {quantum_ms: number}}[]} sources
 * @returns {{quanta: number[], files: number, kept: number}}
 */
export function reducedOf(sources) {
  const quanta = new Set();
  let files = 0;
  let kept = 0;
  for (const s of sources) {
    if (!s.reduced) continue;
    if (!s.reduced.quantum_ms) {
      kept++;
      continue;
    }
    files++;
    quanta.add(s.reduced.quantum_ms);
  }
  return { quanta: [...quanta].sort((a, b) => a - b), files, kept };
}

/**
 * The status line's addition after a load past the budget, e.g.
 * "2 files reduced to 1 s quanta (memory budget 64 KiB)"; '' when within it.
 * @param {{reduced?: {quantum_ms: number}}[]} sources @param {number} budget
 */
export function reducedStatus(sources, budget) {
  const r = reducedOf(sources);
  const parts = [];
  if (r.files) parts.push(`${r.files} file${r.files === 1 ? '' : 's'} reduced to ${r.quanta.map(formatQuantum).join(', ')} quanta`);
  if (r.kept) parts.push(`${r.kept} file${r.kept === 1 ? '' : 's'} past it kept whole (at this quantum their quanta would take more memory than their windows: choose a coarser quantum and load again)`);
  return parts.length ? `memory budget of ${formatBytes(budget)} passed: ${parts.join('; ')}` : '';
}

/**
 * The note shown with the query's notes when the quantum is no multiple of
 * a reduced file's quantum: those files then hold quanta the way a log holds
 * windows, and the query spreads each over the quanta it overlaps (as
 * `latscope pctiles` does on a result file at such a quantum).
 * @param {{reduced?: {quantum_ms: number}}[]} sources @param {number} quantumMs
 * @returns {string} '' when every reduced quantum divides quantumMs
 */
export function reducedQuantumNote(sources, quantumMs) {
  const r = reducedOf(sources);
  const bad = r.quanta.filter((q) => !isMultiple(quantumMs, q));
  if (!bad.length) return '';
  const q = bad.map(formatQuantum).join(', ');
  const finer = bad.some((b) => quantumMs < b);
  return (
    `${r.files} file${r.files === 1 ? ' was' : 's were'} reduced to ${q} quanta while loading (memory budget): ` +
    `${formatQuantum(quantumMs)} is no multiple of ${q}, so ${finer ? 'each of their quanta is shared evenly among the finer ones' : 'each of their quanta is split among the quanta it overlaps, in proportion'}, ` +
    `like a log window; their rows are not what the logs would show. Multiples of ${q} are exact.`
  );
}
