// The six views behind one interface (views/view.js): each registered with
// how it is made, how its data is asked of the engine and handed to it
// (feed), and what its "Export view CSV" writes. The app and the query
// scheduler iterate this list; none of them names a view to draw it.
import { PercentilesView } from '../views/pctiles-view.js';
import { HeatmapView, HEAT_ROWS } from '../views/heatmap-view.js';
import { SurfaceView } from '../views/surface-view.js';
import { SpectrumView } from '../views/spectrum-view.js';
import { GroupsView } from '../views/groups-view.js';
import { DensityView } from '../views/density-view.js';
import { fromResultMatrix, runValues } from '../views/groups-data.js';
import { timeExtent } from '../views/pctiles-data.js';
import { visibleRowSpan } from '../views/heatmap-data.js';
import { clipTopNs } from '../views/scales.js';
import { pctilesOptions, columnsAsk, clusterOptions, pctilesAreCluster, surfaceOptions, heatmapOptions, spectrumOptions, groupsOptions, groupsRunOptions, densityOptions } from './queries.js';
import { naturalCompare } from '../util/natural-order.js';
import { VIEW_NAMES } from '../model/state.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./state.js').ViewName} ViewName */

/**
 * What a feed is given by the query scheduler (scheduler.js) for one refresh.
 * @typedef {object} Feed
 * @property {any} engine the engine asked (or its bounded proxy, or the overview's)
 * @property {(key: string, opts: unknown) => boolean} changed whether a query's options differ from the last asked under key (and remembers them)
 * @property {(o: any) => Promise<import('../engine/columns.js').ResultColumns>} columns a percentiles query as columns, from a small cache
 * @property {any} pct the percentiles answer of this refresh (every view's time extent)
 * @property {{from_ms: number, to_ms: number, columns: number, quanta: number} | null} [pctColumns] it keeps each pixel column's worst quantum over the run (scheduler.js pctColumnsAsk)
 * @property {import('../engine/inthread.js').Source[]} sources
 * @property {import('../views/colors.js').ColorKeeper} colors
 * @property {() => void} drawn the percentiles chart is drawn (counted for the benchmarks)
 * @property {{matrix: import('./host-matrix.js').HostMatrix, columns: number, chosen: boolean} | null} [hostMatrix]
 *   the loaded result's per-host matrix, the chart's pixel columns and whether the quantum was chosen
 * @property {boolean} [hostless] the engine holds a level summed over hosts (no host's own histograms: level-follow.js)
 * @property {() => void} [wantHosts] have the hosts' own histograms read (the view is drawn again once they are in)
 * @property {(r: {groups?: string[], notes: string[]}) => void} [own] the view drew an answer of its own, not the
 *   percentiles answer: its notes (and groups, when it has them) are what the page says of the view (scheduler.js shown)
 */

/**
 * What "Export view CSV" is given.
 * @typedef {object} CsvAsk
 * @property {any} engine
 * @property {any} pct
 * @property {import('../engine/inthread.js').Source[]} sources
 */

/**
 * One view in the registry.
 * @template {import('../views/view.js').View} V
 * @typedef {object} Entry
 * @property {ViewName} name
 * @property {(host: HTMLElement, ctx: any) => V} make
 * @property {(view: V, q: Feed, s: State, force: boolean) => Promise<void>} feed asks what the view shows (when its options changed, or forced) and hands it over; else redraws
 * @property {(view: V, q: CsvAsk, s: State) => Promise<{text: string, name: string} | null>} csv
 * @property {boolean} [sized] its query depends on the chart's size (asked again after a resize)
 */

/** The percentiles as `latscope pctiles` CSV (the zoomed range only when zoomed). @param {CsvAsk} q @param {State} s */
export async function pctilesCsv(q, s) {
  const opts = /** @type {Record<string, any>} */ (pctilesOptions(s));
  if (s.range) Object.assign(opts, { from_ms: s.range[0], to_ms: s.range[1] });
  return { text: await q.engine.csv(opts), name: 'latscope-pctiles.csv' };
}

/**
 * The heat-map options each grid view was last drawn from: its CSV export
 * asks core for the same grid (report.h heatmap_csv), so the file is the
 * one `latscope heatmap --header-units` writes with those options.
 * @type {WeakMap<object, object>}
 */
const gridAsked = new WeakMap();

/**
 * The registry: one entry per view, in the tabs' order. Each call makes
 * its own (the groups entry keeps its last answers between refreshes).
 * @returns {{[K in ViewName]: Entry<any>}}
 */
