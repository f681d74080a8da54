// Sidebar query controls and the per-view toolbars. They only write to the
// store; the app decides what to re-query.
import { QUANTA, PRESET_PERCENTILES, GROUPINGS } from './options.js';
import { PALETTES } from '../views/scales.js';
import { nearestLevel } from '../views/surface-data.js';
import { METHODS, HEAT_Y, parseCoInterval } from './methods.js';
import { formatQuantum } from '../util/format.js';
import { percentileName } from '../model/percentiles.js';

/** The CLI's accuracy for a bare `--adaptive` (core/cli/cli_options.cc). */
const DEFAULT_ACCURACY = 0.5;
/** The accuracy the box shows while adaptive quanta are off (the last one typed). */
let lastAccuracy = DEFAULT_ACCURACY;

/**
 * @param {HTMLElement} el
 * @param {import('./state.js').Store} store
 * @param {import('./sla.js').SlaField} [sla] reads the SLA field through core
 * @param {import('./pct-field.js').PercentileField} [pcts] reads the percentile field through core
 */
export function renderControls(el, store, sla, pcts) {
  const s = store.state;
  el.innerHTML = `
    <label>Time quantum
      <select id="quantum" data-testid="quantum"><option value="auto" title="The quantum follows the zoom: the finest one that gives each pixel column at most one quantum, never finer than the logs">auto (follows the zoom)</option>${QUANTA.map((q) => `<option value="${q}">${formatQuantum(q)}</option>`).join('')}</select>
    </label>
    <div id="quantum-finer" class="muted" data-testid="quantum-finer" role="note" hidden>Finer than the logs' interval: each quantum shows an even share of a log window (rows flagged finer).</div>
    <fieldset><legend>Percentiles</legend>
      <div class="chips" id="preset-pcts">${PRESET_PERCENTILES.map((p) => `<label class="chip"><input type="checkbox" value="${p}"> ${percentileName(p)}</label>`).join('')}</div>
      <input id="extra-pcts" data-testid="extra-percentiles" placeholder="more, e.g. 99.99 99.999" autocomplete="off">
      <div id="pct-error" class="error-text" data-testid="pct-error" role="alert"></div>
    </fieldset>
    <label>Lines per
      <select id="group-by" data-testid="group-by">${GROUPINGS.map(([v, l]) => `<option value="${v}">${l}</option>`).join('')}</select>
    </label>
    <fieldset><legend>Directions</legend>
      <div class="chips" id="dirs">
        <label class="chip"><input type="checkbox" value="r"> read</label>
        <label class="chip"><input type="checkbox" value="w"> write</label>
        <label class="chip"><input type="checkbox" value="t"> trim</label>
      </div>
    </fieldset>
    <div class="row2">
      <label>Unit <select id="unit" data-testid="unit"><option value="ns">ns</option><option value="us">µs</option><option value="ms">ms</option></select></label>
      <label title="How a percentile is read from the data">Method <select id="method" data-testid="method">${METHODS.map(([v, l, t]) => `<option value="${v}" title="${t}">${l}</option>`).join('')}</select></label>
    </div>
    <label id="kinds-row" hidden title="fio per-I/O logs: lat = slat + clat of each I/O, so kinds are never merged silently">Latency kind
      <select id="kinds" data-testid="kinds"></select>
    </label>
    <label title="Coordinated-omission correction (HdrHistogram's expected interval): percentiles and spectrum show corrected (dashed) beside recorded; the heat map stays on recorded data">CO expected interval (ms)
      <input id="co-interval" data-testid="co-interval" inputmode="decimal" placeholder="off (e.g. 1)" autocomplete="off">
    </label>
    <div id="co-error" class="error-text" role="alert"></div>
    <fieldset><legend>Display</legend>
      <div class="chips">
        <label class="chip"><input type="checkbox" id="ylog"> log y</label>
        <label class="chip"><input type="checkbox" id="mean"> mean</label>
        <label class="chip"><input type="checkbox" id="band"> error band</label>
      </div>
      <label title="Rules per percentile, judged per group and quantum as latscope pctiles --sla judges them; a number without a unit is in the displayed unit">SLA <span class="muted" id="sla-unit"></span>
        <input id="sla" data-testid="sla" placeholder="e.g. p99 < 2ms, p99.9 <= 20ms" autocomplete="off">
      </label>
      <div id="sla-error" class="error-text" data-testid="sla-error" role="alert"></div>
    </fieldset>`;
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (el.querySelector(`#${id}`));
  const sync = () => {
    const st = store.state;
    $('quantum').value = st.quantumPinned ? String(st.quantum_ms) : 'auto';
    el.querySelectorAll('#preset-pcts input').forEach((i) => {
      /** @type {HTMLInputElement} */ (i).checked = st.percentiles.includes(/** @type {HTMLInputElement} */ (i).value);
    });
    if (document.activeElement !== $('extra-pcts')) $('extra-pcts').value = st.percentiles.filter((p) => !PRESET_PERCENTILES.includes(p)).join(' ');
    $('group-by').value = st.group_by;
    el.querySelectorAll('#dirs input').forEach((i) => {
      /** @type {HTMLInputElement} */ (i).checked = st.directions.split(',').includes(/** @type {HTMLInputElement} */ (i).value);
    });
    $('unit').value = st.unit;
    $('method').value = st.method;
    $('kinds').value = st.kinds;
    if (document.activeElement !== $('co-interval')) $('co-interval').value = st.co_interval_ms > 0 ? String(st.co_interval_ms) : '';
    $('ylog').checked = st.yLog;
    $('mean').checked = st.showMean;
    $('band').checked = st.showBand;
    $('sla-unit').textContent = `(bare numbers in ${st.unit === 'us' ? 'µs' : st.unit})`;
    if (document.activeElement !== $('sla')) $('sla').value = st.sla.join(', ');
  };
  sync();
  store.subscribe(sync);

  // A quantum chosen pins it; "auto" lets it follow the zoom again (docs/page-views.md "Quantum follows the zoom").
  $('quantum').addEventListener('change', () => store.set($('quantum').value === 'auto' ? { quantumPinned: false } : { quantum_ms: Number($('quantum').value), quantumPinned: true }));
  // Core reads the checked presets and the field as one list (app/pct-field.js): its list into the state, its sentence for a bad item here.
  const setPcts = async () => {
    if (!pcts) return;
    const presets = Array.from(el.querySelectorAll('#preset-pcts input:checked')).map((i) => /** @type {HTMLInputElement} */ (i).value);
    $('pct-error').textContent = await pcts.set('percentiles', presets.join(','), $('extra-pcts').value);
  };
  el.querySelectorAll('#preset-pcts input').forEach((i) => i.addEventListener('change', setPcts));
  $('extra-pcts').addEventListener('change', setPcts);
  $('group-by').addEventListener('change', () => store.set({ group_by: $('group-by').value }));
  el.querySelectorAll('#dirs input').forEach((i) =>
    i.addEventListener('change', () => {
      const d = Array.from(el.querySelectorAll('#dirs input:checked')).map((x) => /** @type {HTMLInputElement} */ (x).value);
      if (!d.length) {
        /** @type {HTMLInputElement} */ (i).checked = true;
        return;
      }
      store.set({ directions: d.join(',') });
    }),
  );
  $('unit').addEventListener('change', () => store.set({ unit: $('unit').value }));
  $('method').addEventListener('change', () => store.set({ method: $('method').value }));
  $('kinds').addEventListener('change', () => store.set({ kinds: $('kinds').value }));
  $('co-interval').addEventListener('change', () => {
    try {
      const v = parseCoInterval($('co-interval').value);
      $('co-error').textContent = '';
      store.set({ co_interval_ms: v });
    } catch (e) {
      $('co-error').textContent = /** @type {Error} */ (e).message;
    }
  });
  $('ylog').addEventListener('change', () => store.set({ yLog: $('ylog').checked }));
  $('mean').addEventListener('change', () => store.set({ showMean: $('mean').checked }));
  $('band').addEventListener('change', () => store.set({ showBand: $('band').checked }));
  // Core reads the rules (app/sla.js): its spelling goes into the state, its sentence for a bad rule here.
  $('sla').addEventListener('change', async () => {
    if (!sla) return;
    $('sla-error').textContent = await sla.set(/** @type {HTMLInputElement} */ ($('sla')).value);
  });
}

