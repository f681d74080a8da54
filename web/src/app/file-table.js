// The file list: one row per log (format, host, job, directions, records,
// repaired, skipped lines with reasons, load state), include/exclude per
// file and per host, and a time offset per host. Files that are no latency
// log (job files, READMEs, IOPS logs, .DS_Store) are not rows: a collapsed
// list under the table names each with what it looks like. A broken log
// gets its own message above the table.
import { fileSummary, hostsOf, isIgnored, LOCAL_HOST } from './sources.js';

/**
 * @param {HTMLElement} el file table container
 * @param {HTMLElement} hostEl host table container
 * @param {HTMLElement} errEl error list container
 * @param {{sources: any[], skipped?: import('../load/files.js').SkippedItem[], pending: Map<string, {state: string, bytesDone: number, bytesTotal: number, message?: string}>, state: import('./state.js').State, onToggleFile: (name: string, on: boolean) => void, onToggleHost: (host: string, on: boolean) => void, onOffset: (host: string, ms: number) => void}} m
 */
export function renderFileTable(el, hostEl, errEl, m) {
  const doc = el.ownerDocument;
  // Names are shown without the folder they all share (".fio-results/"):
  // the column is narrow. The full path is the tooltip and data-file.
  const common = commonFolder([...m.sources.map((s) => s.name), ...m.pending.keys(), ...(m.skipped ?? []).map((s) => s.name)]);
  const short = (/** @type {string} */ name) => name.slice(common.length) || name;
  const table = doc.createElement('table');
  table.className = 'file-table';
  table.innerHTML =
    '<thead><tr><th title="include">✓</th><th>file</th><th>format</th><th>host</th><th>job</th><th>dirs</th><th class="num">records</th><th title="client/server accumulation defect repaired">repaired</th><th>skipped</th><th>state</th></tr></thead>';
  const tb = doc.createElement('tbody');
  const seen = new Set();
  for (const src of m.sources) {
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
    cell(tr, short(src.name), 'name').title = src.name;
    cell(tr, s.format);
    cell(tr, s.host);
    cell(tr, s.jobs);
    cell(tr, s.dirs);
    cell(tr, s.records, 'num');
    const rep = cell(tr, s.repaired);
    if (s.notes) {
      rep.title = s.notes;
      rep.classList.add('has-detail');
    }
    const sk = cell(tr, s.skipped ? `${s.skipped} lines` : '—');
    if (s.skippedDetail) {
      sk.title = s.skippedDetail;
      sk.classList.add('has-detail');
    }
    const st = cell(tr, !s.ok ? 'error' : src.read_error ? 'partly read' : 'loaded', s.ok && !src.read_error ? 'ok' : 'bad');
    if (!s.ok) st.title = s.message;
    else if (src.read_error) st.title = src.read_error;
    tb.appendChild(tr);
  }
  // Files still loading (or failed before the engine returned a Source).
  for (const [name, p] of m.pending) {
    if (seen.has(name)) continue;
    const tr = doc.createElement('tr');
    tr.dataset.file = name;
    tr.className = p.state === 'error' ? 'file-error' : 'pending';
    tr.appendChild(doc.createElement('td'));
    cell(tr, short(name), 'name').title = name;
    for (let i = 0; i < 7; i++) cell(tr, '');
    const pct = p.bytesTotal ? ` ${Math.floor((100 * p.bytesDone) / p.bytesTotal)}%` : '';
    cell(tr, p.state === 'error' ? 'error' : `${p.state}${pct}`, p.state === 'error' ? 'bad' : '');
    tb.appendChild(tr);
  }
  table.appendChild(tb);
  el.replaceChildren(table);
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
  const rows = [
    ...sources.filter(isIgnored).map((s) => ({ name: s.name, what: s.ignored || 'not a latency log' })),
    ...skipped.map((s) => ({ name: s.name, what: `${s.reason}, not read${s.files > 1 ? ` (${s.files} files)` : ''}` })),
  ];
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

/** @param {HTMLTableRowElement} tr @param {string} text @param {string} [cls] */
function cell(tr, text, cls) {
  const td = tr.ownerDocument.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}
