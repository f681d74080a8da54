// The page's side of a result with several resolutions (load/levels.js,
// docs/page-loading.md "A cluster day"): which level and blocks are loaded,
// and when a zoom or a chosen quantum asks for others. The engine holds one
// level's slice at a time, bounded by the memory budget however long the
// day is.
import { readLevels, readLevelIndex, chooseLevel, sliceLevel, cellsOf, bytesOf, isMultiple, lastOf, chunksFor } from '../load/levels.js';
import { formatQuantum, formatMiB } from '../util/format.js';

/** Bytes of engine memory a result cell costs, about (docs/page-loading.md "A cluster day"). */
export const CELL_BYTES = 512;

/** The cells a memory budget holds (at least 1000). @param {number} budgetBytes */
const budgetCells = (budgetBytes) => Math.max(1000, Math.floor(budgetBytes / CELL_BYTES));

/**
 * Whether the chunks loaded hold those wanted (null: every chunk).
 * @param {Set<number> | null | undefined} have @param {Set<number> | null | undefined} want
 */
const holds = (have, want) => !have || (!!want && [...want].every((c) => have.has(c)));

/**
 * Whether a state needs the hosts' own histograms (the levels as kept), or
 * a level summed over hosts gives what is shown: the same numbers from one
 * cluster's cells (docs/page-loading.md §8, "Levels summed over hosts").
 * The hosts' histograms are needed for hosts left out (a drill,
 * exclude_hosts), a host's offset, and anything grouped by host: the
 * percentiles, heat map, surface and spectrum by "Lines per", the groups and
 * density views by their own grouping (queries.js groupsBy: host when
 * "Lines per" is the cluster). Except the groups view by host when the
 * file's per-host matrix answers it (host-matrix.js; `matrix` given and its
 * last question not refused) and it shows nothing else of the hosts: its
 * heat map of groups in name order (no ranking over the run, which the
 * histograms answer) and no SLA rules with "Lines per" host (the SLA
 * summary judges the percentiles query by host). The matrix refusing a
 * question (`matrix.why`) makes the state need the histograms.
 * An offset keyed by the result file itself (its path or last part, as
 * the engine matches it: docs/page-views.md "Offsets per host and per
 * file") shifts every host alike, and the engine reads a summed level under
 * the same name. When it moves whole cells of every summed level, the sums
 * give the numbers of the levels as kept byte for byte (cells nest and
 * fixed-point counts add exactly: docs/result-format.md "Several
 * resolutions", "Levels summed over hosts"). One that splits cells spreads
 * each over two quanta, and the hosts' parts added differ from the sum's
 * part in the last digits: it reads the levels as kept, as any other key
 * (a host, a job) does.
 * @param {{exclude_hosts?: string[], group_by?: string, view?: string, offsets?: Record<string, number>, sla?: string[], groupsMode?: string, groupsSort?: string}} s
 * @param {{why: string} | null} [matrix] the loaded result's per-host matrix (session.hostMatrix)
 * @param {{name: string, sums: number[]} | null} [file] the result file's name as the engine sees it (LevelView's src.name) and its summed levels' quanta, ms
 */
export const needsHosts = (s, matrix = null, file = null) => {
  if ((s.exclude_hosts?.length ?? 0) > 0) return true;
  if (Object.entries(s.offsets ?? {}).some(([k, ms]) => ms && !(file && namesFile(k, file.name) && file.sums.every((q) => ms % q === 0)))) return true;
  const group = s.group_by ?? 'all';
  const byHost = group.split(',').includes('host');
  const view = s.view ?? 'pctiles';
  if (view !== 'groups' && view !== 'density') return byHost;
  if (!(byHost || group === 'all')) return false;
  if (view === 'density') return true;
  const fromMatrix = !!matrix && !matrix.why && (s.groupsMode ?? 'heat') === 'heat' && (s.groupsSort ?? 'name') === 'name';
  return !fromMatrix || (byHost && (s.sla?.length ?? 0) > 0);
};

/**
 * Whether an offsets key names the file `file` as core's aligner matches it:
 * the source's name or its last part (core/src/query/aligner.cc).
 * @param {string} key @param {string} file
 */
const namesFile = (key, file) => (key === file || key === file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1));

/** @typedef {{li: number, a: number, b: number, whole: boolean, why: string, chunks?: Set<number> | null, summed?: boolean}} Pick */

