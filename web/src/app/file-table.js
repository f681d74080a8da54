// The file list: one row per log (its whole name, host, job, format, fio
// version, directions, unit, I/Os against fio's count, records, repaired,
// skipped lines with reasons, load state), in natural order, in a box that
// scrolls sideways within the sidebar while the tick and the name stay
// (abbreviated headers with tooltips; names wrap, never cut), include/exclude per
// file and per host, a time offset per host and one per file (a compact
// cell opening an editor row: the sidebar has no room for an input per
// file; docs/page-views.md "Offsets"). Files that are no latency
// log (job files, READMEs, IOPS logs, .DS_Store) are not rows: a collapsed
// list under the table names each with what it looks like. A broken log
// gets its own message above the table.
//
// After a load the engine's trust summary (core Engine::trust, docs/folders.md)
// fills the columns a results folder needs checked: each log's fio version
// and unit, its I/Os against fio's own json+ count or "not added" (a job with
// a histogram and a per-I/O log is counted by one of them, never both), and
// its warnings, as text under the file's row.
import { fileSummary, hostsOf, isIgnored, LOCAL_HOST } from './sources.js';
import { formatQuantum, formatBytes, compactMs, compactCount, thousands } from '../util/format.js';
import { naturalCompare } from '../util/natural-order.js';
import { ignoredRows, nameCell, cell, commonFolder, chunkTables } from './file-rows.js';
import { trustLine, trustCells } from './trust-rows.js';

/** The state cell's tooltip of a file loaded reduced (docs/page-loading.md §7). @param {{quantum_ms: number, windowsBytes: number, format: string}} r */
function reducedTitle(r) {
  if (!r.quantum_ms) return `loaded whole past the memory budget: its quanta would have taken more memory than its ${formatBytes(r.windowsBytes)} of windows`;
  return `loaded reduced to ${formatQuantum(r.quantum_ms)} quanta (its ${formatBytes(r.windowsBytes)} of windows would have passed the memory budget): exact at multiples of ${formatQuantum(r.quantum_ms)}`;
}

/**
 * The I/O column of a file: "354/400" (its I/Os of fio's count), "8,000",
 * or '' when it counts none (counts of 10,000 up as "16k": the exact
 * figures are the tooltip, trust-rows.js trustCells).
 * @param {import('../engine/inthread.js').TrustRow} t
 */