/**
 * Replaces the group-by selector's choices (after a load: the labels the
 * loaded logs carry) and keeps the store's choice selected.
 * @param {HTMLElement} el the controls container
 * @param {[string, string][]} choices value -> title
 * @param {string} current
 */
export function setGroupings(el, choices, current) {
  fillSelect(/** @type {HTMLSelectElement} */ (el.querySelector('#group-by')), choices, current);
}

/**
 * Replaces a selector's options and selects `current`.
 * @param {HTMLSelectElement} sel @param {[string, string][]} choices value -> title @param {string} current
 */
function fillSelect(sel, choices, current) {
  const doc = sel.ownerDocument;
  sel.replaceChildren(
    ...choices.map(([v, title]) => {
      const o = doc.createElement('option');
      o.value = v;
      o.textContent = title;
      return o;
    }),
  );
  sel.value = current;
}

/**
 * After a load or a change of the selection: which methods the inputs allow
 * (exact only on per-I/O logs, the reason as the option's title) and the
 * latency kinds to choose from (the row is hidden unless several are loaded).
 * @param {HTMLElement} el the controls container
 * @param {import('./methods.js').Choice[]} methods
 * @param {[string, string][]} kinds value -> title ([] hides the selector)
 * @param {import('./state.js').State} st
 */
