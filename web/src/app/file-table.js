// The file list: one row per log (format, directions, records, repaired,
// skipped lines with reasons, load state; host and job in the name's
// tooltip), in natural order, compact enough for the sidebar's default
// width (abbreviated headers with tooltips, names cut in the middle so their
// distinguishing end stays), include/exclude per
// file and per host, a time offset per host and one per file (a compact
// cell opening an editor row: the sidebar has no room for an input per
// file; docs/page-views.md "Offsets"). Files that are no latency
// log (job files, READMEs, IOPS logs, .DS_Store) are not rows: a collapsed
// list under the table names each with what it looks like. A broken log
// gets its own message above the table.
//
// After a load the engine's trust summary (core Engine::trust, docs/folders.md)
// adds what a results folder needs checked: each log's fio version and unit,
// the account its jobs' I/Os are counted by (a job with a histogram and a
// per-I/O log is counted by one of them, never both), its I/Os against fio's
// own json+ count, and warnings, as text under the file's row.
import { fileSummary, hostsOf, isIgnored, LOCAL_HOST } from './sources.js';
import { middleSplit } from './names.js';
import { ACCOUNTS } from './options.js';
import { formatQuantum, formatBytes, formatNumber, compactMs, compactCount } from '../util/format.js';
import { naturalCompare } from '../util/natural-order.js';

/**
 * The account control above the table: which log counts the I/Os of a job
 * that has both a histogram and a per-I/O log (the queries' "accounts",
 * `latscope --account`). Shown when the loaded files have such a job (a
 * trust row names the file used instead); otherwise the choice changes
 * nothing and the control would only raise a question.
 * @param {HTMLElement | null} el @param {import('../engine/inthread.js').TrustRow[] | null | undefined} trust
 * @param {string} account the state's @param {(account: 'per-io' | 'hist') => void} onChange
 */
export function renderAccountChoice(el, trust, account, onChange) {
  if (!el) return;
  const both = (trust ?? []).filter((t) => t.used_instead);
  el.hidden = !both.length;
  if (!both.length) {
    el.replaceChildren();
    return;
  }
  const doc = el.ownerDocument;
  const label = doc.createElement('label');
  label.title = 'A job with both a histogram log and a per-I/O log: which one counts its I/Os (never both: that would count each I/O twice). latscope --account per-io|hist';
  label.append('I/Os counted by ');
  const sel = doc.createElement('select');
  sel.dataset.testid = 'account';
  for (const [v, text] of ACCOUNTS) {
    const o = doc.createElement('option');
    o.value = v;
    o.textContent = text;
    sel.appendChild(o);
  }
  sel.value = account === 'hist' ? 'hist' : 'per-io';
  sel.addEventListener('change', () => onChange(sel.value === 'hist' ? 'hist' : 'per-io'));
  label.appendChild(sel);
  const n = both.length;
  const note = doc.createElement('div');
  note.className = 'muted';
  note.textContent = `${n} file${n === 1 ? '' : 's'} not added: another log counts the same I/Os.`;
  el.replaceChildren(label, note);
}

/** The state cell's tooltip of a file loaded reduced (docs/page-loading.md §7). @param {{quantum_ms: number, windowsBytes: number, format: string}} r */
function reducedTitle(r) {
  if (!r.quantum_ms) return `loaded whole past the memory budget: its quanta would have taken more memory than its ${formatBytes(r.windowsBytes)} of windows`;
  return `loaded reduced to ${formatQuantum(r.quantum_ms)} quanta (its ${formatBytes(r.windowsBytes)} of windows would have passed the memory budget): exact at multiples of ${formatQuantum(r.quantum_ms)}`;
}

/** A file still loading, as its state cell says it: "reading 40%". @param {{state: string, bytesDone?: number, bytesTotal?: number}} p */
function pendingText(p) {
  return p.bytesTotal ? `${p.state} ${Math.floor((100 * (p.bytesDone ?? 0)) / p.bytesTotal)}%` : p.state;
}

/**
 * During a load, the pending rows' state cells updated in place ("reading
 * 40%", "done"): rebuilding a table of hundreds of rows every second cost
 * the main thread 0.2-0.3 s a time, CPU the parse workers need on a small
 * machine (docs/page-loading.md §1). False when the table does not hold
 * exactly these files as pending rows (then the caller renders it whole).
 * @param {HTMLElement} el the file table's container
 * @param {Map<string, {state: string, bytesDone?: number, bytesTotal?: number, message?: string}>} pending
 */