function iosText(t) {
  if (!(t.ios > 0) || !(t.account || t.what.startsWith('fio json'))) return '';
  const n = (/** @type {number} */ x) => compactCount(thousands(Math.round(x)));
  return t.compared ? `${n(t.ios)}/${n(t.fio_ios)}` : n(t.ios);
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

/**
 * The file table's columns: [col class, header, header title, header class,
 * width in px]. The widths are the table's least width (--ft-min): wider
 * than the sidebar, the table scrolls sideways in its box.
 * @param {boolean} runs a run column (the files are several runs)
 * @param {boolean} hosts a host column (some file names a host)
 * @returns {[string, string, string, string, number][]}
 */
function columns(runs, hosts) {
  /** @type {[string, string, string, string, number][]} */
  const c = [
    ['c-inc', '✓', 'include', '', 18],
    ['c-name', 'file', '', '', 88],
  ];
  if (hosts) c.push(['c-host', 'host', 'the host that wrote it (a fio client/server log: its name\'s suffix)', '', 62]);
  c.push(['c-job', 'job', 'fio job number(s)', '', 26]);
  if (runs) c.push(['c-run', 'run', 'the fio run this file belongs to (docs/runs.md)', '', 40]);
  // The trust summary first (what, unit, I/Os, defects, state): what the
  // sidebar's default width shows; the rest is a sideways scroll away.
  c.push(
    ['c-fmt', 'what', 'what the file is: its format', '', 48],
    ['c-unit', 'unit', 'the unit its latencies are written in (docs/folders.md)', '', 30],
    ['c-ios', 'I/Os', 'I/Os it holds, "/" fio\'s own count when the json+ output is loaded; "not added" when another log counts the same I/Os (docs/folders.md)', 'num', 72],
    ['c-rep', 'rep', 'repaired: fio client/server accumulation defect (docs/numbers.md, "Repair")', '', 30],
    ['c-skip', 'skip', 'lines skipped (hover a number for why)', 'num', 32],
    ['c-state', 'state', 'load state', '', 40],
    ['c-dirs', 'dir', 'directions: r read, w write, t trim', '', 24],
    ['c-rec', 'rec', 'records (lines or intervals read)', 'num', 33],
    ['c-fio', 'fio', 'fio version: from fio\'s json+ output of the run, or inferred from the log (docs/folders.md)', '', 50],
    ['c-off', 'off', 'offset: ms added to this file\'s clock (click to edit; wins over its host\'s offset)', 'num', 30],
  );
  return c;
}

/**
 * @param {HTMLElement} el file table container
 * @param {HTMLElement} hostEl host table container
 * @param {HTMLElement} errEl error list container
 * @param {{sources: any[], resultHosts?: string[] | null, skipped?: import('../load/files.js').SkippedItem[], pending: Map<string, {state: string, bytesDone: number, bytesTotal: number, message?: string}>, state: import('./state.js').State, placed?: Record<string, number>, trust?: import('../engine/inthread.js').TrustRow[] | null, onToggleFile: (name: string, on: boolean) => void, onToggleHost: (host: string, on: boolean) => void, onOffset: (host: string, ms: number) => void, onFileOffset: (name: string, ms: number) => void}} m
 */
export function renderFileTable(el, hostEl, errEl, m) {
  const doc = el.ownerDocument;
  // Names are shown without the folder they all share (".fio-results/"):
  // the column is narrow. The full path is the tooltip and data-file.
  const common = commonFolder([...m.sources.map((s) => s.name), ...m.pending.keys(), ...(m.skipped ?? []).map((s) => s.name)]);
  const short = (/** @type {string} */ name) => name.slice(common.length) || name;
  // A run column when the files are several runs (docs/runs.md; app/runs.js).
  const runs = m.sources.some((s) => s.labels?.run);
  const withHost = m.sources.some((s) => !isIgnored(s) && (s.host || s.labels?.host));
  const trustOf = new Map((m.trust ?? []).map((t) => [t.file, t]));
  const spec = columns(runs, withHost);
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
    nameCell(tr, short(src.name), src.name);
    if (withHost) cell(tr, s.host, 'host').title = s.host ? `host ${s.host}` : 'no host';
    cell(tr, s.jobs, 'job').title = s.jobs ? `job ${s.jobs}` : 'no job number';
    if (runs) cell(tr, src.labels?.run ?? '', 'run').title = `run ${src.labels?.run ?? ''}`;
    // A reduced file is a result in the engine; the table names what it was read as.
    const fmt = (src.reduced?.format || s.format).replace(/ \(.*\)$/, '');
    cell(tr, fmt, 'fmt').title = `format ${src.reduced?.format || s.format}`;
    const t = trustOf.get(src.name);
    const tc = t ? trustCells(t, short, src.format) : null;
    cell(tr, tc?.unit.text ?? '', 'unit').title = tc?.unit.title ?? '';
    const ios = cell(tr, tc ? (tc.notAdded ? 'not added' : iosText(/** @type {any} */ (t))) : '', `num ios${tc?.notAdded ? ' not-added' : ''}`);
    ios.title = tc ? (tc.notAdded ? `${tc.account.text}\n${tc.account.title}` : tc.ios.title || tc.account.title) : '';
    const rep = cell(tr, s.repaired, 'rep');
    // The repairs of the trust summary ("client/server defect repaired (2 series)") are this column's.
    rep.title = [t?.repairs, s.notes].filter(Boolean).join('\n') || (s.repaired === 'no' ? 'not repaired' : `repaired: ${s.repaired}`);
    if (s.notes) rep.classList.add('has-detail');
    const sk = cell(tr, s.skipped ? String(s.skipped) : '—', 'num skip');
    sk.title = s.skippedDetail || (s.skipped ? `${s.skipped} lines skipped` : 'no line skipped');
    if (s.skippedDetail) sk.classList.add('has-detail');
    const st = cell(tr, !s.ok ? 'error' : src.read_error ? 'part' : src.reduced?.quantum_ms ? `↓${formatQuantum(src.reduced.quantum_ms)}` : 'ok', `state ${s.ok && !src.read_error ? 'ok' : 'bad'}`);
    st.title = !s.ok ? s.message : src.read_error ? `partly read: ${src.read_error}` : src.reduced ? reducedTitle(src.reduced) : 'loaded';
    cell(tr, s.dirs, 'dirs');
    cell(tr, compactCount(s.records), 'num rec').title = `${s.records} records`;
    cell(tr, tc?.fio.text ?? '', 'fio').title = tc?.fio.title ?? '';
    const editing = el.dataset.editing === src.name;
    offsetCell(tr, src.name, m.state.offsets[src.name], s.ok, m.placed?.[baseName(src.name)], () => {
      el.dataset.editing = editing ? '' : src.name;
      renderFileTable(el, hostEl, errEl, m);
    });
    if (src.reduced) tr.dataset.reduced = String(src.reduced.quantum_ms);
    rows.push(tr);
    // The offset editor right under the row whose offset button opened it.
    if (editing && s.ok) rows.push(offsetEditor(tr, src.name, m.state.offsets[src.name], ncols, (ms) => {
      el.dataset.editing = '';
      m.onFileOffset(src.name, ms);
      // No state change (same value, or cancelled): close the editor anyway.
      renderFileTable(el, hostEl, errEl, m);
    }));
    // The trust summary's warnings: a line under the file's row, read
    // without hovering (its facts are the columns).
    const line = tc ? trustLine(tr, src.name, tc, ncols, false) : null;
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
    const at = spec.findIndex(([c]) => c === 'c-state');
    for (let i = 2; i < ncols; i++) {
      if (i !== at) {
        cell(tr, '');
        continue;
      }
      const st = cell(tr, p.state === 'error' ? 'error' : pendingText(p), p.state === 'error' ? 'state bad' : 'state');
      st.title = p.state === 'error' ? p.message || 'failed' : pendingText(p);
    }
    rows.push(tr);
  }
  el.replaceChildren(...chunkTables(doc, rows, cols, head));
  // Column widths set through the CSSOM (the page's CSP allows no style attributes).
  const px = new Map(spec.map(([c, , , , w]) => [c, w]));
  for (const col of el.querySelectorAll('col')) col.style.width = `${px.get(col.className) ?? 0}px`;
  el.style.setProperty('--ft-min', `${spec.reduce((a, x) => a + x[4], 0)}px`);
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
  // A result's level summed over hosts names no host: its hosts come from the file's header (level-view.js hosts).
  const hosts = m.resultHosts?.length ? m.resultHosts.map((host) => ({ host, files: 1 })) : hostsOf(m.sources);
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
      ? `placed ${placed} ms later: where its job started by fio's json+ output (its startdelay, or fio's job_start; fio stamps a job's logs from the job's own start: docs/placement.md). Click to give it an offset of your own instead.`
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

/** A path's last part: the engine names placed files by it (docs/placement.md). @param {string} p */
function baseName(p) {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}