export class LevelView {
  /**
   * @param {import('../load/levels.js').ByteSource} src
   * @param {import('../load/levels.js').LevelIndex[]} levels as kept, ascending quantum
   * @param {import('../load/levels.js').LevelIndex[]} [sums] the levels summed over hosts
   */
  constructor(src, levels, sums = []) {
    this.src = src;
    this.levels = levels;
    /** Level i summed over hosts (same quantum), or null. @type {(import('../load/levels.js').LevelIndex | null)[]} */
    this.sums = levels.map((l) => sums.find((x) => x.level.quantum_ms === l.level.quantum_ms) ?? null);
    /** @type {Pick | null} */
    this.current = null;
    /** The whole file when it was picked (not fetched): what "Add files" adds to. @type {{name: string, file: Blob} | null} */
    this.original = null;
    // The whole file's time, from the coarsest level's blocks: zooming out
    // of a slice goes back to the day, not to the slice's ends.
    const top = levels[levels.length - 1];
    const q = top.level.quantum_ms;
    /** @type {[number, number] | null} */
    this.extent = top.blocks.length ? [top.blocks[0].first * q, (lastOf(top, 0, top.blocks.length - 1) + 1) * q] : null;
  }

  /**
   * A LevelView when `src` is a result with several levels, else null.
   * @param {import('../load/levels.js').ByteSource} src
   */
  static async open(src) {
    const dir = await readLevels(src);
    if (!dir) return null;
    // The levels' indexes at once: over HTTP each is two or three round trips.
    const all = await Promise.all(dir.map((lv) => readLevelIndex(src, lv)));
    return new LevelView(src, all.filter((ix) => !ix.level.summed), all.filter((ix) => ix.level.summed));
  }

  /** A pick's level index: summed over hosts or as kept. @param {{li: number, summed?: boolean}} p */
  ix(p) {
    return (p.summed && this.sums[p.li]) || this.levels[p.li];
  }

  /** The file's name as the engine reads it and its summed levels' quanta, ms (needsHosts). */
  file() {
    return { name: this.src.name, sums: this.sums.flatMap((x) => (x ? [x.level.quantum_ms] : [])) };
  }

  /** Every host of the file, from the finest level's header (its chunk table), whatever slice is loaded. @returns {string[]} */
  hosts() {
    return /** @type {string[]} */ ([...new Set(this.levels[0]?.chunkHost ?? [])].filter((h) => h !== null));
  }

  /**
   * Which level and blocks the visible range wants, or null when what is
   * loaded already serves it (same level; the whole level, or a slice
   * covering the range). `current` changes only when the app says the
   * slice is in the engine (commit): until then queries stay bounded by
   * what the engine holds.
   * Hosts left out (`excludeHosts`, the state's exclude_hosts) are not read
   * from a level cut by host (docs/page-loading.md §8, "Some hosts"); a pick
   * holding fewer hosts than wanted does not serve.
   * A state that needs no host (`hosts` false, needsHosts) reads a level
   * summed over hosts where the file has one: one cluster's cells instead of
   * every host's; a slice as kept serves it too.
   * @param {{range: [number, number] | null, quantum_ms: number | null, widthPx: number, budgetBytes: number, excludeHosts?: string[], hosts?: boolean, offsets?: number[]}} o
   * @returns {Pick | null}
   */
  pickFor(o) {
    if (!this.extent) return null;
    const [from, to] = o.range ?? this.extent;
    const sum = !(o.hosts ?? true);
    const levels = this.levels.map((l, i) => (sum && this.sums[i]) || l);
    // Compressed blocks are smaller than the model they become: the budget bounds both.
    const chosen = chooseLevel(levels, { from, to, maxQuanta: 2 * Math.max(200, o.widthPx), maxCells: budgetCells(o.budgetBytes), maxBytes: o.budgetBytes, quantum_ms: o.quantum_ms, excludeHosts: o.excludeHosts, offsets: o.offsets });
    if (!chosen) return null;
    const pick = { ...chosen, summed: sum && !!this.sums[chosen.li] };
    const cur = this.current;
    if (cur && cur.li === pick.li && (!cur.summed || pick.summed) && holds(cur.chunks, pick.chunks) && (cur.whole || (this.covers(cur, from, to) && !pick.whole))) return null;
    return pick;
  }

  /**
   * A pick's blocks read (one range) as a version-2 result: the load item.
   * @param {{li: number, a: number, b: number, chunks?: Set<number> | null, summed?: boolean}} pick
   * @returns {Promise<{name: string, file: Blob}>}
   */
  async read(pick) {
    const bytes = await sliceLevel(this.src, this.ix(pick), pick.a, pick.b, pick.chunks);
    return { name: this.src.name, file: new Blob([/** @type {BlobPart} */ (bytes)]) };
  }

  /** What a pick holds, for the status line ("1 s for 30 min around the zoom, 1 of 200 hosts"). @param {{li: number, a: number, b: number, whole: boolean, chunks?: Set<number> | null, summed?: boolean}} p */
  describe(p) {
    const ix = this.ix(p);
    const q = ix.level.quantum_ms;
    const some = p.chunks && ix.chunkHost ? `, ${p.chunks.size} of ${ix.chunkHost.length} hosts` : p.summed ? ', summed over hosts' : '';
    return `${formatQuantum(q)} for ${p.whole ? 'the whole time' : `${formatQuantum((lastOf(ix, p.a, p.b) + 1 - ix.blocks[p.a].first) * q)} around the zoom`}${some}`;
  }