export function updatePendingStates(el, pending) {
  const rows = el.querySelectorAll('tbody > tr.pending');
  if (rows.length !== pending.size) return false;
  for (const tr of rows) {
    const p = pending.get(/** @type {HTMLElement} */ (tr).dataset.file ?? '');
    const st = /** @type {HTMLElement | null} */ (tr.querySelector('td.state'));
    if (!p || !st || p.state === 'error') return false;
    const text = pendingText(p);
    if (st.textContent !== text) {
      st.textContent = text;
      st.title = text;
    }
  }
  return true;
}

/** Rows per table of the file list (chunkTables). */
const CHUNK_ROWS = 40;
/** A row's height in px (11.5 px text, padding, border), the size a table not laid out yet holds. */
const ROW_PX = 25;

/** A trust line's or an editor row's height in px, for the same estimate. */
const ATTACHED_PX = 16;

/** A row that belongs to the file row above it: its offset editor, its trust line. @param {HTMLTableRowElement} tr */
function attached(tr) {
  return tr.classList.contains('offset-editor') || tr.classList.contains('trust-line');
}

/**
 * The file list as tables of CHUNK_ROWS files, the first with the header,
 * each later one in a box that the browser lays out only when it is
 * scrolled into view (content-visibility). With fixed table layout and the
 * same columns, the tables line up as one. A 200-file table laid out whole
 * took 50-170 ms of one task after each load (docs/page-views.md "The
 * load's longest task"); a list of up to CHUNK_ROWS files is one table.
 * A file's trust line and offset editor stay in its table and do not count.
 * @param {Document} doc @param {HTMLTableRowElement[]} rows @param {string} cols @param {string} head
 */
function chunkTables(doc, rows, cols, head) {
  /** @type {HTMLElement[]} */
  const out = [];
  let i = 0;
  do {
    let end = i;
    let files = 0;
    let px = 0;
    while (end < rows.length && (files < CHUNK_ROWS || attached(rows[end]))) {
      if (attached(rows[end])) px += ATTACHED_PX;
      else {
        files++;
        px += ROW_PX;
      }
      end++;
    }
    const table = doc.createElement('table');
    table.className = 'file-table';
    table.innerHTML = i === 0 ? cols + head : cols;
    const tb = doc.createElement('tbody');
    tb.append(...rows.slice(i, end));
    table.appendChild(tb);
    if (i === 0) out.push(table);
    else {
      const box = doc.createElement('div');
      box.className = 'file-chunk';
      // Its rows' height until it is first laid out (then the one it had):
      // a short last table holding 40 rows' place left blank space to scroll to.
      box.style.containIntrinsicSize = `auto ${px}px`;
      box.appendChild(table);
      out.push(box);
    }
    i = end;
  } while (i < rows.length);
  return out;
}

/**
 * The trust fields of one file (core TrustRow, docs/folders.md), as text
 * and tooltips. Pure: unit-tested without a page.
 * @param {import('../engine/inthread.js').TrustRow} t
 * @param {(name: string) => string} short a file name as the table shows it
 * @param {string} [format] the source's format ('fio-json', 'result', ...)
 */
