// A/B comparison of two runs (docs/page-views.md, "Runs and A/B";
// docs/runs.md): the whole-run table as `latscope summary --compare` prints
// it (computed by the CLI's own code in the engine), percentiles over time of
// both runs overlaid on time from each run's start, and the two heat maps on
// one grid side by side and as a difference with a diverging palette.
import * as d3 from 'd3';
import * as chromatic from 'd3-scale-chromatic';
import { logTicks } from './scales.js';
import { latencyScale, latencyAxis } from './frame.js';
import { formatNumber, formatCount, formatChange } from '../util/format.js';
import { unitLabel, unitScale, formatInUnit } from '../model/units.js';

/** Run colours: the first run blue, the second orange (colour-blind safe pair). */
export const RUN_COLOURS = ['#1f77b4', '#e6550d'];

/**
 * What a cell of the compare table shows: the CLI's field said the page's
 * way. Latencies (a, b and the bands, in the query's unit) with their unit
 * and three significant digits ("373.756480641" -> "374 µs"), the samples
 * as a count, the change as a signed percentage; the note and names as
 * they are. The CLI's field itself stays in the cell's title and in
 * data-csv (tableCsv, Download CSV).
 * @param {string[]} row a CSV row (dir, stat, a, b, change_pct, a_lo, a_hi, b_lo, b_hi, note)
 * @param {number} j column @param {string} unit the table's unit (ns, us, ms)
 * @returns {string}
 */
export function compareCellText(row, j, unit) {
  const f = row[j] ?? '';
  const v = Number(f);
  if (f === '' || j < 2 || j > 8 || !Number.isFinite(v)) return f;
  if (j === 4) return formatChange(v);
  if (row[1] === 'samples') return formatCount(v);
  return formatInUnit(v * unitScale(unit), unit);
}

/**
 * The compare CSV as a table. Cells show the CLI's fields through the
 * page's formatter (compareCellText: "374 µs", not "373.756480641"); each
 * keeps the CLI's field in data-csv and its title, so the table is still
 * the CLI's number for number (e2e).
 * @param {HTMLElement} el @param {string} csv @param {string[]} notes @param {string} [unit] the table's unit
 */
export function renderCompareTable(el, csv, notes, unit = 'us') {
  const doc = el.ownerDocument;
  el.replaceChildren();
  const rows = d3.csvParseRows(csv.trimEnd());
  const table = doc.createElement('table');
  table.className = 'ab-table';
  table.dataset.testid = 'ab-table';
  rows.forEach((r, i) => {
    const tr = doc.createElement('tr');
    for (const [j, f] of r.entries()) {
      const c = doc.createElement(i === 0 ? 'th' : 'td');
      c.textContent = i === 0 ? f : compareCellText(r, j, unit);
      c.dataset.csv = f;
      if (i > 0 && c.textContent !== f) c.title = `${f} (as latscope summary --compare prints it)`;
      if (j >= 2 && j <= 8) c.className = 'num';
      if (i > 0 && j === 4 && f !== '') c.classList.add(noteless(r[9]) ? 'change-real' : 'change-noise');
      tr.appendChild(c);
    }
    table.appendChild(tr);
  });
  el.appendChild(table);
  if (notes.length) {
    const ul = doc.createElement('ul');
    ul.className = 'ab-notes muted';
    for (const n of notes) {
      const li = doc.createElement('li');
      li.textContent = n;
      ul.appendChild(li);
    }
    el.appendChild(ul);
  }
}

/** A change the note does not qualify (beyond bins and sampling noise). @param {string} note */
function noteless(note) {
  return !/within bin width|within sampling noise/.test(note ?? '');
}

/**
 * The CSV text back from a rendered table (what the e2e test compares with
 * the CLI), from the CLI's fields the cells keep (data-csv): RFC 4180 quoting where a field needs it, as the CLI's csv_field.
 * @param {HTMLTableElement} table
 */
