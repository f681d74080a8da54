// The file list: one row per file (format, host, job, directions, records,
// repaired, skipped lines with reasons, load state), include/exclude per
// file and per host, and a time offset per host.
import { fileSummary, hostsOf } from './sources.js';

/**
 * @param {HTMLElement} el file table container
 * @param {HTMLElement} hostEl host table container
 * @param {HTMLElement} errEl error list container
 * @param {{sources: any[], pending: Map<string, {state: string, bytesDone: number, bytesTotal: number, message?: string}>, state: import('./state.js').State, onToggleFile: (name: string, on: boolean) => void, onToggleHost: (host: string, on: boolean) => void, onOffset: (host: string, ms: number) => void}} m
 */
export function renderFileTable(el, hostEl, errEl, m) {
  const doc = el.ownerDocument;
  const table = doc.createElement('table');
  table.className = 'file-table';
  table.innerHTML =
    '<thead><tr><th title="include">✓</th><th>file</th><th>format</th><th>host</th><th>job</th><th>dirs</th><th class="num">records</th><th title="client/server accumulation defect repaired">repaired</th><th>skipped</th><th>state</th></tr></thead>';
  const tb = doc.createElement('tbody');
  const seen = new Set();
  for (const src of m.sources) {
    seen.add(src.name);
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
    cell(tr, src.name, 'name').title = src.name;
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
    const st = cell(tr, s.ok ? 'loaded' : 'error', s.ok ? 'ok' : 'bad');
    if (!s.ok) st.title = s.message;
    tb.appendChild(tr);
  }
  // Files still loading (or failed before the engine returned a Source).
  for (const [name, p] of m.pending) {
    if (seen.has(name)) continue;
    const tr = doc.createElement('tr');
    tr.dataset.file = name;
    tr.className = p.state === 'error' ? 'file-error' : 'pending';
    tr.appendChild(doc.createElement('td'));
    cell(tr, name, 'name');
    for (let i = 0; i < 7; i++) cell(tr, '');
    const pct = p.bytesTotal ? ` ${Math.floor((100 * p.bytesDone) / p.bytesTotal)}%` : '';
    cell(tr, p.state === 'error' ? 'error' : `${p.state}${pct}`, p.state === 'error' ? 'bad' : '');
    tb.appendChild(tr);
  }
  table.appendChild(tb);
  el.replaceChildren(table);

  // Specific errors, visible without hovering.
  const errs = m.sources.filter((s) => !fileSummary(s).ok).map((s) => ({ name: s.name, message: s.status?.message || 'unreadable' }));
  for (const [name, p] of m.pending) if (p.state === 'error' && !seen.has(name)) errs.push({ name, message: p.message || 'failed' });
  errEl.replaceChildren(
    ...errs.map((e) => {
      const d = doc.createElement('div');
      d.className = 'file-error-msg';
      d.dataset.file = e.name;
      d.textContent = `${e.name}: ${e.message}`;
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
  if (hosts.length <= 1 && !hosts.some((h) => h.host)) {
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
    cell(tr, h.host || '(local)');
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

/** @param {HTMLTableRowElement} tr @param {string} text @param {string} [cls] */
function cell(tr, text, cls) {
  const td = tr.ownerDocument.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}