export function trustCells(t, short = (n) => n, format = '') {
  const notAdded = !!t.used_instead;
  // "fio-3.33" from json+; "fio 3 (1856 bins)" inferred from a log's layout:
  // "fio 3", the why is the tooltip.
  const fio = t.fio_version.replace(/ \(.*\)$/, '');
  const fioTitle = !t.fio_version
    ? 'fio version unknown'
    : /^fio-/.test(t.fio_version)
      ? `${t.fio_version} (fio's json+ output of this run)`
      : `${t.fio_version}: inferred from the log itself (no fio json+ output of this run)`;
  const unitNotes = t.notes.filter((n) => !n.startsWith('not added') && !n.startsWith('not read'));
  const unit = t.unit === 'us' ? 'µs' : t.unit;
  const unitTitle = [t.unit ? `values written in ${unit}` : 'no latency values of its own', ...unitNotes].join('\n');
  /** @type {Record<string, string>} */
  const ACCOUNT = { hist: 'histogram', 'per-io': 'per-I/O', avg: 'averages' };
  const account = notAdded ? `not added: counted by ${short(t.used_instead)}` : ACCOUNT[t.account] ?? '';
  const accountTitle = notAdded
    ? t.notes.filter((n) => n.startsWith('not added') || n.startsWith('not read')).join('\n') || `not added: ${t.used_instead} counts the same I/Os`
    : t.account === 'hist'
      ? 'a fio histogram log: its jobs\' I/Os are counted from it (windows of bin counts)'
      : t.account === 'per-io'
        ? 'a fio per-I/O log: its jobs\' I/Os are counted from it (every I/O, exact)'
        : t.account === 'avg'
          ? 'a fio log of window averages (log_avg_msec): no I/O counts'
          : t.what;
  let ios = '';
  let iosTitle = '';
  // I/Os of fio's logs (what is checked against fio's count) and fio's
  // json+ count itself. Not of other files: a result's row counts its
  // fixed-point bins, not I/Os (the engine's trust gives 2^28 per I/O).
  if (!notAdded && t.ios > 0 && (t.account || format === 'fio-json')) {
    if (t.compared) {
      ios = `${formatNumber(t.ios)} of ${formatNumber(t.fio_ios)}`;
      iosTitle = `holds ${formatNumber(t.ios)} of the ${formatNumber(t.fio_ios)} I/Os fio counted (its json+ output)${t.account === 'hist' ? '; fio never logs a job\'s last, partial window, so a histogram log holds a little less' : ''}`;
    } else {
      ios = formatNumber(t.ios);
      iosTitle = t.account ? `${formatNumber(t.ios)} I/Os; fio's own count is not among the files (its json+ output), so it is not compared` : `${formatNumber(t.ios)} I/Os`;
    }
  }
  return {
    fio: { text: fio, title: fioTitle },
    unit: { text: unit, title: unitTitle },
    account: { text: account, title: accountTitle },
    ios: { text: ios, title: iosTitle },
    notAdded,
    warnings: t.warnings.slice(),
    doubtful: t.doubtful,
  };
}

/**
 * The file table's columns: [col class, header, header title, header class].
 * @param {boolean} runs a run column (the files are several runs)
 * @returns {[string, string, string, string][]}
 */
function columns(runs) {
  /** @type {[string, string, string, string][]} */
  const c = [
    ['c-inc', '✓', 'include', ''],
    ['c-name', 'file', '', ''],
  ];
  if (runs) c.push(['c-run', 'run', 'the fio run this file belongs to (docs/runs.md)', '']);
  c.push(
    ['c-fmt', 'fmt', 'format', ''],
    ['c-dirs', 'dir', 'directions: r read, w write, t trim', ''],
    ['c-rec', 'rec', 'records (lines or intervals read)', 'num'],
    ['c-rep', 'rep', 'repaired: fio client/server accumulation defect (docs/repair.md)', ''],
    ['c-skip', 'skip', 'lines skipped (hover a number for why)', 'num'],
    ['c-off', 'off', 'offset: ms added to this file\'s clock (click to edit; wins over its host\'s offset)', 'num'],
    ['c-state', 'state', 'load state', ''],
  );
  return c;
}

/**
 * @param {HTMLElement} el file table container
 * @param {HTMLElement} hostEl host table container
 * @param {HTMLElement} errEl error list container
 * @param {{sources: any[], skipped?: import('../load/files.js').SkippedItem[], pending: Map<string, {state: string, bytesDone: number, bytesTotal: number, message?: string}>, state: import('./state.js').State, placed?: Record<string, number>, trust?: import('../engine/inthread.js').TrustRow[] | null, onToggleFile: (name: string, on: boolean) => void, onToggleHost: (host: string, on: boolean) => void, onOffset: (host: string, ms: number) => void, onFileOffset: (name: string, ms: number) => void}} m
 */