export function tableCsv(table) {
  const q = (/** @type {string} */ f) => (/[",\n\r]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  return [...table.rows].map((tr) => [...tr.cells].map((c) => q(/** @type {HTMLElement} */ (c).dataset.csv ?? c.textContent ?? '')).join(',')).join('\n') + '\n';
}

/**
 * Percentiles over time of both runs on one chart, each on time from its own
 * start (its first row), so that runs line up even with epoch logs.
 * @param {SVGSVGElement} svg @param {any} pct engine.query() grouped by run
 * @param {string[]} runs run names, a then b
 * @param {string[]} [colours] a's and b's (runs.js runColours: the page's colours of their groups)
 */
export function drawOverlay(svg, pct, runs, colours = RUN_COLOURS) {
  const W = 720;
  const H = 300;
  const m = { l: 60, r: 110, t: 10, b: 36 };
  const sel = d3.select(svg).attr('viewBox', `0 0 ${W} ${H}`).attr('width', W).attr('height', H);
  sel.selectAll('*').remove();
  /** @type {Map<string, any[]>} */
  const byGroup = d3.group(pct.rows, (/** @type {any} */ r) => r.group);
  /** @type {{run: number, p: number, pts: [number, number][]}[]} */
  const lines = [];
  for (const [g, rows] of byGroup) {
    const run = runs.findIndex((n) => g === n || g.endsWith(`=${n}`) || g.split(/[,=]/).includes(n));
    const t0 = d3.min(rows, (/** @type {any} */ r) => r.t_ms) ?? 0;
    pct.percentiles.forEach((/** @type {string} */ _p, /** @type {number} */ j) => {
      const pts = rows.filter((/** @type {any} */ r) => r.p[j] != null && r.p[j] > 0).map((/** @type {any} */ r) => /** @type {[number, number]} */ ([(r.t_ms - t0) / 1000, r.p[j]]));
      lines.push({ run: Math.max(0, run), p: j, pts });
    });
  }
  const all = lines.flatMap((l) => l.pts);
  if (!all.length) return;
  const x = d3.scaleLinear().domain([0, d3.max(all, (d) => d[0]) ?? 1]).range([m.l, W - m.r]);
  // The views' log axis: fitted to the values, round ticks of the unit (frame.js).
  const [vlo, vhi] = /** @type {[number, number]} */ (d3.extent(all, (d) => d[1]));
  const y = latencyScale(true, [vlo, vhi], [H - m.b, m.t]);
  sel.append('g').attr('transform', `translate(0,${H - m.b})`).call(d3.axisBottom(x).ticks(8));
  sel.append('g').attr('class', 'ab-overlay-y').attr('transform', `translate(${m.l},0)`).call(latencyAxis(y));
  sel.append('text').attr('x', (m.l + W - m.r) / 2).attr('y', H - 4).attr('text-anchor', 'middle').attr('class', 'axis-label').text('seconds from each run\'s start');
  sel.append('text').attr('transform', `translate(14,${(H - m.b) / 2}) rotate(-90)`).attr('text-anchor', 'middle').attr('class', 'axis-label').text(`latency (${unitLabel(pct.unit)})`);
  const dash = ['', '6,3', '2,2', '8,2,2,2'];
  const line = d3.line().x((d) => x(d[0])).y((d) => y(d[1]));
  for (const l of lines) {
    sel.append('path').attr('d', line(l.pts)).attr('fill', 'none').attr('stroke', colours[l.run % 2]).attr('stroke-width', 1.5).attr('stroke-dasharray', dash[l.p % dash.length]).attr('data-run', runs[l.run]).attr('data-p', pct.percentiles[l.p]);
  }
  const legend = sel.append('g').attr('transform', `translate(${W - m.r + 10},${m.t + 6})`);
  let k = 0;
  runs.forEach((name, ri) =>
    pct.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ j) => {
      const g = legend.append('g').attr('transform', `translate(0,${k++ * 16})`);
      g.append('line').attr('x1', 0).attr('x2', 22).attr('y1', 0).attr('y2', 0).attr('stroke', colours[ri % 2]).attr('stroke-width', 1.5).attr('stroke-dasharray', dash[j % dash.length]);
      g.append('text').attr('x', 26).attr('y', 4).text(`${name} p${p}`);
    }),
  );
}

