// The sidebar and status line drawn from the store: the session reports
// what it loaded (state.js SessionState) and these draw it; the view
// state's exclusions, offsets and grouping redraw what shows them. The
// session itself touches no element.
import { renderFileTable, updatePendingStates } from './file-table.js';
import { renderAccountChoice, renderReportInputs } from './trust-rows.js';
import { renderRunBanner, openCompare } from './runs.js';
import { loadSummary } from './sources.js';
import { memoryText } from './memory-budget.js';
import { formatBytes } from '../util/format.js';

/** Reports that change what the file table shows. */
const FILE_KEYS = ['sources', 'resultHosts', 'skipped', 'pending', 'fetchErrors', 'trust', 'reportInputs', 'placed'];

/**
 * @param {import('./state.js').Store} store
 * @param {(id: string) => HTMLElement} $ the page's elements by id
 * @param {{engine: () => any, budget: {budget: number, problems: string[]}, colors?: import('../views/colors.js').ColorKeeper}} session what the runs banner's A/B dialog (its runs in the page's colours) and the memory line need
 */
export function installSessionPanels(store, $, session) {
  const panels = {
    /** The status line: cut to one row, the whole sentence on hover. */
    status() {
      const { state, text } = store.session.status;
      const el = $('status');
      el.dataset.state = state;
      el.textContent = text;
      el.title = text;
    },
    /**
     * The progress bar's fill, as a transform: the compositor moves it with
     * no layout or paint of the page.
     */
    progress() {
      const p = store.session.progress;
      $('progress').hidden = !p.shown;
      $('progress-fill').style.transform = `scaleX(${Math.max(0, Math.min(1, p.fraction))})`;
      if (p.text !== undefined) $('progress-text').textContent = p.text;
    },
    files() {
      const ss = store.session;
      const sum = loadSummary(ss.sources, ss.skipped);
      renderAccountChoice($('account-choice'), ss.trust, store.state.account, (account) => store.set({ account }));
      $('file-count').textContent = ss.sources.length ? `(${sum.logs} of ${sum.logs + sum.broken} logs usable)` : ss.pending.size ? `(${ss.pending.size})` : '';
      renderFileTable($('file-table'), $('host-table'), $('file-errors'), {
        sources: ss.sources,
        resultHosts: ss.resultHosts,
        skipped: ss.skipped,
        pending: ss.pending,
        state: store.state,
        placed: ss.placed,
        trust: ss.trust,
        onToggleFile: (name, on) => {
          const ex = new Set(store.state.exclude_sources);
          if (on) ex.delete(name);
          else ex.add(name);
          store.set({ exclude_sources: [...ex] });
        },
        onToggleHost: (host, on) => {
          const ex = new Set(store.state.exclude_hosts);
          if (on) ex.delete(host);
          else ex.add(host);
          store.set({ exclude_hosts: [...ex] });
        },
        onOffset: (host, ms) => store.set({ offsets: { ...store.state.offsets, [host]: ms } }),
        onFileOffset: (name, ms) => store.set({ offsets: { ...store.state.offsets, [name]: ms } }),
      });
      renderReportInputs($('report-inputs'), ss.reportInputs?.rows, ss.reportInputs?.dropped);
      // URLs that failed (CORS, HTTP errors) while the others loaded.
      const errEl = $('file-errors');
      for (const m of ss.fetchErrors) {
        const d = document.createElement('div');
        d.className = 'file-error-msg fetch-error';
        d.textContent = m;
        errEl.prepend(d);
      }
    },
    /** The runs banner (runs.js): shown while the loaded files are several runs. */
    runs() {
      const ss = store.session;
      renderRunBanner($('runs-banner'), ss.runPlan, {
        grouped: store.state.group_by.split(',').includes('run'),
        onGroup: () => store.set({ group_by: 'run' }),
        onCompare: () => {
          if (ss.runPlan) openCompare({ engine: session.engine(), sources: ss.sources, items: ss.items, state: store.state, colors: session.colors }, ss.runPlan);
        },
      });
    },
    /** The "memory: ... of ... budget" line under the file table (docs/page-loading.md §7). */
    memory() {
      const el = $('memory');
      const m = store.session.memory;
      if (!el || !m) return;
      const b = session.budget;
      el.textContent = [memoryText(m.modelBytes, b.budget), ...b.problems].join('; ');
      const twin = m.twinBytes ? `; a second worker holding the same data answers half of each percentiles query, in ${formatBytes(m.twinBytes)} more (while the data is under a quarter of the budget)` : '';
      el.title = `estimated size of the loaded data in the engine; its WebAssembly memory is ${formatBytes(m.wasmBytes)} (it never shrinks)${twin}. Past the budget, files are loaded reduced to the quantum (?budget= in the page's URL sets it)`;
    },
  };
  store.onReport((changed) => {
    if (changed.has('status')) panels.status();
    if (changed.has('progress')) panels.progress();
    if (changed.has('runPlan')) panels.runs();
    if (FILE_KEYS.some((k) => changed.has(k))) panels.files();
    // Progress alone: the pending rows' state cells in place, when the table holds just them.
    else if (changed.has('pendingTick') && (store.session.sources.length || !updatePendingStates($('file-table'), store.session.pending))) panels.files();
    if (changed.has('memory')) panels.memory();
  });
  store.subscribe((changed) => {
    if (changed.has('group_by')) panels.runs();
    if (changed.has('exclude_sources') || changed.has('exclude_hosts') || changed.has('offsets')) panels.files();
  });
  return panels;
}