export function renderFileTable(el, hostEl, errEl, m) {
  const doc = el.ownerDocument;
  // Names are shown without the folder they all share (".fio-results/"):
  // the column is narrow. The full path is the tooltip and data-file.
  const common = commonFolder([...m.sources.map((s) => s.name), ...m.pending.keys(), ...(m.skipped ?? []).map((s) => s.name)]);
  const short = (/** @type {string} */ name) => name.slice(common.length) || name;
  // A run column when the files are several runs (docs/runs.md; app/runs.js).
  const runs = m.sources.some((s) => s.labels?.run);
  const trustOf = new Map((m.trust ?? []).map((t) => [t.file, t]));
  const spec = columns(runs);
  const ncols = spec.length;
  const esc = (/** @type {string} */ x) => x.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  // Fixed text only (no file name): innerHTML is safe here.
  const cols = `<colgroup>${spec.map(([c]) => `<col class="${c}">`).join('')}</colgroup>`;
  const head = `<thead><tr>${spec.map(([, h, t, k]) => `<th${k ? ` class="${k}"` : ''}${t ? ` title="${esc(t)}"` : ''}>${esc(h)}</th>`).join('')}</tr></thead>`;
  /** The rows in order (an offset editor right after its file's row). @type {HTMLTableRowElement[]} */
  const rows = [];
  const seen = new Set();
  const byName = (/** @type {{name: string}} */ a, /** @type {{name: string}} */ b) => naturalCompare(a.name, b.name);
  for (const src of [...m.sources].sort(byName)) {
    seen.add(src.name);
    if (isIgnored(src)) continue;
    const s = fileSummary(src);
    const tr = doc.createElement('tr');
    tr.dataset.file = src.name;
    tr.className = s.ok ? '' : 'file-error';
    const cb = doc.createElement('input');
    cb.type = 'checkbox';
    cb.checked = s.ok && !m.state.exclude_sources.includes(src.name);
    cb.disabled = !s.ok;
    cb.title = 'include this file';
    cb.addEventListener('change', () => m.onToggleFile(src.name, cb.checked));
    const td0 = doc.createElement('td');
    td0.appendChild(cb);
    tr.appendChild(td0);
    const who = [s.host && `host ${s.host}`, s.jobs && `job ${s.jobs}`].filter(Boolean).join(', ');
    nameCell(tr, short(src.name), who ? `${src.name}\n${who}` : src.name);
    if (runs) cell(tr, src.labels?.run ?? '', 'run').title = `run ${src.labels?.run ?? ''}`;
    // A reduced file is a result in the engine; the table names what it was read as.
    const fmt = (src.reduced?.format || s.format).replace(/ \(.*\)$/, '');
    cell(tr, fmt, 'fmt').title = `format ${src.reduced?.format || s.format}`;
    cell(tr, s.dirs, 'dirs');
    cell(tr, compactCount(s.records), 'num rec').title = `${s.records} records`;
    const rep = cell(tr, s.repaired, 'rep');
    // The repairs of the trust summary ("client/server defect repaired (2 series)") are this column's.
    const repairs = trustOf.get(src.name)?.repairs;
    rep.title = [repairs, s.notes].filter(Boolean).join('\n') || (s.repaired === 'no' ? 'not repaired' : `repaired: ${s.repaired}`);
    if (s.notes) rep.classList.add('has-detail');
    const sk = cell(tr, s.skipped ? String(s.skipped) : '—', 'num skip');
    sk.title = s.skippedDetail || (s.skipped ? `${s.skipped} lines skipped` : 'no line skipped');
    if (s.skippedDetail) sk.classList.add('has-detail');
    const editing = el.dataset.editing === src.name;
    offsetCell(tr, src.name, m.state.offsets[src.name], s.ok, m.placed?.[baseName(src.name)], () => {
      el.dataset.editing = editing ? '' : src.name;
      renderFileTable(el, hostEl, errEl, m);
    });
    const st = cell(tr, !s.ok ? 'error' : src.read_error ? 'part' : src.reduced?.quantum_ms ? `↓${formatQuantum(src.reduced.quantum_ms)}` : 'ok', `state ${s.ok && !src.read_error ? 'ok' : 'bad'}`);
    st.title = !s.ok ? s.message : src.read_error ? `partly read: ${src.read_error}` : src.reduced ? reducedTitle(src.reduced) : 'loaded';
    if (src.reduced) tr.dataset.reduced = String(src.reduced.quantum_ms);
    rows.push(tr);
    // The offset editor right under the row whose offset button opened it.
    if (editing && s.ok) rows.push(offsetEditor(tr, src.name, m.state.offsets[src.name], ncols, (ms) => {
      el.dataset.editing = '';
      m.onFileOffset(src.name, ms);
      // No state change (same value, or cancelled): close the editor anyway.
      renderFileTable(el, hostEl, errEl, m);
    }));
    // The trust summary: a line under the file's row (the sidebar has no
    // room for four more columns), warnings read without hovering.
    const t = trustOf.get(src.name);
    const line = t ? trustLine(tr, src.name, trustCells(t, short, src.format), ncols) : null;
    if (line) rows.push(line);
  }
  // Files still loading (or failed before the engine returned a Source).
  for (const [name, p] of [...m.pending].sort((a, b) => naturalCompare(a[0], b[0]))) {
    if (seen.has(name)) continue;
    const tr = doc.createElement('tr');
    tr.dataset.file = name;
    tr.className = p.state === 'error' ? 'file-error' : 'pending';
    tr.appendChild(doc.createElement('td'));
    nameCell(tr, short(name), name);
    for (let i = 0; i < ncols - 3; i++) cell(tr, '');
    const st = cell(tr, p.state === 'error' ? 'error' : pendingText(p), p.state === 'error' ? 'state bad' : 'state');
    st.title = p.state === 'error' ? p.message || 'failed' : pendingText(p);
    rows.push(tr);
  }
  el.replaceChildren(...chunkTables(doc, rows, cols, head));
  const ignored = ignoredList(doc, m.sources, m.skipped ?? [], short);
  if (ignored) el.appendChild(ignored);

  // Specific errors, visible without hovering: broken logs, and logs whose
  // bytes ended early (truncated or corrupt gzip: the part read is loaded).
  const errs = m.sources.filter((s) => !fileSummary(s).ok).map((s) => ({ name: s.name, message: s.status?.message || 'unreadable' }));
  for (const s of m.sources) if (fileSummary(s).ok && s.read_error) errs.push({ name: s.name, message: s.read_error });
  for (const [name, p] of m.pending) if (p.state === 'error' && !seen.has(name)) errs.push({ name, message: p.message || 'failed' });
  errEl.replaceChildren(
    ...errs.map((e) => {
      const d = doc.createElement('div');
      d.className = 'file-error-msg';
      d.dataset.file = e.name;
      // Engine messages usually start with the file's name already.
      d.textContent = e.message.startsWith(e.name) ? e.message : `${e.name}: ${e.message}`;
      return d;
    }),
  );
  const warn = m.sources.filter((s) => fileSummary(s).ok && fileSummary(s).skippedDetail);
  for (const s of warn) {
    const d = doc.createElement('div');
    d.className = 'file-warn-msg';
    d.textContent = `${s.name}: ${fileSummary(s).skippedDetail}`;
    errEl.appendChild(d);
  }

  // Hosts: include and offset.
  const hosts = hostsOf(m.sources);
  // One host, or only logs without a host: nothing to align or pick.
  if (hosts.length === 0 || (hosts.length === 1 && hosts[0].host === LOCAL_HOST)) {
    hostEl.replaceChildren();
    return;
  }
  const ht = doc.createElement('table');
  ht.className = 'host-table';
  ht.innerHTML = '<thead><tr><th>✓</th><th>host</th><th class="num">files</th><th title="added to this host\'s timestamps">offset ms</th></tr></thead>';
  const hb = doc.createElement('tbody');
  for (const h of hosts) {
    const tr = doc.createElement('tr');
    tr.dataset.host = h.host;
    const cb = doc.createElement('input');
    cb.type = 'checkbox';
    cb.checked = !m.state.exclude_hosts.includes(h.host);
    cb.addEventListener('change', () => m.onToggleHost(h.host, cb.checked));
    const td = doc.createElement('td');
    td.appendChild(cb);
    tr.appendChild(td);
    cell(tr, h.host);
    cell(tr, String(h.files), 'num');
    const inp = doc.createElement('input');
    inp.type = 'number';
    inp.step = '1';
    inp.className = 'offset-input';
    inp.value = String(m.state.offsets[h.host] || 0);
    inp.addEventListener('change', () => m.onOffset(h.host, Number(inp.value) || 0));
    const td2 = doc.createElement('td');
    td2.appendChild(inp);
    tr.appendChild(td2);
    hb.appendChild(tr);
  }
  ht.appendChild(hb);
  hostEl.replaceChildren(ht);
}