/**
 * Each quantum's counts as fractions of its I/Os: runs with other rates
 * compare by shape, not by volume.
 * @param {any} hm engine.heatmap() result
 * @returns {Float64Array}
 */
export function columnShares(hm) {
  const out = new Float64Array(hm.quanta * hm.rows);
  for (let q = 0; q < hm.quanta; q++) {
    let n = 0;
    for (let r = 0; r < hm.rows; r++) n += hm.counts[q * hm.rows + r];
    if (n > 0) for (let r = 0; r < hm.rows; r++) out[q * hm.rows + r] = hm.counts[q * hm.rows + r] / n;
  }
  return out;
}

/**
 * b's shares minus a's, quantum by quantum from each run's start, over the
 * quanta both runs have. Both heat maps must share rows and edges.
 * @param {any} a @param {any} b
 * @returns {{quanta: number, rows: number, diff: Float64Array, maxAbs: number}}
 */
export function shareDifference(a, b) {
  const rows = a.rows;
  const quanta = Math.min(a.quanta, b.quanta);
  const sa = columnShares(a);
  const sb = columnShares(b);
  const diff = new Float64Array(quanta * rows);
  let maxAbs = 0;
  for (let q = 0; q < quanta; q++)
    for (let r = 0; r < rows; r++) {
      const d = sb[q * rows + r] - sa[q * rows + r];
      diff[q * rows + r] = d;
      maxAbs = Math.max(maxAbs, Math.abs(d));
    }
  return { quanta, rows, diff, maxAbs };
}

/**
 * One heat map on a canvas: log colour of counts (rows bottom-up).
 * @param {HTMLCanvasElement} canvas @param {any} hm @param {number} maxCount shared colour scale top
 */
export function drawHeat(canvas, hm, maxCount) {
  const colour = d3.scaleSequentialLog(chromatic.interpolateViridis).domain([1, Math.max(2, maxCount)]);
  paint(canvas, hm.quanta, hm.rows, (q, r) => {
    const c = hm.counts[q * hm.rows + r];
    return c > 0 ? colour(Math.max(1, c)) : null;
  });
}

/**
 * The difference on a canvas: RdBu reversed, so that more of b is red, more
 * of a blue, and white no change; symmetric about 0.
 * @param {HTMLCanvasElement} canvas @param {{quanta: number, rows: number, diff: Float64Array, maxAbs: number}} d
 */
export function drawDifference(canvas, d) {
  const m = d.maxAbs || 1;
  const colour = d3.scaleDiverging((t) => chromatic.interpolateRdBu(1 - t)).domain([-m, 0, m]);
  paint(canvas, d.quanta, d.rows, (q, r) => colour(d.diff[q * d.rows + r]));
}

/**
 * @param {HTMLCanvasElement} canvas @param {number} quanta @param {number} rows
 * @param {(q: number, r: number) => string | null} fill
 */
function paint(canvas, quanta, rows, fill) {
  const W = canvas.width;
  const H = canvas.height;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.clearRect(0, 0, W, H);
  const cw = W / Math.max(1, quanta);
  const ch = H / Math.max(1, rows);
  for (let q = 0; q < quanta; q++)
    for (let r = 0; r < rows; r++) {
      const c = fill(q, r);
      if (!c) continue;
      ctx.fillStyle = c;
      ctx.fillRect(Math.floor(q * cw), Math.floor(H - (r + 1) * ch), Math.ceil(cw), Math.ceil(ch));
    }
}

/** Where a heat map canvas sits in its frame (compareFrame): axes left and below, the colour legend under them. */
export const AB_PLOT = { left: 58, top: 8, width: 320, height: 200, frameW: 396, frameH: 300 };

/**
 * The axes and colour legend of one A/B heat map, drawn in the SVG under
 * its canvas: x seconds from the run's start, y latency (log) in the
 * page's unit, and the colour scale with its meaning. For the difference
 * the scale is diverging and its ends say which run has more.
 * @param {SVGSVGElement} svg
 * @param {{quanta: number, quantum_ms: number, min_ns: number, max_ns: number, unit: string}} grid
 * @param {{kind: 'count', top: number} | {kind: 'diff', maxAbs: number, a: string, b: string}} colour
 */
