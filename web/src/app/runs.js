// Runs on the page (docs/runs.md, docs/page-views.md "Runs and A/B"): after
// every load the engine puts the files into runs (Engine::assign_runs, the
// same evidence as the CLI) and labels each file with its run. Files of
// several runs are never merged silently: a banner names the runs and the
// evidence, and offers to keep them apart (group by run) or to open the A/B
// comparison (two runs).

import { renderCompareTable, drawOverlay, drawHeat, drawDifference, shareDifference, drawHeatFrame, AB_PLOT, RUN_COLOURS } from '../views/compare-view.js';
import { accountsOf } from './options.js';
import '../style/runs.css';
import { downloadText } from '../util/download.js';
import { compactNs, formatPercentOf } from '../util/format.js';
import { naturalCompare } from '../util/natural-order.js';

/** @typedef {import('../engine/inthread.js').RunPlan} RunPlan */

/**
 * Assigns runs and returns the plan and the sources with their run labels.
 * @param {any} engine page engine (index.js)
 * @returns {Promise<{plan: RunPlan, sources: any[]}>}
 */
export async function planRuns(engine) {
  const plan = await engine.assignRuns({ by: 'auto' });
  const sources = await engine.sources();
  return { plan, sources };
}

/**
 * The run of a source ('' when the files are one run: a single run found
 * automatically gets no label, docs/runs.md).
 * @param {any} src
 */
export function runOf(src) {
  return String(src?.labels?.run ?? '');
}

/**
 * Names shown in the banner: "a (2 files), b (2 files)".
 * @param {RunPlan} plan
 */
export function runsText(plan) {
  return plan.runs.map((r) => `${r.name} (${r.files.length} file${r.files.length === 1 ? '' : 's'})`).join(', ');
}

/**
 * Fills the banner: hidden when the files are one run.
 * @param {HTMLElement} el
 * @param {RunPlan | null} plan
 * @param {{grouped: boolean, onGroup: () => void, onCompare: () => void}} m
 */
export function renderRunBanner(el, plan, m) {
  el.replaceChildren();
  if (!plan || !plan.several) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const doc = el.ownerDocument;
  const head = doc.createElement('div');
  head.className = 'runs-head';
  const strong = doc.createElement('strong');
  strong.textContent = `These files are ${plan.runs.length} runs: `;
  head.append(strong, doc.createTextNode(runsText(plan)));
  head.append(doc.createTextNode(m.grouped ? '. Shown apart (grouped by run).' : '. The views add them together unless grouped by run.'));
  el.appendChild(head);
  const why = doc.createElement('div');
  why.className = 'runs-why muted';
  why.dataset.testid = 'runs-evidence';
  why.textContent = `Why: ${plan.evidence.join(' ')}`;
  el.appendChild(why);
  const list = doc.createElement('details');
  const sum = doc.createElement('summary');
  sum.textContent = 'files of each run';
  list.appendChild(sum);
  for (const r of plan.runs) {
    const d = doc.createElement('div');
    d.textContent = `${r.name} — ${r.how}: ${r.files.join(', ')}`;
    list.appendChild(d);
  }
  el.appendChild(list);
  const buttons = doc.createElement('div');
  buttons.className = 'runs-buttons';
  if (!m.grouped) {
    const g = doc.createElement('button');
    g.type = 'button';
    g.className = 'button small primary';
    g.dataset.testid = 'runs-group';
    g.textContent = 'Compare runs (group by run)';
    g.addEventListener('click', m.onGroup);
    buttons.appendChild(g);
  }
  if (plan.runs.length === 2) {
    const c = doc.createElement('button');
    c.type = 'button';
    c.className = 'button small';
    c.dataset.testid = 'runs-ab';
    c.textContent = `A/B: ${plan.runs[0].name} vs ${plan.runs[1].name}`;
    c.addEventListener('click', m.onCompare);
    buttons.appendChild(c);
  }
  el.appendChild(buttons);
}

/** Heat-map rows of the A/B grids. */
const AB_ROWS = 64;