/**
 * The files that are no latency log, collapsed: "3 files ignored (not
 * latency logs)", opening to one line each: name, what it looks like.
 * @param {Document} doc @param {any[]} sources @param {import('../load/files.js').SkippedItem[]} skipped
 * @param {(name: string) => string} short the name as shown
 * @returns {HTMLDetailsElement | null}
 */
function ignoredList(doc, sources, skipped, short) {
  return ignoredRows(doc, [
    ...sources.filter(isIgnored).map((s) => ({ name: s.name, what: s.ignored || 'not a latency log' })),
    ...skipped.map((s) => ({ name: s.name, what: `${s.reason}, not read${s.files > 1 ? ` (${s.files} files)` : ''}` })),
  ], short);
}

/**
 * The collapsed list of files that are no latency log (ignoredList; a
 * report's inputs, renderReportInputs).
 * @param {Document} doc @param {{name: string, what: string}[]} rows @param {(name: string) => string} short
 * @returns {HTMLDetailsElement | null}
 */
function ignoredRows(doc, rows, short) {
  if (!rows.length) return null;
  const det = doc.createElement('details');
  det.className = 'ignored-files';
  det.dataset.testid = 'ignored-files';
  const sum = doc.createElement('summary');
  sum.textContent = `${rows.length} file${rows.length > 1 ? 's' : ''} ignored (not latency logs)`;
  det.appendChild(sum);
  const ul = doc.createElement('ul');
  for (const r of rows) {
    const li = doc.createElement('li');
    li.dataset.file = r.name;
    const n = doc.createElement('span');
    n.className = 'name';
    n.textContent = short(r.name);
    n.title = r.name;
    const w = doc.createElement('span');
    w.className = 'what';
    w.textContent = r.what;
    li.append(n, w);
    ul.appendChild(li);
  }
  det.appendChild(ul);
  return det;
}