  /**
   * The coarsest level whole, for the overview engine (app.js
   * startOverview) that answers a jump outside the loaded blocks; null when
   * it would take more than a quarter of the budget's cells.
   * @param {number} budgetBytes
   * @returns {{li: number, a: number, b: number, whole: boolean, why: string, chunks?: Set<number> | null} | null}
   */
  overviewPick(budgetBytes) {
    const li = this.levels.length - 1;
    const ix = this.levels[li];
    if (!ix.blocks.length) return null;
    const last = ix.blocks.length - 1;
    if (cellsOf(ix, 0, last) > budgetCells(budgetBytes) / 4 || bytesOf(ix, 0, last) > budgetBytes / 4) return null;
    return { li, a: 0, b: last, whole: true, why: 'the overview' };
  }

  /** The engine now holds `pick`'s blocks. @param {Pick} pick */
  commit(pick) {
    this.current = pick;
  }

  /**
   * Whether what the engine holds can draw the range and quantum now,
   * exactly, while a finer level is read: the range lies within the loaded
   * blocks and the quantum (when chosen) is a multiple of the loaded
   * level's, and the loaded blocks hold every host not left out
   * (docs/page-loading.md §8, "Answer first, detail next", "Some hosts").
   * @param {[number, number] | null} range @param {number | null} quantum_ms a chosen quantum, or null
   * A slice summed over hosts serves no state that needs hosts.
   * @param {string[]} [excludeHosts] @param {boolean} [hosts] whether the state needs hosts (needsHosts)
   */
  serves(range, quantum_ms, excludeHosts = [], hosts = excludeHosts.length > 0) {
    const p = this.current;
    if (!p || !this.extent) return false;
    if (p.summed && hosts) return false;
    if (quantum_ms && !isMultiple(quantum_ms, this.levels[p.li].level.quantum_ms)) return false;
    if (!holds(p.chunks, chunksFor(this.ix(p), excludeHosts))) return false;
    const [from, to] = range ?? this.extent;
    return p.whole || this.covers(p, from, to);
  }

  /** @param {{li: number, a: number, b: number, summed?: boolean}} p @param {number} from @param {number} to */
  covers(p, from, to) {
    const ix = this.ix(p);
    const q = ix.level.quantum_ms;
    return ix.blocks[p.a].first * q <= from && (lastOf(ix, p.a, p.b) + 1) * q >= to;
  }

  /**
   * The time a loaded slice holds: from its first block's first quantum to
   * the end of its last cell; null for a whole level.
   * @returns {[number, number] | null}
   */
  bounds() {
    const p = this.current;
    if (!p || p.whole) return null;
    const ix = this.ix(p);
    const q = ix.level.quantum_ms;
    return [ix.blocks[p.a].first * q, (lastOf(ix, p.a, p.b) + 1) * q];
  }

  /**
   * The engine, with a slice's bounds on every query that names no time
   * range. A slice keeps its result's header, whose series span the whole
   * file: read alone, the time past the slice would show as "no I/O"
   * (core/src/formats/result/format.cc pads a series to its span). Queries
   * with their own range (a zoomed export, the spectrum) are left as they are.
   * @template {object} E @param {E} engine @returns {E}
   */
  bounded(engine) {
    const b = this.bounds();
    if (!b) return engine;
    const add = (/** @type {any} */ o) => (o && o.from_ms === undefined && o.to_ms === undefined ? { ...o, from_ms: b[0], to_ms: b[1] } : o);
    const withRange = new Set(['query', 'queryColumns', 'queryMatrix', 'heatmap', 'heatmapCsv', 'densityCell', 'csv']);
    return new Proxy(engine, {
      get(t, k) {
        const v = /** @type {any} */ (t)[k];
        if (typeof v !== 'function') return v;
        // judgeSla carries the query's options inside its payload.
        if (k === 'judgeSla') return (/** @type {any} */ o) => v.call(t, { ...o, opts: add(o.opts ?? {}) });
        return withRange.has(String(k)) ? (/** @type {any} */ o, /** @type {any[]} */ ...rest) => v.call(t, add(o), ...rest) : v.bind(t);
      },
    });
  }

  /** The sentence for the status line: which level, what part, what was read. */
  note() {
    const p = this.current;
    if (!p) return '';
    const all = this.levels.map((l) => formatQuantum(l.level.quantum_ms)).join(', ');
    const mb = formatMiB(this.src.fetched);
    return `${this.src.name}: ${this.levels.length} resolutions (${all}); showing ${this.describe(p)} (${p.why}); ${mb} MiB of ${formatMiB(this.src.size)} MiB read`;
  }
}