export function setInputChoices(el, methods, kinds, st) {
  const sel = /** @type {HTMLSelectElement} */ (el.querySelector('#method'));
  for (const m of methods) {
    const o = /** @type {HTMLOptionElement | null} */ (sel.querySelector(`option[value="${m.value}"]`));
    if (!o) continue;
    o.disabled = m.disabled;
    o.title = m.title;
    o.textContent = m.disabled ? `${m.label} (per-I/O logs only)` : m.label;
  }
  const blocked = methods.find((m) => m.value === st.method && m.disabled);
  sel.title = blocked ? blocked.title : methods.find((m) => m.value === st.method)?.title || '';
  sel.value = st.method;
  const row = /** @type {HTMLElement} */ (el.querySelector('#kinds-row'));
  fillSelect(/** @type {HTMLSelectElement} */ (el.querySelector('#kinds')), kinds, st.kinds);
  row.hidden = kinds.length < 2;
}

/**
 * The toolbar above the visible view: options that only that view has.
 * @param {HTMLElement} el @param {import('./state.js').Store} store @param {{surfaceLevels: () => string[], perIo?: () => boolean, groupsBy?: () => string}} info
 */
export function renderViewToolbar(el, store, info) {
  const s = store.state;
  if (s.view === 'heatmap') {
    const perIo = !!info.perIo?.();
    const yChoices = HEAT_Y.map(([v, l]) => `<option value="${v}" ${v !== 'latency' && !perIo ? 'disabled title="needs fio per-I/O logs (write_lat_log)"' : ''}>${l}</option>`).join('');
    el.innerHTML = `
      <label title="Rows by latency, or by block size / offset of each I/O (fio per-I/O logs)">Rows <select id="heat-y" data-testid="heat-y">${yChoices}</select></label>
      <label>Colour <select id="color-mode" data-testid="color-mode"><option value="linear">linear</option><option value="log">logarithmic</option><option value="false">false colour</option></select></label>
      <label>Palette <select id="palette" data-testid="palette">${Object.keys(PALETTES)
        .map((p) => `<option value="${p}">${p}${p === 'viridis' || p === 'cividis' ? ' (colour-blind safe)' : ''}</option>`)
        .join('')}</select></label>
      <label class="chip latency-only"><input type="checkbox" id="clip" data-testid="clip-outliers"> clip top 0.1% outliers</label>
      <label class="chip latency-only"><input type="checkbox" id="hlines"> percentile lines</label>
      <button type="button" class="button small latency-only" id="yreset" ${s.yZoomNs ? '' : 'disabled'}>Reset latency zoom</button>
      <span class="muted">${s.heatY === 'latency' ? 'drag a box to zoom time and latency' : 'drag to zoom time'}</span>
      ${s.co_interval_ms > 0 ? `<span class="muted co-note" data-testid="heat-co-note">recorded data: no coordinated-omission correction here</span>` : ''}`;
    const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (el.querySelector(`#${id}`));
    $('heat-y').value = perIo || s.heatY === 'latency' ? s.heatY : 'latency';
    $('heat-y').addEventListener('change', () => store.set({ heatY: /** @type {any} */ ($('heat-y').value), yZoomNs: null }));
    // Clipping, percentile lines and the latency zoom belong to latency rows.
    if (s.heatY !== 'latency') el.querySelectorAll('.latency-only').forEach((x) => x.remove());
    $('color-mode').value = s.colorMode;
    $('palette').value = s.palette;
    if (s.heatY === 'latency') {
      $('clip').checked = s.clipOutliers;
      $('hlines').checked = s.heatLines;
      $('clip').addEventListener('change', () => store.set({ clipOutliers: $('clip').checked, yZoomNs: null }));
      $('hlines').addEventListener('change', () => store.set({ heatLines: $('hlines').checked }));
      $('yreset').addEventListener('click', () => store.set({ yZoomNs: null }));
    }
    $('color-mode').addEventListener('change', () => store.set({ colorMode: /** @type {any} */ ($('color-mode').value) }));
    $('palette').addEventListener('change', () => store.set({ palette: $('palette').value }));
  } else if (s.view === 'surface') {
    const levels = info.surfaceLevels();
    const idx = nearestLevel(levels.map(Number), s.surfaceP);
    el.innerHTML = `
      <label>Palette <select id="palette">${Object.keys(PALETTES).map((p) => `<option value="${p}">${p}</option>`).join('')}</select></label>
      <label class="slider">Percentile line <input type="range" id="surface-p" data-testid="surface-slider" min="0" max="${levels.length - 1}" step="1" value="${idx}"> <output id="surface-p-out">p${levels[idx]}</output></label>${s.co_interval_ms > 0 ? `
      <span class="muted co-note">recorded data: no coordinated-omission correction here</span>` : ''}`;
    const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (el.querySelector(`#${id}`));
    $('palette').value = s.palette;
    $('palette').addEventListener('change', () => store.set({ palette: $('palette').value }));
    $('surface-p').addEventListener('input', () => {
      const p = levels[Number($('surface-p').value)];
      /** @type {HTMLOutputElement} */ (el.querySelector('#surface-p-out')).value = `p${p}`;
      store.set({ surfaceP: Number(p) });
    });
  } else if (s.view === 'groups') {
    const ps = groupsPercentiles(s);
    el.innerHTML = `
      <label>Show <select id="groups-mode" data-testid="groups-mode"><option value="heat">heat map: group × time</option><option value="top">worst N as lines, others as a band</option><option value="multiples">small multiples</option></select></label>
      <label>Percentile <select id="groups-p" data-testid="groups-p">${ps.map((p) => `<option value="${p}">${percentileName(p)}</option>`).join('')}</select></label>
      <label class="top-only">N <input id="top-n" data-testid="top-n" type="number" min="1" max="20" step="1"></label>
      <label class="not-top">Order <select id="groups-sort" data-testid="groups-sort"><option value="name">by name</option><option value="worst">worst over the run first</option></select></label>
      <span class="muted">${info.groupsBy ? `groups: ${info.groupsBy()}` : ''} (Lines per in the sidebar)</span>`;
    const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (el.querySelector(`#${id}`));
    $('groups-mode').value = s.groupsMode;
    $('groups-p').value = s.groupsP;
    $('top-n').value = String(s.topN);
    $('groups-sort').value = s.groupsSort;
    el.querySelectorAll(s.groupsMode === 'top' ? '.not-top' : '.top-only').forEach((x) => x.remove());
    $('groups-mode').addEventListener('change', () => store.set({ groupsMode: /** @type {any} */ ($('groups-mode').value) }));
    $('groups-p').addEventListener('change', () => store.set({ groupsP: $('groups-p').value }));
    $('top-n')?.addEventListener('change', () => {
      const n = Math.round(Number($('top-n').value));
      if (n >= 1 && n <= 20) store.set({ topN: n });
      else $('top-n').value = String(store.state.topN);
    });
    $('groups-sort')?.addEventListener('change', () => store.set({ groupsSort: /** @type {any} */ ($('groups-sort').value) }));
  } else if (s.view === 'density') {
    // The groups view's percentile and grouping: the same question, counted (docs/page-views.md, "Host density").
    const ps = groupsPercentiles(s);
    el.innerHTML = `
      <label>Percentile <select id="groups-p" data-testid="density-p">${ps.map((p) => `<option value="${p}">${percentileName(p)}</option>`).join('')}</select></label>
      <label>Palette <select id="palette">${Object.keys(PALETTES).map((p) => `<option value="${p}">${p}</option>`).join('')}</select></label>
      <span class="muted">${info.groupsBy ? `groups: ${info.groupsBy()}` : ''} (Lines per in the sidebar); colour: how many sit in a cell; click a cell to list them</span>`;
    const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (el.querySelector(`#${id}`));
    $('groups-p').value = s.groupsP;
    $('palette').value = s.palette;
    $('groups-p').addEventListener('change', () => store.set({ groupsP: $('groups-p').value }));
    $('palette').addEventListener('change', () => store.set({ palette: $('palette').value }));
  } else if (s.view === 'spectrum') {
    el.innerHTML = `<span class="muted">Distribution of the brushed time range (whole run when none), one curve per group of "Lines per". x: 1/(1−p) log axis.${s.co_interval_ms > 0 ? ' Dashed: corrected for coordinated omission.' : ''}</span>`;
  } else {
    // Adaptive quanta (docs/uncertainty.md, `latscope pctiles --adaptive ACC`): this view only.
    const on = s.adaptive > 0;
    el.innerHTML = `
      <label class="chip" title="Quanta of whole log windows, each grown until the highest percentile below max is known to the accuracy (latscope pctiles --adaptive); this view only"><input type="checkbox" id="adaptive" data-testid="adaptive"> adaptive quanta</label>
      <label title="95% band of the highest percentile below max: rank half-width at most this share of the I/Os above it (0.5 = ±50%)">accuracy <input id="adaptive-acc" data-testid="adaptive-acc" type="number" min="0.01" max="100" step="0.05" ${on ? '' : 'disabled'}></label>
      <span class="muted">${on ? 'Steps: each quantum as wide as it needed to be; other views keep the quantum. ' : ''}Drag across the chart to zoom all views to a time range; double-click to reset. Orange marks: quanta with too few I/Os for a percentile.${s.co_interval_ms > 0 ? ' Dashed: corrected for coordinated omission; IOPS: recorded.' : ''}</span>`;
    const box = /** @type {HTMLInputElement} */ (el.querySelector('#adaptive'));
    const acc = /** @type {HTMLInputElement} */ (el.querySelector('#adaptive-acc'));
    box.checked = on;
    acc.value = String(on ? s.adaptive : lastAccuracy);
    const accuracy = () => {
      const a = Number(acc.value);
      return a > 0 && a <= 100 ? a : DEFAULT_ACCURACY;
    };
    box.addEventListener('change', () => store.set({ adaptive: box.checked ? accuracy() : 0 }));
    acc.addEventListener('change', () => {
      lastAccuracy = accuracy();
      acc.value = String(lastAccuracy);
      if (box.checked) store.set({ adaptive: lastAccuracy });
    });
  }
}

/**
 * The percentiles the groups and density views offer: the usual ones, the
 * field's, and the one shown, ascending.
 * @param {{percentiles: string[], groupsP: string}} s
 */
function groupsPercentiles(s) {
  const ps = ['50', '90', '99', '99.9', '99.99', '100'];
  for (const p of s.percentiles) if (!ps.some((x) => Number(x) === Number(p))) ps.push(p);
  if (!ps.includes(s.groupsP)) ps.push(s.groupsP);
  return ps.sort((a, b) => Number(a) - Number(b));
}