/** A trust row of a file that is no latency log (core trust.cc what_of: "not a latency log (fio job file)"). */
const NOT_A_LOG = /^not a latency log(?: \((.*)\))?$/;

/**
 * The files a report was made from (`latscope report` embeds their trust
 * summary beside the result: docs/page-loading.md §6), under the file
 * table: the page holds only the result, so this is where a reader sees
 * which logs counted its I/Os and how far to trust them. Each input is a
 * name row with the same trust line as a loaded file (trustCells,
 * trustLine): fio version, unit, account or "not added: counted by X",
 * I/Os of fio's count, warnings as text, doubtful rows marked. Files that
 * are no latency log go to the same collapsed list as the table's. No
 * checkbox, offset or account control: the report's choices are made,
 * these files are not in the page. Text only (textContent).
 * @param {HTMLElement | null} el @param {import('../engine/inthread.js').TrustRow[] | null | undefined} rows
 * @param {number} [dropped] rows of the embedded summary that could not be read (embedded-data.js)
 */
export function renderReportInputs(el, rows, dropped = 0) {
  if (!el) return;
  el.hidden = !rows;
  if (!rows) {
    el.replaceChildren();
    return;
  }
  const doc = el.ownerDocument;
  const short = (() => {
    const common = commonFolder(rows.map((r) => r.file));
    return (/** @type {string} */ name) => name.slice(common.length) || name;
  })();
  const logs = [...rows].filter((r) => !NOT_A_LOG.test(r.what)).sort((a, b) => naturalCompare(a.file, b.file));
  const ignored = rows.filter((r) => NOT_A_LOG.test(r.what)).map((r) => ({ name: r.file, what: r.what.replace(NOT_A_LOG, (_, w) => w || 'not a latency log') }));
  const head = doc.createElement('h3');
  head.className = 'inputs-head';
  head.textContent = 'Made from';
  const count = doc.createElement('span');
  count.className = 'muted';
  const n = rows.length;
  const doubtful = rows.filter((r) => r.doubtful).length;
  const unusable = rows.filter((r) => !r.ok).length;
  count.textContent = ` ${formatNumber(n)} file${n === 1 ? '' : 's'}`;
  head.appendChild(count);
  // How many are doubtful, in the heading: the reader of a report sees it
  // before reading any line (the lines say which and why).
  for (const [k, text] of /** @type {[number, string][]} */ ([[doubtful, 'doubtful'], [unusable, 'unusable']])) {
    if (!k) continue;
    const b = doc.createElement('strong');
    b.className = 'inputs-bad';
    b.textContent = ` · ${formatNumber(k)} ${text}`;
    head.appendChild(b);
  }
  const what = doc.createElement('div');
  what.className = 'muted inputs-what';
  what.textContent = 'latscope report made the result above from these files; the page holds the result, not the files.';
  /** @type {HTMLTableRowElement[]} */
  const trs = [];
  for (const t of logs) {
    const tr = doc.createElement('tr');
    tr.dataset.input = t.file;
    tr.appendChild(doc.createElement('td'));
    nameCell(tr, short(t.file), t.what ? `${t.file}\n${t.what}` : t.file);
    // trustCells shows an I/O count for fio's logs and fio's json+ (not
    // for a result's fixed-point bins); the row says json+ by its `what`.
    const tc = trustCells(t, short, t.what.startsWith('fio json') ? 'fio-json' : '');
    if (!t.ok) {
      // An input the report could not use: not in the result, said as text.
      tr.classList.add('file-error');
      tc.warnings.unshift('not usable: left out of the result');
    }
    trs.push(tr);
    const line = trustLine(tr, t.file, tc, 2);
    if (line) trs.push(line);
  }
  /** @type {HTMLElement[]} */
  const parts = [head, what];
  if (trs.length) parts.push(...chunkTables(doc, trs, '<colgroup><col class="c-inc"><col class="c-name"></colgroup>', ''));
  const ig = ignoredRows(doc, ignored, short);
  if (ig) parts.push(ig);
  if (dropped) {
    const d = doc.createElement('div');
    d.className = 'file-warn-msg';
    d.textContent = `${formatNumber(dropped)} input${dropped === 1 ? '' : 's'} of the page's data could not be read and ${dropped === 1 ? 'is' : 'are'} not shown (the browser console says why).`;
    parts.push(d);
  }
  el.replaceChildren(...parts);
}