export function drawHeatFrame(svg, grid, colour) {
  const P = AB_PLOT;
  const sel = d3.select(svg).attr('width', P.frameW).attr('height', P.frameH).attr('viewBox', `0 0 ${P.frameW} ${P.frameH}`);
  sel.selectAll('*').remove();
  const scale = unitScale(grid.unit);
  const bottom = P.top + P.height;
  const x = d3.scaleLinear().domain([0, (grid.quanta * grid.quantum_ms) / 1000]).range([P.left, P.left + P.width]);
  const y = d3.scaleLog().domain([grid.min_ns / scale, grid.max_ns / scale]).range([bottom, P.top]);
  sel.append('g').attr('class', 'axis ab-x-axis').attr('transform', `translate(0,${bottom})`).call(d3.axisBottom(x).ticks(6).tickFormat((t) => formatNumber(Number(t))));
  sel.append('g').attr('class', 'axis ab-y-axis').attr('transform', `translate(${P.left},0)`).call(d3.axisLeft(y).tickValues(logTicks(y.domain()[0], y.domain()[1], P.height, 16)).tickFormat((t) => formatNumber(Number(t))));
  sel.append('text').attr('class', 'axis-label').attr('x', P.left + P.width / 2).attr('y', bottom + 30).attr('text-anchor', 'middle').text("seconds from the run's start");
  sel.append('text').attr('class', 'axis-label').attr('transform', `translate(12,${P.top + P.height / 2}) rotate(-90)`).attr('text-anchor', 'middle').text(`latency (${unitLabel(grid.unit)})`);

  // The colour legend: a bar of the scale with its ticks and title.
  const ly = bottom + 46;
  const id = `ab-grad-${Math.random().toString(36).slice(2)}`;
  const grad = sel.append('defs').append('linearGradient').attr('id', id);
  /** @type {(t: number) => string} */
  let at;
  /** @type {any} */
  let axisScale;
  let title;
  if (colour.kind === 'count') {
    const top = Math.max(2, colour.top);
    const c = d3.scaleSequentialLog(chromatic.interpolateViridis).domain([1, top]);
    at = (t) => c(Math.pow(top, t));
    axisScale = d3.scaleLog().domain([1, top]).range([P.left, P.left + P.width]);
    title = 'I/Os per cell (log colour, same scale for both runs)';
  } else {
    const m = 100 * (colour.maxAbs || 0.01);
    at = (t) => chromatic.interpolateRdBu(1 - t);
    axisScale = d3.scaleLinear().domain([-m, m]).range([P.left, P.left + P.width]);
    title = `${colour.b} − ${colour.a}: change in a quantum's share of I/Os (%)`;
  }
  for (let i = 0; i <= 16; i++) grad.append('stop').attr('offset', `${(100 * i) / 16}%`).attr('stop-color', at(i / 16));
  sel.append('text').attr('class', 'legend-title').attr('x', P.left).attr('y', ly - 6).text(title);
  sel.append('rect').attr('class', 'ab-colour-bar').attr('x', P.left).attr('y', ly).attr('width', P.width).attr('height', 10).attr('fill', `url(#${id})`);
  const ax = d3.axisBottom(axisScale).tickSize(4);
  if (colour.kind === 'count') ax.tickValues(logTicks(1, Math.max(2, colour.top), P.width, 36));
  else ax.ticks(5);
  sel.append('g').attr('class', 'axis ab-colour-axis').attr('transform', `translate(0,${ly + 10})`).call(ax.tickFormat((t) => formatNumber(Number(t))));
  if (colour.kind === 'diff') {
    sel.append('text').attr('class', 'ab-diff-end').attr('x', P.left).attr('y', ly + 38).attr('fill', chromatic.interpolateRdBu(0.85)).text(`← more in ${colour.a}`);
    sel.append('text').attr('class', 'ab-diff-end').attr('x', P.left + P.width).attr('y', ly + 38).attr('text-anchor', 'end').attr('fill', chromatic.interpolateRdBu(0.15)).text(`more in ${colour.b} →`);
  }
}