/**
 * Opens the A/B comparison of the plan's two runs in a modal dialog
 * (Escape closes it). Everything is computed by the engine: the table by the
 * CLI's `summary --compare` code, the time rows and heat maps by queries
 * restricted to one run's files (exclude_sources).
 * @param {{engine: any, sources: any[], items: {name: string, file: Blob}[], state: any, colors?: import('../views/colors.js').ColorKeeper}} m
 *   colors: the page's group colours, so each run is drawn here in the colour its group has in the views
 * @param {RunPlan} plan
 */
export async function openCompare(m, plan) {
  const doc = document;
  const [ra, rb] = plan.runs;
  const dlg = doc.createElement('dialog');
  dlg.className = 'ab-dialog';
  dlg.dataset.testid = 'ab-dialog';
  dlg.setAttribute('aria-label', `A/B: ${ra.name} vs ${rb.name}`);
  dlg.innerHTML = `<div class="ab-top"><h2></h2><button type="button" class="button small" data-testid="ab-csv">Download CSV</button><button type="button" class="button small" data-testid="ab-close">Close</button></div>
<p class="muted ab-how"></p>
<section><h3>Whole run (as <code>latscope summary --compare</code>)</h3><div class="ab-table-wrap" data-testid="ab-table-wrap">computing…</div></section>
<section><h3>Percentiles over time, from each run's start</h3><svg class="ab-overlay" data-testid="ab-overlay" role="img"></svg></section>
<section><h3>Heat maps (same rows and colours) and their difference</h3><div class="ab-heats">
${['a', 'b', 'diff'].map((k) => `<figure><figcaption></figcaption><div class="ab-plot"><svg class="ab-axes" data-testid="ab-axes-${k}" role="img"></svg><canvas width="${AB_PLOT.width}" height="${AB_PLOT.height}" data-testid="ab-heat-${k}"></canvas></div></figure>`).join('\n')}
</div><p class="muted ab-rows"></p></section>`;
  /** @param {string} sel */
  const q = (sel) => /** @type {HTMLElement} */ (dlg.querySelector(sel));
  // On the plot area of the axes drawn under it (set here: the page's CSP forbids inline style attributes).
  for (const cv of dlg.querySelectorAll('.ab-plot canvas')) Object.assign(/** @type {HTMLElement} */ (cv).style, { left: `${AB_PLOT.left}px`, top: `${AB_PLOT.top}px` });
  q('h2').textContent = `A/B: ${ra.name} vs ${rb.name}`;
  q('.ab-how').textContent = `${ra.name}: ${ra.how}; ${rb.name}: ${rb.how}. Change = (${rb.name} − ${ra.name}) / ${ra.name}.`;
  const caps = /** @type {NodeListOf<HTMLElement>} */ (dlg.querySelectorAll('figcaption'));
  caps[0].textContent = ra.name;
  caps[1].textContent = rb.name;
  caps[2].textContent = `${rb.name} − ${ra.name} (red: more in ${rb.name}, blue: more in ${ra.name})`;
  /** @type {HTMLElement} */ (caps[0]).style.color = RUN_COLOURS[0];
  /** @type {HTMLElement} */ (caps[1]).style.color = RUN_COLOURS[1];
  const close = () => {
    dlg.close();
    dlg.remove();
  };
  q('[data-testid="ab-close"]').addEventListener('click', close);
  dlg.addEventListener('close', () => dlg.remove());
  doc.body.appendChild(dlg);
  dlg.showModal();
  const s = m.state;
  const unit = s.unit || 'us';
  const percentiles = (s.percentiles || ['50', '99']).join(',');
  let csv = '';
  q('[data-testid="ab-csv"]').addEventListener('click', () => {
    if (csv) downloadText(csv, `latscope-compare-${ra.name}-${rb.name}.csv`, 'text/csv');
  });
  try {
    const cmp = await m.engine.compareRuns({ percentiles, unit, format: 'csv', accounts: accountsOf(s) });
    csv = cmp.text;
    renderCompareTable(q('[data-testid="ab-table-wrap"]'), cmp.text, cmp.notes, unit);
  } catch (e) {
    q('[data-testid="ab-table-wrap"]').textContent = `No table: ${/** @type {Error} */ (e).message}`;
  }
  const nameOf = new Map(m.sources.map((x) => [x.name, runOf(x)]));
  const others = (/** @type {string} */ run) => m.sources.filter((x) => nameOf.get(x.name) !== run).map((x) => x.name);
  try {
    // The page's account of a job with two logs, as every query of the page (options.js accountsOf).
    const accounts = accountsOf(s);
    const acc = accounts.length ? { accounts } : {};
    const base = { quantum_ms: s.quantum_ms, unit, exclude_sources: s.exclude_sources ?? [], ...acc };
    const pct = await m.engine.query({ ...base, percentiles: s.percentiles.slice(0, 4), group_by: 'run' });
    // Each run in the colour of its group ("run=a") in the views grouped by
    // run: the keeper sees the groups in natural order, as the views do.
    const colours = runColours(m.colors, pct.groups, [ra.name, rb.name]);
    caps[0].style.color = colours[0];
    caps[1].style.color = colours[1];
    drawOverlay(/** @type {any} */ (q('[data-testid="ab-overlay"]')), pct, [ra.name, rb.name], colours);
    // One grid for both: the latency range of both runs together.
    const both = await m.engine.heatmap({ quantum_ms: s.quantum_ms, rows: AB_ROWS, exclude_sources: base.exclude_sources, ...acc });
    const grid = { quantum_ms: s.quantum_ms, rows: AB_ROWS, min_ns: both.edges_ns[0], max_ns: both.edges_ns[both.rows], ...acc };
    const ha = await m.engine.heatmap({ ...grid, exclude_sources: [...base.exclude_sources, ...others(ra.name)] });
    const hb = await m.engine.heatmap({ ...grid, exclude_sources: [...base.exclude_sources, ...others(rb.name)] });
    const top = Math.max(...ha.counts, ...hb.counts);
    drawHeat(/** @type {HTMLCanvasElement} */ (q('[data-testid="ab-heat-a"]')), ha, top);
    drawHeat(/** @type {HTMLCanvasElement} */ (q('[data-testid="ab-heat-b"]')), hb, top);
    const d = shareDifference(ha, hb);
    drawDifference(/** @type {HTMLCanvasElement} */ (q('[data-testid="ab-heat-diff"]')), d);
    // Axes and colour legends (docs/page-views.md "Runs and A/B").
    const frame = { quantum_ms: s.quantum_ms, min_ns: grid.min_ns, max_ns: grid.max_ns, unit };
    const axes = (/** @type {string} */ k) => /** @type {SVGSVGElement} */ (/** @type {unknown} */ (q(`[data-testid="ab-axes-${k}"]`)));
    drawHeatFrame(axes('a'), { ...frame, quanta: ha.quanta }, { kind: 'count', top });
    drawHeatFrame(axes('b'), { ...frame, quanta: hb.quanta }, { kind: 'count', top });
    drawHeatFrame(axes('diff'), { ...frame, quanta: d.quanta }, { kind: 'diff', maxAbs: d.maxAbs, a: ra.name, b: rb.name });
    q('.ab-rows').textContent = `${AB_ROWS} rows from ${compactNs(grid.min_ns)} to ${compactNs(grid.max_ns)} (log); columns: ${s.quantum_ms} ms quanta from each run's start; the difference spans ±${formatPercentOf(d.maxAbs)} % of a quantum's I/Os over ${d.quanta} quanta.`;
    dlg.dataset.ready = 'true';
  } catch (e) {
    q('.ab-rows').textContent = `No time views: ${/** @type {Error} */ (e).message}`;
    dlg.dataset.ready = 'error';
  }
  return dlg;
}

/**
 * The colours of two runs: the page's colour of each run's group in an
 * answer grouped by run (a group "run=a" is run a, as drawOverlay reads
 * it), RUN_COLOURS without a keeper or a group.
 * @param {import('../views/colors.js').ColorKeeper | undefined} colors
 * @param {string[]} groups @param {string[]} runs
 * @returns {string[]}
 */
export function runColours(colors, groups, runs) {
  if (!colors) return RUN_COLOURS.slice();
  colors.see([...groups].sort(naturalCompare));
  return runs.map((n, i) => {
    const g = groups.find((x) => x === n || x.endsWith(`=${n}`) || x.split(/[,=]/).includes(n));
    return g ? colors.color(g) : RUN_COLOURS[i % 2];
  });
}