/**
 * The folder every name is in ("run/" for run/a.log and run/h2/b.log), or ''.
 * @param {string[]} names
 */
export function commonFolder(names) {
  if (!names.length) return '';
  let p = names[0].slice(0, names[0].lastIndexOf('/') + 1);
  for (const n of names) while (p && !n.startsWith(p)) p = p.slice(0, p.slice(0, -1).lastIndexOf('/') + 1);
  return p;
}

/**
 * The file name cell: its text is the whole (shortened-folder) name, shown
 * as a head that CSS cuts with an ellipsis and a tail that always shows.
 * @param {HTMLTableRowElement} tr @param {string} text @param {string} title
 */
function nameCell(tr, text, title) {
  const doc = tr.ownerDocument;
  const td = doc.createElement('td');
  td.className = 'name';
  td.title = title;
  const [head, tail] = middleSplit(text);
  const h = doc.createElement('span');
  h.className = 'name-head';
  h.textContent = head;
  const t = doc.createElement('span');
  t.className = 'name-tail';
  t.textContent = tail;
  const box = doc.createElement('div');
  box.className = 'name-box';
  box.append(h, t);
  td.appendChild(box);
  tr.appendChild(td);
  return td;
}

/**
 * The offset cell of a file: a small button showing the file's own offset
 * ("—" when none) that opens the editor row under the file; without one,
 * the shift its job's startdelay gave it (placed, docs/placement.md).
 * @param {HTMLTableRowElement} tr @param {string} name @param {number | undefined} ms
 * @param {boolean} ok @param {number | undefined} placed @param {() => void} onClick
 */
function offsetCell(tr, name, ms, ok, placed, onClick) {
  const td = cell(tr, '', 'num off');
  if (!ok) return td;
  const b = tr.ownerDocument.createElement('button');
  b.type = 'button';
  b.className = 'off-button';
  b.dataset.testid = 'file-offset';
  b.textContent = ms ? compactMs(ms) : placed ? compactMs(placed) : '—';
  b.title = ms
    ? `offset ${ms} ms (click to change)`
    : placed
      ? `placed ${placed} ms later: its job's startdelay in fio's json+ output (fio stamps a job's logs from the job's own start; docs/placement.md). Click to give it an offset of your own instead.`
      : `set an offset for ${name} (ms added to its clock)`;
  // Placed by the engine, not set by the user: shown apart (and in tests).
  if (!ms && placed) {
    b.classList.add('placed');
    b.dataset.placed = String(placed);
  }
  b.addEventListener('click', onClick);
  td.appendChild(b);
  return td;
}

/**
 * The trust line under a file's row: its fio version, unit, account and
 * I/Os against fio's count as labelled text fields (class fio, unit, acct,
 * ios), then each warning on its own line, readable without hovering. A
 * file with warnings has its row marked (class trust-warn, a ⚠), a doubtful
 * one (its numbers disagree with fio's, or its fio version is known to log
 * them wrong; docs/folders.md) more so (trust-doubtful, ✗ doubtful). Null
 * when the summary has nothing to say about the file.
 * @param {HTMLTableRowElement} tr the file's row @param {string} name
 * @param {ReturnType<typeof trustCells>} tc @param {number} span columns
 * @returns {HTMLTableRowElement | null}
 */