export function makeRegistry() {
  /** The groups view's matrix query and its ranking query (asked again only when their options change). */
  /** @type {any} */
  let groupsResult = null;
  /** @type {any} */
  let groupsRun = null;

  /** @type {Entry<PercentilesView>} */
  const pctiles = {
    name: 'pctiles',
    make: (host, ctx) => new PercentilesView(host, ctx),
    // Not `sized`: the columns asked carry the chart's width, so the answer cache (scheduler.js columns) tells widths apart.
    async feed(view, q, s) {
      const t0 = performance.now();
      // More quanta in view than the chart draws: each pixel column's worst quantum (docs/page-views.md
      // "Worst quantum per column"). The whole run's is the percentiles answer when the scheduler asked it
      // so (not the load's first answer: the run's extent was not known yet); a zoom's is asked here, the
      // answer shown staying until it comes. The CSV export asks its own full-resolution query (pctilesCsv).
      const ask = columnsAsk(s, timeExtent(q.pct), view.frame.innerW);
      const range = s.range;
      if (ask && (range || !q.pctColumns)) {
        view.setData(await q.columns({ ...pctilesOptions(s), ...ask }), { ...ask, quanta: (ask.to_ms - ask.from_ms) / s.quantum_ms });
      } else if (range && q.pctColumns) {
        // A zoom the chart draws whole while the run's answer is of columns: every quantum of the zoom.
        view.setData(await q.columns({ ...pctilesOptions(s), from_ms: range[0], to_ms: range[1] }));
      } else {
        view.setData(q.pct, range ? null : (q.pctColumns ?? null));
      }
      await view.drawing; // "ready" means drawn
      performance.measure('latscope: percentiles drawn', { start: t0 });
      // Counted for the benchmarks: the first answer to a zoom comes before its detail (levels.js).
      q.drawn();
    },
    csv: (_view, q, s) => pctilesCsv(q, s),
  };

  /** @type {Entry<HeatmapView>} */
  const heatmap = {
    name: 'heatmap',
    make: (host, ctx) => new HeatmapView(host, ctx),
    sized: true,
    async feed(view, q, s, force) {
      const e = q.engine;
      const rows = view.wantedRows();
      let yNs = s.yZoomNs;
      const co = clusterOptions(s);
      if (!(force || q.changed('heatmap', [heatmapOptions(s, rows, yNs), s.clipOutliers, co, s.range]))) return view.render();
      let t0 = performance.now();
      let hm = await e.heatmap(heatmapOptions(s, rows, yNs));
      performance.measure('latscope: heat map query', { start: t0 });
      if (!yNs && hm.quanta && s.heatY === 'latency') {
        // The full range first; then again fitted to the rows holding
        // I/Os in the zoomed time, and up to the 99.9th percentile row
        // when outliers are clipped.
        const fit = s.range ? visibleRowSpan(hm, s.range) : null;
        let want = fit;
        if (s.clipOutliers) want = [fit ? fit[0] : hm.edges_ns[0], Math.min(clipTopNs(hm, 0.001), fit ? fit[1] : Infinity)];
        if (want && want[1] > want[0] && (want[0] > hm.edges_ns[0] || want[1] < hm.edges_ns[hm.rows])) {
          yNs = want;
          t0 = performance.now();
          hm = await e.heatmap(heatmapOptions(s, rows, yNs));
          performance.measure('latscope: heat map fitted', { start: t0 });
        }
      }
      gridAsked.set(view, heatmapOptions(s, rows, yNs));
      q.own?.({ notes: hm.notes });  // the grid's notes, not the percentiles query's (by block size, CO)
      t0 = performance.now();
      const lines = s.heatY !== 'latency' ? null : pctilesAreCluster(s) ? q.pct : await q.columns(co);
      performance.measure('latscope: heat map lines', { start: t0 });
      t0 = performance.now();
      view.setData(hm, lines);
      performance.measure('latscope: heat map drawn', { start: t0 });
    },
    async csv(view, q, s) {
      const o = gridAsked.get(view);
      return view.hm && o ? { text: await q.engine.heatmapCsv({ ...o, unit: s.unit }, s.range), name: 'latscope-heatmap.csv' } : null;
    },
  };

  /** @type {Entry<SurfaceView>} */
  const surface = {
    name: 'surface',
    make: (host, ctx) => new SurfaceView(host, ctx),
    async feed(view, q, s, force) {
      const so = surfaceOptions(s);
      if (q.changed('surface', so) || force) view.setData(await q.engine.query(so));
      else view.render();
    },
    async csv(_view, q, s) {
      const opts = /** @type {Record<string, any>} */ (surfaceOptions(s));
      if (s.range) Object.assign(opts, { from_ms: s.range[0], to_ms: s.range[1] });
      return { text: await q.engine.csv(opts), name: 'latscope-surface.csv' };
    },
  };

  /** @type {Entry<SpectrumView>} */
  const spectrum = {
    name: 'spectrum',
    make: (host, ctx) => new SpectrumView(host, ctx),
    async feed(view, q, s, force) {
      const range = s.range || timeExtent(q.pct);
      if (!range) return view.setData(null, null);
      const so = spectrumOptions(s, range, q.sources);
      if (q.changed('spectrum', so) || force) view.setData(await q.engine.query(so), s.range);
      else view.render();
    },
    async csv(_view, q, s) {
      const range = s.range || timeExtent(q.pct);
      return range ? { text: await q.engine.csv(spectrumOptions(s, range, q.sources)), name: 'latscope-spectrum.csv' } : null;
    },
  };

  /** @type {Entry<GroupsView>} */
  const groups = {
    name: 'groups',
    make: (host, ctx) => new GroupsView(host, ctx),
    async feed(view, q, s, force) {
      const e = q.engine;
      const go = groupsOptions(s);
      const a = q.changed('groups', go);
      // As typed arrays built in the worker (engine/matrix.js): 200 hosts x 1 h at 1 s is 720,000 rows.
      if (a || !groupsResult) {
        const t0 = performance.now();
        // By host, from the result's per-host matrix when it holds the question (host-matrix.js).
        const hm = q.hostMatrix;
        const fromMatrix = hm ? await hm.matrix.answer(e, s.range ? { ...go, from_ms: s.range[0], to_ms: s.range[1] } : go, hm.columns, hm.chosen) : null;
        if (!fromMatrix && q.hostless && go.group_by.split(',').includes('host')) {
          // Refused (hm.matrix.why): the histograms answer, and the engine holds
          // them summed over hosts. The hosts' own are read, then drawn (level-follow.js).
          groupsResult = null;
          q.wantHosts?.();
          return;
        }
        groupsResult = fromMatrix ?? (await e.queryMatrix(go));
        measureQuery(fromMatrix ? 'groups from the per-host matrix' : 'groups matrix query', t0, groupsResult);
      }
      const gm = /** @type {import('../engine/matrix.js').ResultMatrix} */ (groupsResult);
      const ext = gm.times.length ? /** @type {[number, number]} */ ([gm.times[0], gm.times[gm.times.length - 1] + gm.quantum_ms]) : null;
      const ro = ext ? groupsRunOptions(s, s.range || ext, q.sources) : null;
      const b = q.changed('groupsRun', ro);
      if (!(a || b || force)) return view.render();
      if (b || !groupsRun) {
        const t0 = performance.now();
        // By host on a level summed over hosts, the ranking over the run is not shown (level-view.js needsHosts) and cannot be asked.
        groupsRun = ro && !(q.hostless && ro.group_by.split(',').includes('host')) ? await e.query(ro) : null;
        performance.measure('latscope: groups ranking query', { start: t0 });
      }
      q.colors.see([...gm.groups].sort(naturalCompare));
      // The matrix's note names its level (wasm MatrixFile); a click drills into a host when the result has the matrix.
      const level = gm.notes.find((n) => n.startsWith('answered from the per-host matrix')) ?? '';
      const from = level.replace(/^answered from /, '');
      // The notes and groups of what is drawn: by host on a level summed over hosts the percentiles
      // query is the cluster's, and it is not asked again while this view is shown (scheduler.js lazy).
      // The matrix's level is said in the view's caption (from), not twice.
      q.own?.({ groups: gm.groups, notes: gm.notes.filter((n) => n !== level) });
      view.setData(fromResultMatrix(gm, 0), groupsRun ? runValues(groupsRun, 0) : null, { unit: gm.unit, absolute: gm.absolute_time, from, drill: !!q.hostMatrix });
    },
    // The groups tab exports the spectrum's numbers, as before the registry
    // (its own CSV is not written yet).
    csv: (_view, q, s) => spectrum.csv(/** @type {any} */ (null), q, s),
  };

  /** @type {Entry<DensityView>} */
  const density = {
    name: 'density',
    make: (host, ctx) => new DensityView(host, ctx),
    async feed(view, q, s, force) {
      const e = q.engine;
      // The heat map's fixed rows (docs/page-views.md, "One colour scale"); the whole run, zooming redraws.
      const o = densityOptions(s, HEAT_ROWS);
      if (!(q.changed('density', o) || force || !view.data)) return view.render();
      const t0 = performance.now();
      const grid = await e.heatmap(o);
      performance.measure('latscope: density query', { start: t0 });
      gridAsked.set(view, o);
      q.own?.({ notes: grid.notes });
      // A click asks core for that cell's groups only (Engine::density_cell).
      view.setData({ grid, p: s.groupsP, by: o.density_by, ask: (qi, r) => e.densityCell(o, qi, r) });
    },
    async csv(view, q, s) {
      const o = gridAsked.get(view);
      return view.data?.grid && o ? { text: await q.engine.heatmapCsv({ ...o, unit: s.unit }, s.range), name: 'latscope-density.csv' } : null;
    },
  };

  const out = { pctiles, heatmap, surface, spectrum, groups, density };
  // The tabs' order is the model's (VIEW_NAMES); a view missing here fails at start, not at its first click.
  for (const v of VIEW_NAMES) if (!out[v]) throw new Error(`view ${v} is not registered`);
  return out;
}

/**
 * Stage figures for the benchmarks (web/scripts/bench-groups-chromium.mjs):
 * a query's wall time since t0, and of it the engine's when the answer says.
 * @param {string} name @param {number} t0 @param {{engine_ms?: number}} answer
 */
export function measureQuery(name, t0, answer) {
  performance.measure(`latscope: ${name}`, { start: t0 });
  if (answer.engine_ms != null) performance.measure('latscope: of it in the engine', { start: t0, duration: answer.engine_ms });
}