function trustLine(tr, name, tc, span) {
  const doc = tr.ownerDocument;
  /** @type {[string, string, {text: string, title: string}][]} label, class, field */
  const fields = [
    ['', 'fio', tc.fio],
    ['', 'unit', tc.unit],
    ['', tc.notAdded ? 'acct not-added' : 'acct', tc.account],
    ['I/Os ', 'ios', tc.ios],
  ];
  const shown = fields.filter(([, , f]) => f.text);
  const warn = tc.warnings.length > 0 || tc.doubtful;
  if (!shown.length && !warn) return null;
  const row = doc.createElement('tr');
  row.className = 'trust-line';
  // Not data-file: that names the file's own row (tests, offsets, the pending-row update).
  row.dataset.trustFor = name;
  row.appendChild(doc.createElement('td'));
  const td = doc.createElement('td');
  td.colSpan = span - 1;
  // The fields sit in fixed grid columns (main.css .trust-facts), so that
  // down the table they line up like columns; the separators, hidden
  // there, keep the text readable when copied.
  const facts = doc.createElement('div');
  facts.className = 'trust-facts';
  shown.forEach(([label, cls, f], i) => {
    if (i) {
      const sep = doc.createElement('span');
      sep.className = 'sep';
      sep.textContent = ' · ';
      facts.appendChild(sep);
    }
    const el = doc.createElement('span');
    el.className = cls;
    el.textContent = f.text;
    if (f.title) el.title = f.title;
    if (!label) {
      facts.appendChild(el);
      return;
    }
    const box = doc.createElement('span');
    box.className = `${cls}-cell`;
    box.append(label, el);
    if (f.title) box.title = f.title;
    facts.appendChild(box);
  });
  if (shown.length) td.appendChild(facts);
  if (tc.notAdded) tr.classList.add('not-added');
  if (warn) {
    const kind = tc.doubtful ? 'doubtful' : 'warn';
    tr.classList.add(`trust-${kind}`);
    row.classList.add(kind);
    const lines = tc.warnings.length ? tc.warnings : ["its numbers disagree with fio's own count"];
    for (const [i, w] of lines.entries()) {
      const d = doc.createElement('div');
      d.className = 'trust-warning';
      // The mark says how bad, as text (not colour alone).
      const mark = doc.createElement('strong');
      mark.className = 'trust-mark';
      mark.textContent = i === 0 && tc.doubtful ? '✗ doubtful: ' : '⚠ ';
      d.append(mark, w);
      td.appendChild(d);
    }
  }
  row.appendChild(td);
  return row;
}

/**
 * The editor row of one file's offset: a number input (ms) and Set / Clear.
 * Enter sets, Escape cancels.
 * @param {HTMLTableRowElement} tr the file's row @param {string} name @param {number | undefined} ms
 * @param {number} span columns @param {(ms: number) => void} done
 */
function offsetEditor(tr, name, ms, span, done) {
  const doc = tr.ownerDocument;
  const row = doc.createElement('tr');
  row.className = 'offset-editor';
  row.dataset.file = name;
  const td = doc.createElement('td');
  td.colSpan = span;
  const label = doc.createElement('label');
  label.textContent = 'offset ms ';
  label.title = `added to every timestamp of ${name}; a file's own offset wins over its host's (latscope --offset NAME=MS)`;
  const inp = doc.createElement('input');
  inp.type = 'number';
  inp.step = '1';
  inp.className = 'offset-input';
  inp.dataset.testid = 'file-offset-input';
  inp.value = String(ms || 0);
  label.appendChild(inp);
  const set = doc.createElement('button');
  set.type = 'button';
  set.className = 'button small';
  set.dataset.testid = 'file-offset-set';
  set.textContent = 'Set';
  const clear = doc.createElement('button');
  clear.type = 'button';
  clear.className = 'button small';
  clear.textContent = 'Clear';
  const value = () => {
    const v = Number(inp.value);
    return Number.isFinite(v) && Math.abs(v) <= 1e9 ? v : 0;
  };
  set.addEventListener('click', () => done(value()));
  clear.addEventListener('click', () => done(0));
  inp.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') done(value());
    else if (e.key === 'Escape') done(ms || 0);
  });
  td.append(label, ' ', set, ' ', clear);
  row.appendChild(td);
  // Focus once the row is in the document.
  setTimeout(() => inp.focus(), 0);
  return row;
}

/** @param {HTMLTableRowElement} tr @param {string} text @param {string} [cls] */
function cell(tr, text, cls) {
  const td = tr.ownerDocument.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

/** A path's last part: the engine names placed files by it (docs/placement.md). @param {string} p */
function baseName(p) {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}
